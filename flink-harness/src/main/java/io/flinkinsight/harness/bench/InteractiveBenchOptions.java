package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GatewayClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command line of the interactive-client benchmark: {@code --client-jar <jar> [--plugin-jar <jar>]
 * [--gateway-clients jdbc,rest] [--concurrency 1,8,32] [--queries source,wordcount,join] [--seconds
 * 20] [--rounds 2] [--warmup 300] [--set key=value]... [--cluster-set key=value]... [--profile]
 * [--cluster plain|olap] [--work-dir dir] [--output file.md]}. Each {@code --set} is a session
 * setting of the {@code remote-interactive} sessions only; each {@code --cluster-set} a line of the
 * cluster's {@code config.yaml}, for both clients. {@code --profile} records a CPU profile of the
 * JobManager, TaskManager and gateway in each measured block ({@link CpuProfile}). {@code
 * --cluster} picks the cluster ({@link ClusterProfile}), default {@code plain}.
 */
record InteractiveBenchOptions(
        Path clientJar,
        Path pluginJar,
        List<GatewayClient> gatewayClients,
        List<Integer> concurrency,
        List<Integer> queries,
        int seconds,
        int rounds,
        int warmupQueries,
        Map<String, String> interactiveSettings,
        Map<String, String> clusterSettings,
        boolean profile,
        ClusterProfile cluster,
        Path workDir,
        Path output) {

    static final String USAGE =
            "usage: InteractiveQueryBenchmark --client-jar <jar> [--plugin-jar <jar>]"
                    + " [--gateway-clients jdbc,rest] [--concurrency 1,8,32] [--queries source,wordcount,join] [--seconds 20] [--rounds 2] [--warmup 300]"
                    + " [--set key=value]... [--cluster-set key=value]... [--profile] [--cluster plain|olap] [--work-dir dir] [--output file.md]";

    static InteractiveBenchOptions parse(String... args) {
        Path clientJar = null;
        Path pluginJar = null;
        List<GatewayClient> gatewayClients = List.of(GatewayClient.values());
        List<Integer> concurrency = List.of(1, 8, 32);
        List<Integer> queries = List.of(0, 1, 2);
        int seconds = 20;
        int rounds = 2;
        int warmup = 300;
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> clusterSettings = new LinkedHashMap<>();
        Path workDir = Path.of("flink-harness", "target", "bench-interactive");
        boolean profile = false;
        ClusterProfile cluster = ClusterProfile.PLAIN;
        Path output = Path.of("flink-harness", "target", "bench-interactive.md");
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--profile")) {
                profile = true;
                continue;
            }
            if (++i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            String value = args[i];
            switch (option) {
                case "--client-jar" -> clientJar = Path.of(value);
                case "--plugin-jar" -> pluginJar = Path.of(value);
                case "--gateway-clients" -> gatewayClients = gatewayClientList(value);
                case "--concurrency" -> concurrency = concurrencyList(value);
                case "--queries" -> queries = queryList(value);
                case "--seconds" -> seconds = positive(option, value);
                case "--rounds" -> rounds = positive(option, value);
                case "--warmup" -> warmup = positive(option, value);
                case "--set" -> putSetting(settings, option, value);
                case "--cluster-set" -> putSetting(clusterSettings, option, value);
                case "--cluster" -> cluster = clusterProfile(value);
                case "--work-dir" -> workDir = Path.of(value);
                case "--output" -> output = Path.of(value);
                default ->
                        throw new IllegalArgumentException(
                                "unknown option " + option + "\n" + USAGE);
            }
        }
        if (clientJar == null || !Files.isRegularFile(clientJar)) {
            throw new IllegalArgumentException(
                    "--client-jar: no file "
                            + clientJar
                            + " (build it: mvn -pl interactive-client -DskipTests package)\n"
                            + USAGE);
        }
        if (pluginJar != null && !Files.isRegularFile(pluginJar)) {
            throw new IllegalArgumentException("--plugin-jar: no file " + pluginJar + "\n" + USAGE);
        }
        return new InteractiveBenchOptions(
                clientJar,
                pluginJar,
                gatewayClients,
                concurrency,
                queries,
                seconds,
                rounds,
                warmup,
                settings,
                clusterSettings,
                profile,
                cluster,
                workDir.toAbsolutePath(),
                output);
    }

    private static ClusterProfile clusterProfile(String value) {
        try {
            return ClusterProfile.of(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cluster: " + e.getMessage() + "\n" + USAGE);
        }
    }

    private static void putSetting(Map<String, String> settings, String option, String value) {
        int eq = value.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException(
                    option + " needs key=value, got " + value + "\n" + USAGE);
        }
        settings.put(value.substring(0, eq).trim(), value.substring(eq + 1).trim());
    }

    /**
     * The names of the queries to run, in the order of {@link
     * InteractiveQueryBenchmark#QUERY_NAMES}.
     */
    List<String> queryNames() {
        return queries.stream().map(InteractiveQueryBenchmark.QUERY_NAMES::get).toList();
    }

    private static List<Integer> queryList(String value) {
        List<Integer> list = new ArrayList<>();
        for (String part : value.split(",")) {
            int index = InteractiveQueryBenchmark.QUERY_NAMES.indexOf(part.trim());
            if (index < 0) {
                throw new IllegalArgumentException(
                        "--queries: unknown query "
                                + part.trim()
                                + ", expected some of "
                                + String.join(",", InteractiveQueryBenchmark.QUERY_NAMES)
                                + "\n"
                                + USAGE);
            }
            if (!list.contains(index)) {
                list.add(index);
            }
        }
        return list.stream().sorted().toList();
    }

    private static List<GatewayClient> gatewayClientList(String value) {
        List<GatewayClient> list = new ArrayList<>();
        for (String part : value.split(",")) {
            try {
                GatewayClient client = GatewayClient.of(part.trim());
                if (!list.contains(client)) {
                    list.add(client);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--gateway-clients: " + e.getMessage() + "\n" + USAGE);
            }
        }
        return List.copyOf(list);
    }

    private static List<Integer> concurrencyList(String value) {
        List<Integer> list = new ArrayList<>();
        for (String part : value.split(",")) {
            list.add(positive("--concurrency", part.trim()));
        }
        return List.copyOf(list);
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(
                option + " needs a positive number, got " + value + "\n" + USAGE);
    }
}
