package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.ClusterConfiguration;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LocalFlinkClusterBuilder;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The demo: a Flink session cluster (the primary version, or {@code --flink-version}) with the
 * Insight plugin on fixed ports (dashboard 8081, gateway 8083, Insight 9250-9260), a checkpointing
 * streaming job, the RocksDB/changelog pair of {@link ChangelogPair} (one task slot each, printed
 * with the compare view's URL) and a trickle of short SQL queries, until Ctrl-C or {@code
 * --duration}. Everything it started is stopped on exit.
 */
public final class InsightDemo {

    static final int DASHBOARD_PORT = 8081;
    static final int GATEWAY_PORT = 8083;
    static final String INSIGHT_PORTS = "9250-9260";

    /** The plugin inside the gateway, which serves the interactive client's figures to the hub. */
    static final String GATEWAY_INSIGHT_PORTS = "9261-9270";

    static final String INTERACTIVE_TARGET = "remote-interactive";
    private static final Duration QUERY_INTERVAL = Duration.ofSeconds(2);
    private static final Duration STATUS_INTERVAL = Duration.ofSeconds(30);

    private final PrintStream out;

    InsightDemo(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        new InsightDemo(System.out).run(options);
    }

    void run(DemoOptions options) throws Exception {
        Path work = options.workDir().toAbsolutePath();
        clearPreviousRun(work);
        Path plugin = options.pluginJar();
        if (plugin != null && !Files.isRegularFile(plugin)) {
            out.println(
                    "WARNING: plugin jar "
                            + plugin
                            + " not found; starting Flink without it."
                            + " Build it with: mvn -pl metrics-plugin -DskipTests package");
            plugin = null;
        }
        Path client = options.clientJar();
        if (client != null && !Files.isRegularFile(client)) {
            out.println(
                    "WARNING: interactive client jar "
                            + client
                            + " not found; the short queries use Flink's own"
                            + " executor. Build it with: mvn -pl interactive-client -DskipTests package");
            client = null;
        }
        out.println(
                "Starting Flink "
                        + options.flinkVersion()
                        + " (JobManager, TaskManager, SQL Gateway) in "
                        + work
                        + " ...");
        long started = System.nanoTime();
        LocalFlinkClusterBuilder builder =
                LocalFlinkCluster.builder()
                        .flinkVersion(options.flinkVersion())
                        .workDir(work)
                        .pluginJar(plugin)
                        .taskManagers(1)
                        .slotsPerTaskManager(4)
                        .sqlGateway(true)
                        .restPort(DASHBOARD_PORT)
                        .gatewayPort(GATEWAY_PORT)
                        .insightPortRange(INSIGHT_PORTS)
                        .config(ChangelogPair.clusterSettings(work));
        if (client != null) {
            // the jar in the gateway's lib/, its figures served by the plugin in the gateway and
            // gathered by the hub
            builder.gatewayClasspath(client)
                    .gatewayConfig("metrics.reporter.insight.port", GATEWAY_INSIGHT_PORTS)
                    .config(
                            "metrics.reporter.insight.hub.clients",
                            "127.0.0.1:" + GATEWAY_INSIGHT_PORTS);
        }
        Map<String, String> querySettings =
                client == null ? Map.of() : Map.of("execution.target", INTERACTIVE_TARGET);
        try (LocalFlinkCluster cluster = builder.start();
                SqlSession streaming = cluster.sqlSession();
                SqlSession pairRocksdb = cluster.sqlSession();
                SqlSession pairChangelog = cluster.sqlSession();
                QueryTrickle queries =
                        new QueryTrickle(() -> cluster.sqlSession(querySettings), QUERY_INTERVAL)) {
            out.printf("Cluster up in %.1f s.%n", (System.nanoTime() - started) / 1e9);
            String jobId =
                    DemoWorkload.startStreamingJob(cluster, streaming, Duration.ofSeconds(60));
            out.println("Streaming job " + DemoWorkload.STREAMING_JOB_NAME + " running: " + jobId);
            ChangelogPair.JobIds pair =
                    ChangelogPair.start(
                            cluster, pairRocksdb, pairChangelog, Duration.ofSeconds(60));
            out.println(
                    "RocksDB/changelog pair running: "
                            + pair.rocksdb()
                            + " ("
                            + ChangelogPair.ROCKSDB_JOB_NAME
                            + "), "
                            + pair.changelog()
                            + " ("
                            + ChangelogPair.CHANGELOG_JOB_NAME
                            + ")");
            queries.start();
            printUrls(cluster, pair);
            waitUntilDone(options.duration(), cluster, jobId, queries);
            out.println("Stopping everything the demo started ...");
        }
        out.println("Stopped.");
    }

