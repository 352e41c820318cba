package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.CharacterFilter;

/**
 * Prometheus names exactly as Flink 2.2's {@code AbstractPrometheusReporter} makes them, without
 * its per-call regex: every code point outside {@code [a-zA-Z0-9:_]} becomes one {@code _}.
 */
public final class PrometheusNaming {

    /** The filter Flink's reporter applies to scope components, metric names and label names. */
    public static final CharacterFilter FILTER = PrometheusNaming::replaceInvalidChars;

    public static final String PREFIX = "flink_";
    public static final char SCOPE_SEPARATOR = '_';

    private PrometheusNaming() {}

    public static String replaceInvalidChars(String input) {
        int n = input.length();
        int i = 0;
        while (i < n && isValid(input.charAt(i))) {
            i++;
        }
        if (i == n) {
            return input; // the common case allocates nothing
        }
        StringBuilder sb = new StringBuilder(n).append(input, 0, i);
        while (i < n) {
            int cp = input.codePointAt(i);
            // Java's regex matches a supplementary character as one code point, so Flink writes one
            // '_' for it.
            sb.append(cp < 128 && isValid((char) cp) ? (char) cp : '_');
            i += Character.charCount(cp);
        }
        return sb.toString();
    }

    /**
     * A label name from a Flink variable key ({@code <tm_id>} becomes {@code tm_id}), as Flink
     * names it. Flink's filter keeps ':' and leading digits, which Prometheus rejects in label
     * names; those (never produced by Flink's own variables) become '_' and get a '_' prefix, so
     * the scrape stays valid.
     */
    public static String labelName(String variableKey) {
        String stripped =
                variableKey.length() >= 2
                                && variableKey.startsWith("<")
                                && variableKey.endsWith(">")
                        ? variableKey.substring(1, variableKey.length() - 1)
                        : variableKey;
        String name = replaceInvalidChars(stripped).replace(':', '_');
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            name = "_" + name;
        }
        return name;
    }

    /** The family name: {@code flink_} + logical scope + {@code _} + metric name. */
    public static String familyName(String logicalScope, String metricName) {
        return PREFIX + logicalScope + SCOPE_SEPARATOR + replaceInvalidChars(metricName);
    }

    /** The HELP text Flink's reporter writes. */
    public static String help(String logicalScope, String metricName) {
        return metricName + " (scope: " + logicalScope + ")";
    }

    private static boolean isValid(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == ':'
                || c == '_';
    }
}
