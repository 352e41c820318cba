package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The jars of one Flink version that {@code flink-dist-local} copied into {@code
 * target/flink-<version>/lib}, as an explicit classpath.
 */
public final class FlinkDistribution {

    /** System property naming the Flink version to start; default {@link #PRIMARY_VERSION}. */
    public static final String VERSION_PROPERTY = "insight.flink.version";

    /**
     * System property that points at the folder holding {@code flink-<version>/lib}, overriding the
     * upward search.
     */
    public static final String DISTS_PROPERTY = "flink.insight.flink-dists";

    /**
     * The version the project builds against (the root pom's {@code flink.version}), recorded at
     * build time.
     */
    public static final String PRIMARY_VERSION = HarnessProperties.get("flink.version");

    /**
     * Every version {@code flink-dist-local} resolves, oldest first: the primary one and its
     * submodules. Later patch releases of 1.20, 2.0 and 2.1 lack some jars on Maven Central, hence
     * these exact ones.
     */
    public static final List<String> VERSIONS =
            versions(HarnessProperties.get("flink.versions.older"), PRIMARY_VERSION);

    static final String RELATIVE_DISTS = "flink-dist-local/target";

    /**
     * Flink's own PrometheusReporter jar ({@code flink-metrics-prometheus} of {@link
     * #PRIMARY_VERSION}, from Maven Central), as Flink's distribution ships it for {@code
     * plugins/}.
     */
    public static Path prometheusReporterJar() {
        return Path.of(HarnessProperties.get("flink.prometheus.reporter.jar"));
    }

    private final String version;
    private final Path libDir;
    private final List<Path> jars;

    private FlinkDistribution(String version, Path libDir, List<Path> jars) {
        this.version = version;
        this.libDir = libDir;
        this.jars = jars;
    }

    /**
     * The version named by {@value #VERSION_PROPERTY}, else the primary one; see {@link
     * #locate(String)}.
     */
    public static FlinkDistribution locate() {
        return locate(configuredVersion());
    }

    /** {@value #VERSION_PROPERTY} when set, else {@link #PRIMARY_VERSION}. */
    public static String configuredVersion() {
        String configured = System.getProperty(VERSION_PROPERTY);
        return configured == null || configured.isBlank() ? PRIMARY_VERSION : configured.trim();
    }

    /**
     * The lib folder of {@code version} under {@value #DISTS_PROPERTY}, else found upward from the
     * working dir.
     */
    public static FlinkDistribution locate(String version) {
        String configured = System.getProperty(DISTS_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return at(libOf(Path.of(configured), version), version);
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = libOf(dir.resolve(RELATIVE_DISTS), version);
            if (Files.isDirectory(candidate)) {
                return at(candidate, version);
            }
        }
        throw new IllegalStateException(
                "No Flink "
                        + version
                        + " jars found: "
                        + RELATIVE_DISTS
                        + "/flink-"
                        + version
                        + "/lib is in no parent"
                        + " of "
                        + start
                        + " and -D"
                        + DISTS_PROPERTY
                        + " is not set. "
                        + buildHint(version));
    }

    /** Uses the given lib folder, whatever version it holds. */
    public static FlinkDistribution at(Path libDir) {
        return at(libDir, null);
    }

    /**
     * Uses the given lib folder; fails with the build command when it holds no Flink runtime jar,
     * or one of another version than {@code expectedVersion} (null: any).
     */
    static FlinkDistribution at(Path libDir, String expectedVersion) {
        Path dir = libDir.toAbsolutePath().normalize();
        String hint = buildHint(expectedVersion);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("Flink lib folder " + dir + " does not exist. " + hint);
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            // Sorted, so every process gets the same, reproducible classpath.
            jars =
                    files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                            .sorted()
                            .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
        String version =
                jars.stream()
                        .map(FlinkDistribution::runtimeVersion)
                        .flatMap(Optional::stream)
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "Flink lib folder "
                                                        + dir
                                                        + " holds no flink-runtime jar. "
                                                        + hint));
        if (expectedVersion != null && !expectedVersion.equals(version)) {
            throw new IllegalStateException(
                    "Flink lib folder "
                            + dir
                            + " holds Flink "
                            + version
                            + ", not "
                            + expectedVersion
                            + ". "
                            + hint);
        }
        return new FlinkDistribution(version, dir, List.copyOf(jars));
    }

    /** The Flink version, read from the flink-runtime jar's name. */
    public String version() {
        return version;
    }

    public Path libDir() {
        return libDir;
    }

    /** The jars, sorted by file name. */
    public List<Path> jars() {
        return jars;
    }

    /** The jars followed by {@code extra}, joined with the platform's path separator. */
    public String classpath(List<Path> extra) {
        return Stream.concat(jars.stream(), extra.stream())
                .map(Path::toString)
                .collect(Collectors.joining(java.io.File.pathSeparator));
    }

    static Path libOf(Path dists, String version) {
        return dists.resolve("flink-" + version).resolve("lib");
    }

    /**
     * The Maven command that resolves {@code version}'s jars: the primary one is flink-dist-local
     * itself.
     */
    static String buildHint(String version) {
        String modules =
                version == null || version.equals(PRIMARY_VERSION)
                        ? "flink-dist-local"
                        : "flink-dist-local,flink-dist-local/flink-" + version;
        String known =
                VERSIONS.contains(version) || version == null
                        ? ""
                        : " (the versions it knows: " + VERSIONS + ")";
        return "Build it with: mvn -pl " + modules + " package" + known;
    }

    private static Optional<String> runtimeVersion(Path jar) {
        String name = jar.getFileName().toString();
        String prefix = "flink-runtime-";
        if (!name.startsWith(prefix) || !name.endsWith(".jar")) {
            return Optional.empty();
        }
        String version = name.substring(prefix.length(), name.length() - ".jar".length());
        // flink-runtime-web-2.3.0.jar shares the prefix; a version starts with a digit.
        return !version.isEmpty() && Character.isDigit(version.charAt(0))
                ? Optional.of(version)
                : Optional.empty();
    }

    private static List<String> versions(String older, String primary) {
        return Stream.concat(
                        Stream.of(older.split(",")).map(String::trim).filter(v -> !v.isEmpty()),
                        Stream.of(primary))
                .distinct()
                .toList();
    }
}
