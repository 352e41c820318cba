package io.flinkinsight.plugin;

/**
 * The plugin needs Java 17; Flink 1.20 also runs on Java 8 and 11, Flink 2.x on 11. Flink loads
 * every reporter factory a plugin lists before it reads which reporters are configured, and a class
 * built for Java 17 would throw {@code UnsupportedClassVersionError} out of that loading (Flink
 * catches only exceptions there, so the process would not start). So the factories Flink loads, and
 * this check, are built for Java 8 (see the pom's {@code java8-entry-points}): they load on any
 * JVM, and on one older than 17 creating a reporter fails with one clear message, which Flink logs
 * before carrying on without the reporter.
 */
public final class JavaVersionCheck {

    public static final int REQUIRED = 17;

    private JavaVersionCheck() {}

    /**
     * Throws, naming the JVM, when this JVM is older than {@value #REQUIRED}; Flink logs the
     * message ("Could not instantiate ...") and carries on without the reporter.
     *
     * @param reporter e.g. "metrics.reporter.insight"
     */
    public static void requireSupportedJava(String reporter) {
        String specification = System.getProperty("java.specification.version", "");
        int feature = feature(specification);
        if (feature < REQUIRED) {
            throw new UnsupportedOperationException(
                    "Flink Insight needs Java "
                            + REQUIRED
                            + " or newer; this JVM is"
                            + " Java "
                            + specification
                            + " ("
                            + System.getProperty("java.home")
                            + "), so "
                            + reporter
                            + " is left out and Flink carries on without it. Run Flink on Java 17+ or remove"
                            + " plugins/insight/.");
        }
    }

    /**
     * The feature release of a {@code java.specification.version}: "1.8" is 8, "11" is 11; 0 when
     * unreadable.
     */
    static int feature(String specification) {
        String s = specification.startsWith("1.") ? specification.substring(2) : specification;
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(s.substring(0, end));
    }
}
