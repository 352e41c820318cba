package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.FlinkDistribution;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Command line of the demo: {@code [--duration <seconds>] [--work-dir <dir>] [--plugin-jar
 * <jar>|--no-plugin] [--client-jar <jar>|--no-client] [--flink-version <version>]}.
 *
 * @param duration how long to run; null runs until Ctrl-C
 * @param pluginJar null starts the cluster without the plugin
 * @param clientJar the interactive client for the gateway's classpath; null sends the queries on
 *     Flink's own {@code remote} executor
 * @param flinkVersion the Flink version to start, one of {@link FlinkDistribution#VERSIONS}
 */
record DemoOptions(
        Duration duration, Path workDir, Path pluginJar, Path clientJar, String flinkVersion) {

    static final Path DEFAULT_WORK_DIR = Path.of("flink-harness", "target", "demo");
    static final Path DEFAULT_PLUGIN_JAR =
            Path.of("metrics-plugin", "target", "metrics-plugin-0.1.0-SNAPSHOT.jar");
    static final Path DEFAULT_CLIENT_JAR =
            Path.of("interactive-client", "target", "interactive-client-0.1.0-SNAPSHOT.jar");

    static final String USAGE =
            "usage: InsightDemo [--duration <seconds>] [--work-dir <dir>]"
                    + " [--plugin-jar <jar> | --no-plugin] [--client-jar <jar> | --no-client] [--flink-version <version>]"
                    + " (versions: "
                    + String.join(", ", FlinkDistribution.VERSIONS)
                    + "; default "
                    + FlinkDistribution.PRIMARY_VERSION
                    + ")";

    static DemoOptions parse(String... args) {
        Duration duration = null;
        Path workDir = DEFAULT_WORK_DIR;
        Path pluginJar = DEFAULT_PLUGIN_JAR;
        Path clientJar = DEFAULT_CLIENT_JAR;
        String flinkVersion = FlinkDistribution.PRIMARY_VERSION;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--duration" -> {
                    long seconds = parseSeconds(value(args, ++i, "--duration"));
                    duration = Duration.ofSeconds(seconds);
                }
                case "--work-dir" -> workDir = Path.of(value(args, ++i, "--work-dir"));
                case "--plugin-jar" -> pluginJar = Path.of(value(args, ++i, "--plugin-jar"));
                case "--no-plugin" -> pluginJar = null;
                case "--client-jar" -> clientJar = Path.of(value(args, ++i, "--client-jar"));
                case "--no-client" -> clientJar = null;
                case "--flink-version" ->
                        flinkVersion = flinkVersion(value(args, ++i, "--flink-version"));
                default ->
                        throw new IllegalArgumentException(
                                "unknown option " + args[i] + "\n" + USAGE);
            }
        }
        return new DemoOptions(duration, workDir, pluginJar, clientJar, flinkVersion);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[index];
    }

    private static String flinkVersion(String text) {
        if (!FlinkDistribution.VERSIONS.contains(text)) {
            throw new IllegalArgumentException(
                    "--flink-version must be one of "
                            + FlinkDistribution.VERSIONS
                            + ", got "
                            + text
                            + "\n"
                            + USAGE);
        }
        return text;
    }

    private static long parseSeconds(String text) {
        try {
            long seconds = Long.parseLong(text);
            if (seconds > 0) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // Reported below with the usage.
        }
        throw new IllegalArgumentException(
                "--duration needs a positive number of seconds, got " + text + "\n" + USAGE);
    }
}