    private void printUrls(LocalFlinkCluster cluster, ChangelogPair.JobIds pair) {
        out.println();
        out.println("Flink dashboard:        " + cluster.restUrl() + "/");
        out.println("SQL Gateway (JDBC):     " + cluster.jdbcUrl());
        if (!cluster.spec().withPlugin()) {
            out.println(
                    "Flink Insight:          not loaded (started with --no-plugin or without a plugin jar)");
        } else {
            Optional<String> hub = insightUrl(cluster, Role.JOBMANAGER, Duration.ofSeconds(30));
            // When the hub is not serving, the plugin did not load at all: no use waiting as long
            // again.
            Optional<String> tm =
                    insightUrl(
                            cluster,
                            Role.TASKMANAGER,
                            Duration.ofSeconds(hub.isPresent() ? 30 : 2));
            if (hub.isPresent()) {
                out.println("Insight panel (hub):    " + hub.get() + "/");
                out.println(
                        "Flink dashboard + tab:  "
                                + hub.get()
                                + "/flink/   (Flink's dashboard with an \"Insight\" entry)");
                out.println("JobManager /metrics:    " + hub.get() + "/metrics");
                out.println("Overview:               " + hub.get() + "/api/v1/overview");
                out.println("Checkpoints:            " + hub.get() + "/api/v1/checkpoints");
                out.println("Jobs:                   " + hub.get() + "/api/v1/jobs");
                out.println(
                        "Compare the pair:       " + ChangelogPair.compareViewUrl(hub.get(), pair));
                out.println(
                        "  the same as JSON:     "
                                + hub.get()
                                + "/api/v1/compare?jobs="
                                + pair.rocksdb()
                                + ","
                                + pair.changelog());
                out.println(
                        "Client path:            "
                                + hub.get()
                                + "/api/v1/client"
                                + (cluster.spec().gatewayClasspath().isEmpty()
                                        ? "   (the queries run on Flink's own executor)"
                                        : "   (the queries run on " + INTERACTIVE_TARGET + ")"));
            } else {
                out.println(
                        "Flink Insight:          not serving in the JobManager; see "
                                + cluster.logFile(Role.JOBMANAGER));
            }
            out.println(
                    "TaskManager /metrics:   "
                            + tm.map(url -> url + "/metrics")
                                    .orElse(
                                            "not serving; see "
                                                    + cluster.logFile(Role.TASKMANAGER)));
        }
        out.println("Logs:                   " + cluster.workDir());
        out.println();
    }

    /**
     * The plugin may not be serving (e.g. while it is being written): the demo then runs on and
     * says so.
     */
    private static Optional<String> insightUrl(
            LocalFlinkCluster cluster, Role role, Duration timeout) {
        try {
            return Optional.of(cluster.insightUrl(role, timeout));
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    private void waitUntilDone(
            Duration duration, LocalFlinkCluster cluster, String jobId, QueryTrickle queries)
            throws InterruptedException {
        out.println(
                duration == null
                        ? "Running until Ctrl-C."
                        : "Running for " + duration.toSeconds() + " s.");
        long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        long nextStatus = System.nanoTime() + STATUS_INTERVAL.toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            if (System.nanoTime() >= nextStatus || System.nanoTime() >= end) {
                out.println(status(cluster, jobId, queries));
                nextStatus = System.nanoTime() + STATUS_INTERVAL.toNanos();
            }
        }
    }

    private static String status(LocalFlinkCluster cluster, String jobId, QueryTrickle queries) {
        String job;
        try {
            var counts = cluster.restGet("/jobs/" + jobId + "/checkpoints").path("counts");
            job =
                    "streaming job "
                            + cluster.jobState(jobId)
                            + ", checkpoints completed "
                            + counts.path("completed").asLong()
                            + ", failed "
                            + counts.path("failed").asLong();
        } catch (RuntimeException e) {
            job = "streaming job: REST not answering (" + e.getMessage() + ")";
        }
        return "[status] " + job + "; " + queries.status();
    }

    /** Deletes the previous demo run, but only a folder the harness wrote, never anything else. */
    private static void clearPreviousRun(Path work) throws IOException {
        Path conf = work.resolve("conf").resolve("config.yaml");
        if (!Files.isRegularFile(conf)
                || !Files.readString(conf).startsWith(ClusterConfiguration.YAML_HEADER)) {
            return;
        }
        try (Stream<Path> files = Files.walk(work)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
