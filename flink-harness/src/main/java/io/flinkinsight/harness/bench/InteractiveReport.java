package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Block;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GatewayClient;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The interactive-client benchmark as Markdown: per gateway client, concurrency, query and executor
 * the pooled figures of all rounds, then stock against interactive with the interactive client's
 * targets (concurrency 1: p50 E2E ≤ 0.6× stock; up to 8: QPS ≥ 1.4× stock; above: QPS ≥ 1.3× stock;
 * always: JobManager CPU per query ≤ 0.8× stock).
 */
final class InteractiveReport {

    private final List<Block> blocks;
    private final InteractiveBenchOptions options;
    private final String machine;

    InteractiveReport(List<Block> blocks, InteractiveBenchOptions options, String machine) {
        this.blocks = List.copyOf(blocks);
        this.options = options;
        this.machine = machine;
    }

    /** All rounds of one (concurrency, query, client), pooled. */
    record Cell(
            GatewayClient gatewayClient,
            int concurrency,
            String query,
            Client client,
            List<Double> latencies,
            List<Double> jobs,
            List<Double> beforeJob,
            List<Double> afterJob,
            double wallSeconds,
            int failures,
            double jmCpu,
            double tmCpu,
            double gatewayCpu,
            double driverCpu) {

        double qps() {
            return latencies.size() / wallSeconds;
        }

        double p50() {
            return Stats.percentile(latencies, 50);
        }

        double jobP50() {
            return Stats.percentile(jobs, 50);
        }

        /**
         * Median E2E minus median cluster-side job time: what the client path, gateway and polling
         * add.
         */
        double outsideJob() {
            return p50() - jobP50();
        }
    }

    Cell cell(GatewayClient gatewayClient, int concurrency, String query, Client client) {
        List<Block> mine =
                blocks.stream()
                        .filter(
                                b ->
                                        b.gatewayClient() == gatewayClient
                                                && b.concurrency() == concurrency
                                                && b.query().equals(query)
                                                && b.client() == client)
                        .toList();
        List<Double> latencies = new ArrayList<>();
        List<Double> jobs = new ArrayList<>();
        List<Double> before = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        double wall = 0;
        int failures = 0;
        for (Block b : mine) {
            latencies.addAll(b.latenciesMs());
            jobs.addAll(b.jobMs());
            before.addAll(b.beforeJobMs());
            after.addAll(b.afterJobMs());
            wall += b.wallSeconds();
            failures += b.failures();
        }
        return new Cell(
                gatewayClient,
                concurrency,
                query,
                client,
                latencies,
                jobs,
                before,
                after,
                wall,
                failures,
                meanCpu(mine, InteractiveQueryBenchmark.JM_CPU),
                meanCpu(mine, InteractiveQueryBenchmark.TM_CPU),
                meanCpu(mine, InteractiveQueryBenchmark.GATEWAY_CPU),
                meanCpu(mine, InteractiveQueryBenchmark.DRIVER_CPU));
    }

    private static double meanCpu(List<Block> blocks, String process) {
        return blocks.stream()
                .mapToDouble(b -> b.cpuPercent().get(process))
                .average()
                .orElse(Double.NaN);
    }

    private static String settings(Map<String, String> settings) {
        return settings.entrySet().stream()
                .map(e -> "`" + e.getKey() + "=" + e.getValue() + "`")
                .collect(Collectors.joining(", "));
    }

    /** p50 E2E at most this share of stock's at concurrency 1. */
    static final double P50_TARGET = 0.6;

    /** JobManager CPU per query at most this share of stock's. */
    static final double JM_CPU_TARGET = 0.8;

