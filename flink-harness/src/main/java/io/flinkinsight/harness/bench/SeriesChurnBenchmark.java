package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.GatewaySession;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LocalFlinkClusterBuilder;
import io.flinkinsight.harness.LogFiles;
import io.flinkinsight.harness.PrometheusServer;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Series churn from short queries, measured with a real Prometheus (Debian's package) scraping the
 * JobManager's and the TaskManager's {@code /metrics} every second: for each setup a fresh cluster
 * (JobManager, TaskManager, SQL Gateway on Flink's stock {@code remote} executor), a warm-up, then
 * N short queries (the demo's source, wordcount and join over 1-row tables, in batch mode) from C
 * sessions, and the series Prometheus created meanwhile ({@code
 * prometheus_tsdb_head_series_created_total}, read from Prometheus's own {@code /metrics}). The
 * setups: Flink's own PrometheusReporter ({@code flink-metrics-prometheus} of the same version, in
 * {@code plugins/}), the Insight plugin with {@code scrape.job-series.min-age: 0} (every series at
 * once, as Flink's) and the Insight plugin with its defaults. Flink's reporter has no bind-address
 * option: for its run it listens on every interface (ports {@value #FLINK_REPORTER_PORTS}).
 *
 * <p>Arguments: {@code --plugin-jar <jar> [--queries 1000] [--concurrency 4] [--warmup 30]
 * [--gateway-client jdbc|rest] [--setups flink,insight-0,insight] [--work-dir dir] [--output
 * file.md]}.
 */
public final class SeriesChurnBenchmark {

    static final String FLINK_REPORTER_PORTS = "19330-19349";
    static final String INSIGHT_PORTS = "19310-19329";
    private static final Pattern FLINK_REPORTER_STARTED =
            Pattern.compile("Started PrometheusReporter HTTP server on port (?<port>\\d+)");

    /** Long enough for a few 1 s scrapes after the last query, so every job caught is counted. */
    private static final Duration SETTLE = Duration.ofSeconds(5);

    private static final Duration QUERIES_TIMEOUT = Duration.ofMinutes(90);

    /** The three ways a process serves its metrics to Prometheus. */
    enum Setup {
        FLINK("flink", "Flink's PrometheusReporter"),
        INSIGHT_ALL("insight-0", "Insight, `scrape.job-series.min-age: 0` (Flink's behaviour)"),
        INSIGHT("insight", "Insight, defaults (`scrape.job-series.min-age: 30 s`)");

        final String id;
        final String title;

        Setup(String id, String title) {
            this.id = id;
            this.title = title;
        }

        static Setup of(String id) {
            for (Setup s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException(
                    "unknown setup " + id + " (flink, insight-0, insight)");
        }
    }

    /**
     * What one setup's run measured; the per-target figures are the JobManager's, then the
     * TaskManager's.
     */
    record Result(
            Setup setup,
            int queries,
            int failures,
            double wallSeconds,
            double seriesCreated,
            double headSeriesAfter,
            double[] seriesAdded,
            double[] scrapes,
            double[] minUp,
            double jobsSeen) {

        double perThousandQueries() {
            return seriesCreated * 1000.0 / queries;
        }
    }

    private final Path pluginJar;
    private final int queries;
    private final int concurrency;
    private final int warmup;
    private final boolean jdbc;
    private final Path workDir;

    private SeriesChurnBenchmark(
            Path pluginJar, int queries, int concurrency, int warmup, boolean jdbc, Path workDir) {
        this.pluginJar = pluginJar;
        this.queries = queries;
        this.concurrency = concurrency;
        this.warmup = warmup;
        this.jdbc = jdbc;
        this.workDir = workDir;
    }

    public static void main(String[] args) throws Exception {
        Path pluginJar = null;
        int queries = 1000;
        int concurrency = 4;
        int warmup = 30;
        boolean jdbc = true;
        List<Setup> setups = List.of(Setup.values());
        Path workDir = Path.of("flink-harness", "target", "bench-series-churn");
        Path output = Path.of("flink-harness", "target", "bench-series-churn.md");
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--plugin-jar" -> pluginJar = Path.of(value);
                case "--queries" -> queries = positive(args[i], value);
                case "--concurrency" -> concurrency = positive(args[i], value);
                case "--warmup" -> warmup = positive(args[i], value);
                case "--gateway-client" -> jdbc = !value.equals("rest");
                case "--setups" ->
                        setups = List.of(value.split(",")).stream().map(Setup::of).toList();
                case "--work-dir" -> workDir = Path.of(value);
                case "--output" -> output = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (pluginJar == null || !Files.isRegularFile(pluginJar)) {
            throw new IllegalArgumentException(
                    "--plugin-jar <built metrics-plugin jar> is required");
        }
        SeriesChurnBenchmark bench =
                new SeriesChurnBenchmark(
                        pluginJar, queries, concurrency, warmup, jdbc, workDir.toAbsolutePath());
        List<Result> results = new ArrayList<>();
        for (Setup setup : setups) {
            System.out.println("== " + setup.title + ": " + queries + " queries ...");
            Result r = bench.run(setup);
            System.out.printf(
                    Locale.ROOT,
                    "   %.0f series created (%.0f per 1,000 queries) in %.0f s%n",
                    r.seriesCreated(),
                    r.perThousandQueries(),
                    r.wallSeconds());
            results.add(r);
        }
        String report = bench.report(results);
        System.out.println();
        System.out.println(report);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, report);
        System.out.println("written to " + output);
    }

    Result run(Setup setup) throws Exception {
        Path work = workDir.resolve(setup.id);
        LocalFlinkClusterBuilder builder =
                LocalFlinkCluster.builder().workDir(work.resolve("cluster")).sqlGateway(true);
        switch (setup) {
            case FLINK ->
                    builder.otherPlugin(
                                    "metrics-prometheus", FlinkDistribution.prometheusReporterJar())
                            .config(
                                    "metrics.reporter.prom.factory.class",
                                    "org.apache.flink.metrics.prometheus.PrometheusReporterFactory")
                            .config("metrics.reporter.prom.port", FLINK_REPORTER_PORTS);
            case INSIGHT_ALL ->
                    builder.pluginJar(pluginJar)
                            .insightPortRange(INSIGHT_PORTS)
                            .config("metrics.reporter.insight.scrape.job-series.min-age", "0");
            case INSIGHT -> builder.pluginJar(pluginJar).insightPortRange(INSIGHT_PORTS);
        }
        try (LocalFlinkCluster cluster = builder.start()) {
            List<String> targets =
                    List.of(
                            target(cluster, setup, Role.JOBMANAGER),
                            target(cluster, setup, Role.TASKMANAGER));
            Files.createDirectories(work.resolve("prometheus"));
            try (PrometheusServer prometheus =
                    PrometheusServer.start(
                            work.resolve("prometheus"), Map.of("flink", targets), null)) {
                return measure(setup, cluster, prometheus, targets);
            }
        }
    }

    private Result measure(
            Setup setup,
            LocalFlinkCluster cluster,
            PrometheusServer prometheus,
            List<String> targets)
            throws Exception {
        List<GatewaySession> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < concurrency; i++) {
                GatewaySession session = jdbc ? cluster.sqlSession() : cluster.gatewayRestSession();
                sessions.add(session);
                DemoWorkload.prepareShortQueries(session);
            }
            runQueries(sessions, warmup); // class loading, JIT, the series every process has
            Thread.sleep(SETTLE.toMillis());
            double createdBefore =
                    prometheus.ownFigure("prometheus_tsdb_head_series_created_total");
            long start = System.nanoTime();
            int failures = runQueries(sessions, queries);
            double wallSeconds = (System.nanoTime() - start) / 1e9;
            Thread.sleep(SETTLE.toMillis());
            double created =
                    prometheus.ownFigure("prometheus_tsdb_head_series_created_total")
                            - createdBefore;
            String range = "[" + (long) Math.ceil(wallSeconds + SETTLE.toSeconds()) + "s]";
            return new Result(
                    setup,
                    queries,
                    failures,
                    wallSeconds,
                    created,
                    prometheus.ownFigure("prometheus_tsdb_head_series"),
                    byTarget(
                            prometheus.query("sum_over_time(scrape_series_added" + range + ")"),
                            targets),
                    byTarget(prometheus.query("count_over_time(up" + range + ")"), targets),
                    byTarget(prometheus.query("min_over_time(up" + range + ")"), targets),
                    scalar(
                            prometheus.query(
                                    "count(count by (job_id) (last_over_time({job_id=~\".+\"}"
                                            + range
                                            + ")))")));
        } finally {
            for (GatewaySession session : sessions) {
                session.close();
            }
        }
    }

    /**
     * Runs {@code count} short queries over the sessions, one thread each; returns the failures.
     */
    private static int runQueries(List<GatewaySession> sessions, int count) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        List<String> queries = DemoWorkload.shortQueries();
        ExecutorService pool = Executors.newFixedThreadPool(sessions.size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (GatewaySession session : sessions) {
                running.add(
                        pool.submit(
                                () -> {
                                    int i;
                                    while ((i = next.getAndIncrement()) < count) {
                                        try {
                                            if (session.query(queries.get(i % queries.size()))
                                                            .size()
                                                    != 1) {
                                                failures.incrementAndGet();
                                            }
                                        } catch (RuntimeException e) {
                                            failures.incrementAndGet();
                                        }
                                    }
                                    return null;
                                }));
            }
            long deadline = System.nanoTime() + QUERIES_TIMEOUT.toNanos();
            for (Future<?> f : running) {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return failures.get();
    }

    /**
     * The host:port Prometheus scrapes for a process: the plugin's, or Flink's reporter's from its
     * log line.
     */
    private static String target(LocalFlinkCluster cluster, Setup setup, Role role) {
        if (setup != Setup.FLINK) {
            return cluster.insightUrl(role).replaceFirst("^https?://", "");
        }
        Path log = cluster.process(role).logFile();
        String port =
                Waits.until(
                        "Flink's PrometheusReporter started in " + log,
                        Duration.ofSeconds(30),
                        Duration.ofMillis(200),
                        () ->
                                LogFiles.firstMatch(log, FLINK_REPORTER_STARTED)
                                        .map(m -> m.group("port")),
                        () -> LogFiles.tail(log, 30));
        return "127.0.0.1:" + port;
    }

    /** The value of each target's sample of an instant vector, in the order of {@code targets}. */
    private static double[] byTarget(JsonNode result, List<String> targets) {
        double[] values = new double[targets.size()];
        for (JsonNode sample : result) {
            int i = targets.indexOf(sample.path("metric").path("instance").asText());
            if (i >= 0) {
                values[i] = sample.path("value").path(1).asDouble();
            }
        }
        return values;
    }

    private static double scalar(JsonNode result) {
        return result.isEmpty() ? 0 : result.get(0).path("value").path(1).asDouble();
    }

    String report(List<Result> results) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%s, Flink %s. %s. Each setup on a fresh cluster (JobManager, TaskManager, SQL Gateway"
                                + " on the stock `remote` executor, separate JVMs on 127.0.0.1), a real Prometheus"
                                + " (`%s`) scraping the JobManager's and the TaskManager's `/metrics` every 1 s;"
                                + " %d warm-up queries, then %d short queries (the demo's source, wordcount and"
                                + " join over 1-row tables, batch mode) from %d %s sessions. *Series created*:"
                                + " the rise of `prometheus_tsdb_head_series_created_total` over the queries and"
                                + " %d s after; *series added*: `sum_over_time(scrape_series_added[...])` per"
                                + " target; *query jobs seen*: distinct `job_id` values Prometheus stored.%n%n",
                        LocalDate.now(),
                        FlinkDistribution.PRIMARY_VERSION,
                        OverheadBenchmark.machine(),
                        PrometheusServer.version(),
                        warmup,
                        queries,
                        concurrency,
                        jdbc ? "JDBC (Flink's driver)" : "gateway REST (10 ms polls)",
                        SETTLE.toSeconds()));
        out.append(
                "| setup | queries (failed) | time (s) | series created | per 1,000 queries | series added JM / TM"
                        + " | query jobs seen | head series after | scrapes JM / TM (all up) |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %d (%d) | %.0f | %.0f | %.0f | %.0f / %.0f | %.0f | %.0f | %.0f / %.0f (%s) |%n",
                            r.setup().title,
                            r.queries(),
                            r.failures(),
                            r.wallSeconds(),
                            r.seriesCreated(),
                            r.perThousandQueries(),
                            r.seriesAdded()[0],
                            r.seriesAdded()[1],
                            r.jobsSeen(),
                            r.headSeriesAfter(),
                            r.scrapes()[0],
                            r.scrapes()[1],
                            r.minUp()[0] == 1 && r.minUp()[1] == 1 ? "yes" : "no"));
        }
        return out.toString();
    }

    private static int positive(String option, String value) {
        int n = Integer.parseInt(value.replace("_", ""));
        if (n <= 0) {
            throw new IllegalArgumentException(option + " needs a positive number, got " + value);
        }
        return n;
    }
}
