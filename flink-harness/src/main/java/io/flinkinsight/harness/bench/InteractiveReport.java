package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Block;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The interactive-client benchmark as Markdown: per concurrency, query and client the pooled figures of all rounds,
 * then stock against interactive with the interactive client's targets (concurrency 1: time outside the job cut by
 * ≥ 60% and p50 E2E ≤ 0.7× stock; higher concurrency: QPS ≥ 1.3× stock).
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
    record Cell(int concurrency, String query, Client client, List<Double> latencies, List<Double> jobs,
            List<Double> beforeJob, List<Double> afterJob, double wallSeconds, int failures, double jmCpu,
            double tmCpu, double gatewayCpu, double driverCpu) {

        double qps() {
            return latencies.size() / wallSeconds;
        }

        double p50() {
            return Stats.percentile(latencies, 50);
        }

        double jobP50() {
            return Stats.percentile(jobs, 50);
        }

        /** Median E2E minus median cluster-side job time: what the client path, gateway and polling add. */
        double outsideJob() {
            return p50() - jobP50();
        }
    }

    Cell cell(int concurrency, String query, Client client) {
        List<Block> mine = blocks.stream()
                .filter(b -> b.concurrency() == concurrency && b.query().equals(query) && b.client() == client)
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
        return new Cell(concurrency, query, client, latencies, jobs, before, after, wall, failures,
                meanCpu(mine, InteractiveQueryBenchmark.JM_CPU), meanCpu(mine, InteractiveQueryBenchmark.TM_CPU),
                meanCpu(mine, InteractiveQueryBenchmark.GATEWAY_CPU),
                meanCpu(mine, InteractiveQueryBenchmark.DRIVER_CPU));
    }

    private static double meanCpu(List<Block> blocks, String process) {
        return blocks.stream().mapToDouble(b -> b.cpuPercent().get(process)).average().orElse(Double.NaN);
    }

    private static String settings(Map<String, String> settings) {
        return settings.entrySet().stream()
                .map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").collect(Collectors.joining(", "));
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("Machine: ").append(machine).append("\n\n");
        md.append(String.format(Locale.ROOT, "Setup: JDBC driver → SQL Gateway → session cluster (1 JobManager, 1"
                        + " TaskManager with %d slots, separate JVMs on 127.0.0.1), streaming mode, the three short"
                        + " queries (source, wordcount, join) over 1-row `datagen` tables; warm-up %d queries; blocks"
                        + " of %d s per client and query, %d rounds, ABBA order. `remote-interactive` sessions set:"
                        + " %s. Cluster configuration beyond Flink's defaults and the harness's: %s.%n%n",
                InteractiveQueryBenchmark.slots(options), options.warmupQueries(),
                options.seconds(), options.rounds(), settings(options.interactiveSettings()),
                options.clusterSettings().isEmpty() ? "none" : settings(options.clusterSettings())));
        md.append("| concurrency | query | client | queries | failed | QPS | E2E p50 (ms) | E2E p99 (ms) |"
                + " job p50, cluster (ms) | outside job (ms) | before job p50 (ms) | after job p50 (ms) |"
                + " JM CPU (% core) | TM CPU | gateway CPU | JDBC client CPU |\n");
        md.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int c : options.concurrency()) {
            for (String q : options.queryNames()) {
                for (Client client : Client.values()) {
                    Cell x = cell(c, q, client);
                    md.append(String.format(Locale.ROOT,
                            "| %d | %s | `%s` | %d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f"
                                    + " | %.0f | %.0f | %.0f |%n",
                            c, q, client.target, x.latencies().size(), x.failures(), x.qps(), x.p50(),
                            Stats.percentile(x.latencies(), 99), x.jobP50(), x.outsideJob(),
                            Stats.percentile(x.beforeJob(), 50), Stats.percentile(x.afterJob(), 50),
                            x.jmCpu(), x.tmCpu(), x.gatewayCpu(), x.driverCpu()));
                }
            }
        }
        md.append("\nInteractive against stock (the interactive client's targets: at concurrency 1 the time outside"
                + " the job cut by ≥ 60% and p50 E2E ≤ 0.7× stock; at higher concurrency QPS ≥ 1.3× stock):\n\n");
        md.append("| concurrency | query | p50 E2E, interactive / stock | time outside the job, cut by |"
                + " QPS, interactive / stock | JM CPU per query, interactive / stock | target |\n");
        md.append("|---:|---|---:|---:|---:|---:|---|\n");
        for (int c : options.concurrency()) {
            for (String q : options.queryNames()) {
                Cell stock = cell(c, q, Client.STOCK);
                Cell fast = cell(c, q, Client.INTERACTIVE);
                double p50Ratio = fast.p50() / stock.p50();
                double outsideCut = 1 - fast.outsideJob() / stock.outsideJob();
                double qpsRatio = fast.qps() / stock.qps();
                double jmCpuPerQuery = (fast.jmCpu() / fast.qps()) / (stock.jmCpu() / stock.qps());
                String target = c == 1
                        ? (outsideCut >= 0.6 && p50Ratio <= 0.7 ? "met" : "not met")
                                + " (cut ≥ 60%, p50 ≤ 0.7×)"
                        : (qpsRatio >= 1.3 ? "met" : "not met") + " (QPS ≥ 1.3×)";
                md.append(String.format(Locale.ROOT, "| %d | %s | %.2f | %.0f%% | %.2f | %.2f | %s |%n",
                        c, q, p50Ratio, 100 * outsideCut, qpsRatio, jmCpuPerQuery, target));
            }
        }
        return md.toString();
    }
}