    /** Least QPS, as a share of stock's, at {@code concurrency} (above 1). */
    static double qpsTarget(int concurrency) {
        return concurrency <= 8 ? 1.4 : 1.3;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("Machine: ").append(machine).append("\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Setup: Flink %s; gateway client (%s) → SQL Gateway → session cluster (1"
                                + " JobManager, 1 TaskManager with %d slots, separate JVMs on 127.0.0.1), streaming mode, the"
                                + " three short queries (source, wordcount, join) over 1-row `datagen` tables; warm-up %d"
                                + " queries; blocks of %d s per gateway client, executor and query, %d rounds, ABBA order."
                                + " `remote-interactive` sessions set: %s. Cluster configuration beyond Flink's defaults and"
                                + " the harness's: %s.%n%n",
                        FlinkDistribution.configuredVersion(),
                        options.gatewayClients().stream()
                                .map(
                                        c ->
                                                c == GatewayClient.JDBC
                                                        ? "`jdbc`: Flink's JDBC driver"
                                                        : "`rest`: the gateway's REST API, polled every 10 ms")
                                .collect(Collectors.joining(", ")),
                        InteractiveQueryBenchmark.slots(options),
                        options.warmupQueries(),
                        options.seconds(),
                        options.rounds(),
                        options.interactiveSettings().isEmpty()
                                ? "nothing (the client's defaults)"
                                : settings(options.interactiveSettings()),
                        options.clusterSettings().isEmpty()
                                ? "none"
                                : settings(options.clusterSettings())));
        md.append(
                "| gateway client | concurrency | query | executor | queries | failed | QPS | E2E p50 (ms) |"
                        + " E2E p99 (ms) | job p50, cluster (ms) | outside job (ms) | before job p50 (ms) |"
                        + " after job p50 (ms) | JM CPU (% core) | TM CPU | gateway CPU | gateway client CPU |\n");
        md.append(
                "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (GatewayClient g : options.gatewayClients()) {
            for (int c : options.concurrency()) {
                for (String q : options.queryNames()) {
                    for (Client client : Client.values()) {
                        Cell x = cell(g, c, q, client);
                        md.append(
                                String.format(
                                        Locale.ROOT,
                                        "| %s | %d | %s | `%s` | %d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f"
                                                + " | %.0f | %.0f | %.0f | %.0f |%n",
                                        g.label,
                                        c,
                                        q,
                                        client.target,
                                        x.latencies().size(),
                                        x.failures(),
                                        x.qps(),
                                        x.p50(),
                                        Stats.percentile(x.latencies(), 99),
                                        x.jobP50(),
                                        x.outsideJob(),
                                        Stats.percentile(x.beforeJob(), 50),
                                        Stats.percentile(x.afterJob(), 50),
                                        x.jmCpu(),
                                        x.tmCpu(),
                                        x.gatewayCpu(),
                                        x.driverCpu()));
                    }
                }
            }
        }
        md.append(
                "\nInteractive against stock, medians as ratios (the interactive client's targets: at concurrency 1"
                        + " p50 E2E ≤ 0.6× stock; at concurrency up to 8 QPS ≥ 1.4×, above 1.3× stock; JobManager CPU per"
                        + " query ≤ 0.8× stock):\n\n");
        md.append(
                "| gateway client | concurrency | query | p50 E2E, interactive / stock |"
                        + " time outside the job, cut by | QPS, interactive / stock |"
                        + " JM CPU per query, interactive / stock | target |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---|\n");
        for (GatewayClient g : options.gatewayClients()) {
            for (int c : options.concurrency()) {
                for (String q : options.queryNames()) {
                    Cell stock = cell(g, c, q, Client.STOCK);
                    Cell fast = cell(g, c, q, Client.INTERACTIVE);
                    double p50Ratio = fast.p50() / stock.p50();
                    double outsideCut = 1 - fast.outsideJob() / stock.outsideJob();
                    double qpsRatio = fast.qps() / stock.qps();
                    double jmCpuPerQuery =
                            (fast.jmCpu() / fast.qps()) / (stock.jmCpu() / stock.qps());
                    String speed =
                            c == 1
                                    ? String.format(
                                            Locale.ROOT,
                                            "p50 ≤ %.1f× %s",
                                            P50_TARGET,
                                            p50Ratio <= P50_TARGET ? "met" : "not met")
                                    : String.format(
                                            Locale.ROOT,
                                            "QPS ≥ %.1f× %s",
                                            qpsTarget(c),
                                            qpsRatio >= qpsTarget(c) ? "met" : "not met");
                    String cpu =
                            String.format(
                                    Locale.ROOT,
                                    "JM CPU ≤ %.1f× %s",
                                    JM_CPU_TARGET,
                                    jmCpuPerQuery <= JM_CPU_TARGET ? "met" : "not met");
                    md.append(
                            String.format(
                                    Locale.ROOT,
                                    "| %s | %d | %s | %.2f | %.0f%% | %.2f | %.2f | %s; %s |%n",
                                    g.label,
                                    c,
                                    q,
                                    p50Ratio,
                                    100 * outsideCut,
                                    qpsRatio,
                                    jmCpuPerQuery,
                                    speed,
                                    cpu));
                }
            }
        }
        return md.toString();
    }
}
