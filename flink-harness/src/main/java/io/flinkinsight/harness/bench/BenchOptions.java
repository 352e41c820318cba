package io.flinkinsight.harness.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Command line of the overhead benchmark: {@code --workload-jar <jar> --plugin-jar <jar> [--rounds
 * n] [--records n] [--warmup-records n] [--scrape true|false] [--work-dir dir] [--output file.md]}.
 *
 * @param scrape whether a scraper fetches {@code /metrics} at 1 Hz in the runs with the plugin;
 *     false measures the plugin alone, to tell its own cost from the scrapes'
 */
record BenchOptions(
        Path workloadJar,
        Path pluginJar,
        int rounds,
        long records,
        long warmupRecords,
        boolean scrape,
        Path workDir,
        Path output) {

    static final String USAGE =
            "usage: OverheadBenchmark --workload-jar <jar> --plugin-jar <jar> [--rounds 5]"
                    + " [--records 200000000] [--warmup-records 20000000] [--scrape true|false] [--work-dir dir]"
                    + " [--output file.md]";

    static BenchOptions parse(String... args) {
        Path workloadJar = null;
        Path pluginJar = null;
        int rounds = 5;
        long records = 200_000_000L;
        long warmupRecords = 20_000_000L;
        boolean scrape = true;
        Path workDir = Path.of("workloads", "target", "bench-overhead");
        Path output = Path.of("workloads", "target", "bench-overhead.md");
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value\n" + USAGE);
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--workload-jar" -> workloadJar = Path.of(value);
                case "--plugin-jar" -> pluginJar = Path.of(value);
                case "--rounds" -> rounds = (int) positive(args[i], value);
                case "--records" -> records = positive(args[i], value);
                case "--warmup-records" -> warmupRecords = positive(args[i], value);
                case "--scrape" -> {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new IllegalArgumentException(
                                "--scrape needs true or false, got " + value + "\n" + USAGE);
                    }
                    scrape = Boolean.parseBoolean(value);
                }
                case "--work-dir" -> workDir = Path.of(value);
                case "--output" -> output = Path.of(value);
                default ->
                        throw new IllegalArgumentException(
                                "unknown option " + args[i] + "\n" + USAGE);
            }
        }
        requireFile("--workload-jar", workloadJar, "mvn -pl workloads package");
        requireFile("--plugin-jar", pluginJar, "mvn -pl metrics-plugin -DskipTests package");
        return new BenchOptions(
                workloadJar,
                pluginJar,
                rounds,
                records,
                warmupRecords,
                scrape,
                workDir.toAbsolutePath(),
                output);
    }

    private static long positive(String option, String value) {
        try {
            long n = Long.parseLong(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(
                option + " needs a positive number, got " + value + "\n" + USAGE);
    }

    private static void requireFile(String option, Path file, String build) {
        if (file == null) {
            throw new IllegalArgumentException(option + " is required\n" + USAGE);
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(
                    option + " " + file + " does not exist; build it with: " + build);
        }
    }
}
