package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.LogLines;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Block;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GatewayClient;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The interactive-client benchmark as Markdown: per gateway client, concurrency, query and executor
 * the pooled figures of all rounds, then stock against interactive with the interactive client's
 * targets (always: gateway CPU per query ≤ 0.6× stock, JobManager CPU per query ≤ 0.8× stock; on
 * the OLAP cluster, the seed's: concurrency 1: p50 E2E ≤ 0.6× stock; up to 8: QPS ≥ 1.4× stock;
 * above: QPS ≥ 1.3× stock), and the CPU per query of each process.
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
            Map<String, Double> cpuSeconds,
            LogLines.Counts jobManagerLogLines,
            LogLines.Counts gatewayLogLines) {

        double qps() {
            return latencies.size() / wallSeconds;
        }

        /** CPU of {@code process} in % of a core over the cell's blocks; NaN if not measured. */
        double cpuPercent(String process) {
            return 100 * cpuSeconds.getOrDefault(process, Double.NaN) / wallSeconds;
        }

        /** CPU seconds of {@code process} per query that returned its row; NaN if not measured. */
        double cpuPerQuery(String process) {
            return cpuSeconds.getOrDefault(process, Double.NaN) / latencies.size();
        }

        double jmCpu() {
            return cpuPercent(InteractiveQueryBenchmark.JM_CPU);
        }

        double tmCpu() {
            return cpuPercent(InteractiveQueryBenchmark.TM_CPU);
        }

        double gatewayCpu() {
            return cpuPercent(InteractiveQueryBenchmark.GATEWAY_CPU);
        }

        double driverCpu() {
            return cpuPercent(InteractiveQueryBenchmark.DRIVER_CPU);
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
        Map<String, Double> cpu = new LinkedHashMap<>();
        LogLines.Counts logLines = LogLines.Counts.NONE;
        LogLines.Counts gatewayLogLines = LogLines.Counts.NONE;
        for (Block b : mine) {
            logLines = logLines.plus(b.jobManagerLogLines());
            gatewayLogLines = gatewayLogLines.plus(b.gatewayLogLines());
            b.cpuSeconds().forEach((process, seconds) -> cpu.merge(process, seconds, Double::sum));
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
                cpu,
                logLines,
                gatewayLogLines);
    }

    private static String settings(Map<String, String> settings) {
        return settings.entrySet().stream()
                .map(e -> "`" + e.getKey() + "=" + e.getValue() + "`")
                .collect(Collectors.joining(", "));
    }

    /** p50 E2E at most this share of stock's at concurrency 1 (the seed's, on the OLAP cluster). */
    static final double P50_TARGET = 0.6;

    /** JobManager CPU per query at most this share of stock's. */
    static final double JM_CPU_TARGET = 0.8;

    /** Gateway CPU per query at most this share of stock's. */
    static final double GATEWAY_CPU_TARGET = 0.6;

    /**
     * Least QPS, as a share of stock's, at {@code concurrency} (above 1; the seed's, on the OLAP
     * cluster).
     */
    static double qpsTarget(int concurrency) {
        return concurrency <= 8 ? 1.4 : 1.3;
    }

    /** CPU per query, interactive / stock, of {@code process}; NaN if either was not measured. */
    static double cpuPerQueryRatio(Cell stock, Cell fast, String process) {
        return fast.cpuPerQuery(process) / stock.cpuPerQuery(process);
    }

    private static String met(boolean met) {
        return met ? "met" : "not met";
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("Machine: ").append(machine).append("\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Setup: Flink %s; gateway client (%s) → SQL Gateway → session cluster; the"
                                + " three short queries (source, wordcount, join) over 1-row `datagen` tables; warm-up %d"
                                + " queries; blocks of %d s per gateway client, executor and query, %d rounds, ABBA order."
                                + " `remote-interactive` sessions set: %s. Further cluster configuration (`--cluster-set`):"
                                + " %s.%n%n",
                        FlinkDistribution.configuredVersion(),
                        options.gatewayClients().stream()
                                .map(
                                        c ->
                                                c == GatewayClient.JDBC
                                                        ? "`jdbc`: Flink's JDBC driver"
                                                        : "`rest`: the gateway's REST API, polled every 10 ms")
                                .collect(Collectors.joining(", ")),
                        options.warmupQueries(),
                        options.seconds(),
                        options.rounds(),
                        options.interactiveSettings().isEmpty()
                                ? "nothing (the client's defaults)"
                                : settings(options.interactiveSettings()),
                        options.clusterSettings().isEmpty()
                                ? "none"
                                : settings(options.clusterSettings())));
        md.append(options.cluster().describe(InteractiveQueryBenchmark.slots(options)))
                .append("\n\n");
        md.append(
                "| gateway client | concurrency | query | executor | queries | failed | QPS | E2E p50 (ms) |"
                        + " E2E p99 (ms) | job p50, cluster (ms) | outside job (ms) | before job p50 (ms) |"
                        + " after job p50 (ms) | JM CPU (% core) | TM CPU | gateway CPU | gateway client CPU |"
                        + " JM log ERROR / WARN lines | gateway log ERROR / WARN lines |\n");
        md.append(
                "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (GatewayClient g : options.gatewayClients()) {
            for (int c : options.concurrency()) {
                for (String q : options.queryNames()) {
                    for (Client client : Client.values()) {
                        Cell x = cell(g, c, q, client);
                        md.append(
                                String.format(
                                        Locale.ROOT,
                                        "| %s | %d | %s | `%s` | %d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f"
                                                + " | %.0f | %.0f | %.0f | %.0f | %d / %d | %d / %d |%n",
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
                                        x.driverCpu(),
                                        x.jobManagerLogLines().errors(),
                                        x.jobManagerLogLines().warnings(),
                                        x.gatewayLogLines().errors(),
                                        x.gatewayLogLines().warnings()));
                    }
                }
            }
        }
        cpuPerQuery(md);
        summary(md);
        return md.toString();
    }

    /**
     * CPU per query: each process's CPU seconds over the cell's blocks divided by the queries that
     * returned their row, stock and interactive, and their ratio.
     */
    private void cpuPerQuery(StringBuilder md) {
        boolean standby =
                blocks.stream()
                        .anyMatch(
                                b ->
                                        b.cpuSeconds()
                                                .containsKey(
                                                        InteractiveQueryBenchmark.JM_STANDBY_CPU));
        md.append(
                "\nCPU per query (CPU ms of the process over a block / queries that returned their row;"
                        + " JobManagers and TaskManagers summed"
                        + (standby
                                ? ", the standby JobManager, included in the sum, also on its own"
                                : "")
                        + "):\n\n");
        md.append(
                "| gateway client | concurrency | query | gateway, stock | gateway, interactive | ratio |"
                        + " JM, stock | JM, interactive | ratio |"
                        + (standby ? " JM standby, stock | JM standby, interactive |" : "")
                        + " TM, stock | TM, interactive | ratio |\n");
        md.append("|---|---:|---|" + "---:|".repeat(standby ? 11 : 9) + "\n");
        for (GatewayClient g : options.gatewayClients()) {
            for (int c : options.concurrency()) {
                for (String q : options.queryNames()) {
                    Cell stock = cell(g, c, q, Client.STOCK);
                    Cell fast = cell(g, c, q, Client.INTERACTIVE);
                    md.append(String.format(Locale.ROOT, "| %s | %d | %s |", g.label, c, q));
                    md.append(cpuColumns(stock, fast, InteractiveQueryBenchmark.GATEWAY_CPU, true));
                    md.append(cpuColumns(stock, fast, InteractiveQueryBenchmark.JM_CPU, true));
                    if (standby) {
                        md.append(
                                cpuColumns(
                                        stock,
                                        fast,
                                        InteractiveQueryBenchmark.JM_STANDBY_CPU,
                                        false));
                    }
                    md.append(cpuColumns(stock, fast, InteractiveQueryBenchmark.TM_CPU, true));
                    md.append("\n");
                }
            }
        }
    }

    private static String cpuColumns(Cell stock, Cell fast, String process, boolean ratio) {
        String columns =
                String.format(
                        Locale.ROOT,
                        " %.1f | %.1f |",
                        1000 * stock.cpuPerQuery(process),
                        1000 * fast.cpuPerQuery(process));
        return ratio
                ? columns
                        + String.format(
                                Locale.ROOT, " %.2f |", cpuPerQueryRatio(stock, fast, process))
                : columns;
    }

    private void summary(StringBuilder md) {
        boolean olap = options.cluster() == ClusterProfile.OLAP;
        md.append(
                String.format(
                        Locale.ROOT,
                        "%nInteractive against stock, medians as ratios. The interactive client's targets:"
                                + " gateway CPU per query ≤ %.1f× stock, JobManager CPU per query ≤ %.1f× stock;"
                                + " the seed's, on the OLAP cluster (`--cluster olap`): at concurrency 1 p50 E2E"
                                + " ≤ %.1f× stock, at concurrency up to 8 QPS ≥ %.1f×, above %.1f× stock%s:%n%n",
                        GATEWAY_CPU_TARGET,
                        JM_CPU_TARGET,
                        P50_TARGET,
                        qpsTarget(8),
                        qpsTarget(9),
                        olap
                                ? ""
                                : " (this run is on the plain cluster: the speed targets are shown for"
                                        + " orientation only)"));
        md.append(
                "| gateway client | concurrency | query | p50 E2E, interactive / stock |"
                        + " time outside the job, cut by | QPS, interactive / stock |"
                        + " gateway CPU per query, interactive / stock |"
                        + " JM CPU per query, interactive / stock | target |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (GatewayClient g : options.gatewayClients()) {
            for (int c : options.concurrency()) {
                for (String q : options.queryNames()) {
                    Cell stock = cell(g, c, q, Client.STOCK);
                    Cell fast = cell(g, c, q, Client.INTERACTIVE);
                    double p50Ratio = fast.p50() / stock.p50();
                    double outsideCut = 1 - fast.outsideJob() / stock.outsideJob();
                    double qpsRatio = fast.qps() / stock.qps();
                    double gatewayCpu =
                            cpuPerQueryRatio(stock, fast, InteractiveQueryBenchmark.GATEWAY_CPU);
                    double jmCpu = cpuPerQueryRatio(stock, fast, InteractiveQueryBenchmark.JM_CPU);
                    String speed =
                            c == 1
                                    ? String.format(
                                            Locale.ROOT,
                                            "p50 ≤ %.1f× %s",
                                            P50_TARGET,
                                            met(p50Ratio <= P50_TARGET))
                                    : String.format(
                                            Locale.ROOT,
                                            "QPS ≥ %.1f× %s",
                                            qpsTarget(c),
                                            met(qpsRatio >= qpsTarget(c)));
                    String cpu =
                            String.format(
                                    Locale.ROOT,
                                    "gateway CPU ≤ %.1f× %s; JM CPU ≤ %.1f× %s",
                                    GATEWAY_CPU_TARGET,
                                    met(gatewayCpu <= GATEWAY_CPU_TARGET),
                                    JM_CPU_TARGET,
                                    met(jmCpu <= JM_CPU_TARGET));
                    md.append(
                            String.format(
                                    Locale.ROOT,
                                    "| %s | %d | %s | %.2f | %.0f%% | %.2f | %.2f | %.2f | %s%s; %s |%n",
                                    g.label,
                                    c,
                                    q,
                                    p50Ratio,
                                    100 * outsideCut,
                                    qpsRatio,
                                    gatewayCpu,
                                    jmCpu,
                                    speed,
                                    olap ? "" : " (orientation)",
                                    cpu));
                }
            }
        }
    }
}
