package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.ClassHistogram;
import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.GatewaySession;
import io.flinkinsight.harness.JvmHeap;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The production-shaped cluster benchmark: JobManager, three TaskManagers and the SQL Gateway, a
 * checkpointing RocksDB job running, many short queries through the gateway (its REST API, {@code
 * remote-interactive}) while the panel's overview page is polled every 5 s as an open tab does.
 * Prints, over time, the JobManager's heap after a full GC ({@code jcmd <pid> GC.run}, then its own
 * heap-used gauge), the series of its {@code /metrics} and what its stores hold ({@code
 * /api/v1/overview}); then checks that the heap after a full GC is within {@value #HEAP_SLACK_MIB}
 * MiB of its baseline, the series are back at their baseline, the stores stay within {@code
 * stores.max-bytes} and the history within {@code history.max-series}, a job started afterwards
 * gets history, and every TaskManager's figures are on the hub. Class histograms of the JobManager
 * at the baseline and after say which classes hold what the heap grew by: the plugin's, or Flink's
 * records of finished jobs. Writes the Markdown report.
 */
public final class ProductionShapeBenchmark {

    static final String USAGE =
            "usage: ProductionShapeBenchmark --client-jar <jar> --plugin-jar <jar>"
                    + " [--queries 10000] [--minutes 15] [--concurrency 4] [--sample-seconds 60]"
                    + " [--high-availability none|zookeeper] [--work-dir dir] [--output file.md]";
    static final int TASK_MANAGERS = 3;
    static final int HEAP_SLACK_MIB = 20;
    static final int WARMUP_QUERIES = 300;

    /** The stores' default budget ({@code stores.max-bytes}) and the history's series bound. */
    static final long STORES_MAX_BYTES = 128L * 1024 * 1024;

    static final long HISTORY_MAX_SERIES = 20_000;

    /**
     * What the panel's overview page asks every 5 s (see web-extension's overview-page.ts), for a
     * 15-minute range.
     */
    static final List<String> OVERVIEW_PAGE =
            List.of(
                    "/api/v1/overview",
                    "/api/v1/client",
                    "/api/v1/jobs?limit=500",
                    "/api/v1/checkpoints?limit=180",
                    "/api/v1/series?metric=insight_vertex_latency_ms&from=-15m&step=5s&quantile=0.99&limit=10");

    /**
     * What Flink itself keeps of finished jobs and applications in the JobManager's heap: caches of
     * 50 MB each and a record of every job (its details and result, a few KB) for an hour, by
     * default. Here 4 MiB caches, filled by the warm-up, and records kept for a minute, so the heap
     * figures show what the plugin keeps, not what Flink does.
     */
    static final Map<String, String> FLINK_ARCHIVES =
            Map.of(
                    "jobstore.cache-size", "4194304",
                    "completed-application-store.cache-size", "4194304",
                    "jobstore.expiration-time", "60",
                    "completed-application-store.expiration-time", "60 s");

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code zookeeper}: the JobManager with ZooKeeper high availability, as production runs it;
     * its job results go to the file system store, which deletes them once clean, instead of the
     * in-memory store of a cluster without high availability, which keeps every finished job's
     * result for the JobManager's life.
     */
    record Options(
            Path clientJar,
            Path pluginJar,
            int queries,
            int minutes,
            int concurrency,
            int sampleSeconds,
            boolean zooKeeperHa,
            Path workDir,
            Path output) {}

    /** One row of the table over time. */
    record Sample(
            String phase,
            double elapsedS,
            int queries,
            int failed,
            double heapAfterGcMiB,
            int series,
            long historySeries,
            long historyBytes,
            long checkpointBytes,
            long storesBytes,
            long overviewPolls,
            long overviewErrors) {}

    private final Options options;
    private final List<Sample> samples = new ArrayList<>();
    private final AtomicLong overviewPolls = new AtomicLong();
    private final AtomicLong overviewErrors = new AtomicLong();
    private final AtomicLong overviewBytes = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private long started;

    ProductionShapeBenchmark(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        ProductionShapeBenchmark bench = new ProductionShapeBenchmark(options);
        String markdown = bench.run();
        System.out.println();
        System.out.println(markdown);
        Files.createDirectories(options.output().toAbsolutePath().getParent());
        Files.writeString(options.output(), markdown, StandardCharsets.UTF_8);
        System.out.println("Written to " + options.output());
        if (markdown.contains("| no |")) {
            System.exit(1);
        }
    }

    static Options parse(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length || !args[i].startsWith("--")) {
                throw new IllegalArgumentException("bad argument " + args[i] + "\n" + USAGE);
            }
            given.put(args[i].substring(2), args[i + 1]);
        }
        Set<String> known =
                Set.of(
                        "client-jar",
                        "plugin-jar",
                        "queries",
                        "minutes",
                        "concurrency",
                        "sample-seconds",
                        "high-availability",
                        "work-dir",
                        "output");
        for (String key : given.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown option --" + key + "\n" + USAGE);
            }
        }
        Path clientJar = requireFile(given.get("client-jar"), "--client-jar");
        Path pluginJar = requireFile(given.get("plugin-jar"), "--plugin-jar");
        String ha = given.getOrDefault("high-availability", "none");
        if (!ha.equals("none") && !ha.equals("zookeeper")) {
            throw new IllegalArgumentException(
                    "--high-availability must be none or zookeeper, got " + ha + "\n" + USAGE);
        }
        return new Options(
                clientJar,
                pluginJar,
                positive(given, "queries", 10_000),
                positive(given, "minutes", 15),
                positive(given, "concurrency", 4),
                positive(given, "sample-seconds", 60),
                ha.equals("zookeeper"),
                Path.of(
                                given.getOrDefault(
                                        "work-dir", "flink-harness/target/bench-production-shape"))
                        .toAbsolutePath(),
                Path.of(
                        given.getOrDefault(
                                "output", "flink-harness/target/bench-production-shape.md")));
    }

    private static Path requireFile(String value, String option) {
        if (value == null || !Files.isRegularFile(Path.of(value))) {
            throw new IllegalArgumentException(
                    option + " must name a built jar, got " + value + "\n" + USAGE);
        }
        return Path.of(value);
    }

    private static int positive(Map<String, String> given, String key, int fallback) {
        String v = given.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "--" + key + " needs a positive number, got " + v + "\n" + USAGE);
    }

    String run() throws Exception {
        System.out.println(
                "Starting JobManager, "
                        + TASK_MANAGERS
                        + " TaskManagers and the SQL Gateway in "
                        + options.workDir()
                        + " ...");
        try (LocalFlinkCluster cluster =
                        LocalFlinkCluster.builder()
                                .workDir(options.workDir())
                                .pluginJar(options.pluginJar())
                                .sqlGateway(true)
                                .gatewayClasspath(options.clientJar())
                                .taskManagers(TASK_MANAGERS)
                                .slotsPerTaskManager(options.concurrency() + 2)
                                .config(FLINK_ARCHIVES)
                                .zooKeeperHa(options.zooKeeperHa())
                                .start();
                SqlSession streaming = cluster.sqlSession()) {
            String streamingJob =
                    DemoWorkload.startStreamingJob(cluster, streaming, Duration.ofMinutes(2));
            System.out.println(
                    "Checkpointing job "
                            + streamingJob
                            + " running; warm-up: "
                            + WARMUP_QUERIES
                            + " queries ...");
            List<GatewaySession> sessions = openSessions(cluster);
            ExecutorService workers = Executors.newFixedThreadPool(options.concurrency() + 1);
            AtomicBoolean panelOpen = new AtomicBoolean(true);
            try {
                Future<?> panel = workers.submit(() -> pollOverviewPage(cluster, panelOpen));
                started = System.nanoTime();
                runQueries(workers, sessions, WARMUP_QUERIES, Long.MAX_VALUE);
                int baselineSeries = awaitSeriesSettled(cluster, Integer.MAX_VALUE);
                Sample baseline = sample(cluster, "baseline");
                ClassHistogram baselineClasses =
                        ClassHistogram.of(cluster.process(Role.JOBMANAGER).pid());
                done.set(0);
                failed.set(0);

                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(options.minutes());
                Future<?> queries =
                        Executors.newSingleThreadExecutor(
                                        r -> {
                                            Thread t = new Thread(r, "bench-queries");
                                            t.setDaemon(true);
                                            return t;
                                        })
                                .submit(
                                        () -> {
                                            runQueries(
                                                    workers, sessions, options.queries(), deadline);
                                            return null;
                                        });
                while (!queries.isDone()) {
                    try {
                        queries.get(options.sampleSeconds(), TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        sample(cluster, "queries");
                    }
                }
                queries.get();
                int ran = done.get();
                int queryFailures = failed.get();
                awaitSeriesSettled(cluster, baselineSeries);
                Sample after = sample(cluster, "after");
                ClassHistogram afterClasses =
                        ClassHistogram.of(cluster.process(Role.JOBMANAGER).pid());
                panelOpen.set(false);
                panel.get(30, TimeUnit.SECONDS);
                String laterJob = startLaterJob(cluster);
                boolean laterHistory = hasHistory(cluster, laterJob);
                Set<String> taskManagers = taskManagersOnHub(cluster);
                return report(
                                baseline,
                                after,
                                ran,
                                queryFailures,
                                laterJob,
                                laterHistory,
                                taskManagers)
                        + heapGrowth(baselineClasses, afterClasses);
            } finally {
                panelOpen.set(false);
                workers.shutdownNow();
                sessions.forEach(GatewaySession::close);
            }
        }
    }

    private List<GatewaySession> openSessions(LocalFlinkCluster cluster) {
        List<GatewaySession> sessions = new ArrayList<>();
        for (int i = 0; i < options.concurrency(); i++) {
            GatewaySession session = cluster.gatewayRestSession();
            sessions.add(session);
            DemoWorkload.shortQueryTables().forEach(session::execute);
            session.set(
                    Map.of(
                            "execution.runtime-mode",
                            "streaming",
                            "execution.target",
                            InteractiveQueryBenchmark.Client.INTERACTIVE.target));
        }
        return sessions;
    }

    /**
     * Runs up to {@code count} of the three short queries over the sessions, until {@code deadline}
     * (nanoTime).
     */
    private void runQueries(
            ExecutorService workers, List<GatewaySession> sessions, int count, long deadline)
            throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        for (GatewaySession session : sessions) {
            running.add(
                    workers.submit(
                            () -> {
                                for (int i = next.getAndIncrement();
                                        i < count && System.nanoTime() < deadline;
                                        i = next.getAndIncrement()) {
                                    try {
                                        int rows =
                                                session.query(
                                                                DemoWorkload.shortQueries()
                                                                        .get(i % 3))
                                                        .size();
                                        if (rows != 1) {
                                            throw new IllegalStateException(rows + " rows");
                                        }
                                        done.incrementAndGet();
                                    } catch (RuntimeException e) {
                                        if (failed.incrementAndGet() <= 3) {
                                            System.out.println("  query failed: " + e.getMessage());
                                        }
                                    }
                                }
                                return null;
                            }));
        }
        for (Future<?> f : running) {
            f.get(options.minutes() + 30L, TimeUnit.MINUTES);
        }
    }

    /** The panel's overview page in an open tab: its requests every 5 s. */
    private void pollOverviewPage(LocalFlinkCluster cluster, AtomicBoolean open) {
        while (open.get()) {
            for (String path : OVERVIEW_PAGE) {
                try {
                    overviewBytes.addAndGet(cluster.insightGet(Role.JOBMANAGER, path).length());
                } catch (RuntimeException e) {
                    if (overviewErrors.incrementAndGet() <= 3) {
                        System.out.println(
                                "  overview request failed: " + path + ": " + e.getMessage());
                    }
                }
                overviewPolls.incrementAndGet();
            }
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Waits (at most 3 minutes) until the JobManager's series count is at most {@code target}, or,
     * with no target, stops changing over 15 s (finished jobs' metric groups go a little after the
     * jobs); returns the count.
     */
    private static int awaitSeriesSettled(LocalFlinkCluster cluster, int target) {
        int[] last = {-1};
        long[] since = {System.nanoTime()};
        try {
            return Waits.until(
                    "the JobManager's series to settle",
                    Duration.ofMinutes(3),
                    Duration.ofSeconds(1),
                    () -> {
                        int now = seriesCount(cluster);
                        if (target != Integer.MAX_VALUE && now <= target) {
                            return Optional.of(now);
                        }
                        if (now != last[0]) {
                            last[0] = now;
                            since[0] = System.nanoTime();
                        }
                        boolean stable =
                                System.nanoTime() - since[0] > TimeUnit.SECONDS.toNanos(15);
                        return target == Integer.MAX_VALUE && stable
                                ? Optional.of(now)
                                : Optional.empty();
                    },
                    () -> "");
        } catch (IllegalStateException e) {
            System.out.println("  " + e.getMessage().lines().findFirst().orElse(""));
            return seriesCount(cluster);
        }
    }

    private static int seriesCount(LocalFlinkCluster cluster) {
        int count = 0;
        for (String line : cluster.insightGet(Role.JOBMANAGER, "/metrics").split("\n")) {
            if (!line.isEmpty() && line.charAt(0) != '#') {
                count++;
            }
        }
        return count;
    }

    private Sample sample(LocalFlinkCluster cluster, String phase) throws Exception {
        JsonNode overview = JSON.readTree(cluster.insightGet(Role.JOBMANAGER, "/api/v1/overview"));
        Sample s =
                new Sample(
                        phase,
                        (System.nanoTime() - started) / 1e9,
                        done.get(),
                        failed.get(),
                        JvmHeap.usedAfterFullGc(cluster, Role.JOBMANAGER) / 1048576.0,
                        seriesCount(cluster),
                        overview.path("flink_insight_history_series").asLong(),
                        overview.path("flink_insight_history_bytes").asLong(),
                        overview.path("flink_insight_checkpoints_bytes").asLong(),
                        overview.path("flink_insight_stores_bytes").asLong(),
                        overviewPolls.get(),
                        overviewErrors.get());
        samples.add(s);
        System.out.println(row(s));
        return s;
    }

    /** Another checkpointing job, started after the queries; returns its id once RUNNING. */
    private static String startLaterJob(LocalFlinkCluster cluster) {
        String name = "started-after-the-queries";
        try (SqlSession session = cluster.sqlSession()) {
            Map<String, String> settings = new LinkedHashMap<>(DemoWorkload.streamingJobSettings());
            settings.put("pipeline.name", name);
            session.set(settings);
            DemoWorkload.streamingJobStatements().forEach(session::execute);
        }
        return Waits.until(
                "job " + name + " RUNNING",
                Duration.ofMinutes(2),
                Duration.ofSeconds(1),
                () -> {
                    for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
                        if (name.equals(job.path("name").asText())
                                && "RUNNING".equals(job.path("state").asText())) {
                            return Optional.of(job.path("jid").asText());
                        }
                    }
                    return Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    /**
     * Whether the hub writes history for {@code jobId} within 2 minutes (records out per vertex).
     */
    private static boolean hasHistory(LocalFlinkCluster cluster, String jobId) {
        try {
            return Waits.until(
                    "history of job " + jobId,
                    Duration.ofMinutes(2),
                    Duration.ofSeconds(2),
                    () -> {
                        JsonNode series =
                                JSON.readTree(
                                                cluster.insightGet(
                                                        Role.JOBMANAGER,
                                                        "/api/v1/series?metric=insight_vertex_records_out_per_second&from=-10m&job_id="
                                                                + jobId))
                                        .path("series");
                        for (JsonNode s : series) {
                            if (s.path("points").size() > 0) {
                                return Optional.of(true);
                            }
                        }
                        return Optional.empty();
                    },
                    () -> "");
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /**
     * The TaskManagers whose heap figures the hub wrote in the last 10 minutes, by {@code tm_id}.
     */
    private static Set<String> taskManagersOnHub(LocalFlinkCluster cluster) throws Exception {
        Set<String> ids = new TreeSet<>();
        JsonNode series =
                JSON.readTree(
                                cluster.insightGet(
                                        Role.JOBMANAGER,
                                        "/api/v1/series?metric=insight_taskmanager_heap_used_bytes&from=-10m"))
                        .path("series");
        for (JsonNode s : series) {
            if (s.path("points").size() > 0) {
                ids.add(s.path("labels").path("tm_id").asText());
            }
        }
        return ids;
    }

    private static String row(Sample s) {
        return String.format(
                Locale.ROOT,
                "| %s | %.0f | %d | %d | %.1f | %d | %d | %.1f | %.1f | %.1f | %d | %d |",
                s.phase(),
                s.elapsedS(),
                s.queries(),
                s.failed(),
                s.heapAfterGcMiB(),
                s.series(),
                s.historySeries(),
                s.historyBytes() / 1048576.0,
                s.checkpointBytes() / 1048576.0,
                s.storesBytes() / 1048576.0,
                s.overviewPolls(),
                s.overviewErrors());
    }

    private String report(
            Sample baseline,
            Sample after,
            int ran,
            int queryFailures,
            String laterJob,
            boolean laterHistory,
            Set<String> taskManagers) {
        double minutes = (after.elapsedS() - baseline.elapsedS()) / 60;
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Machine: %s.%n%n", OverheadBenchmark.machine()));
        md.append(
                String.format(
                        Locale.ROOT,
                        "Flink %s: JobManager%s, %d TaskManagers (%d slots each), SQL Gateway"
                                + " with the interactive client; a checkpointing RocksDB job (2 s interval); %d short queries"
                                + " asked, %d ran (%d failed) on `remote-interactive` at concurrency %d over the gateway's REST"
                                + " API in %.1f minutes (%.1f QPS; the run stops after %d minutes); the panel's overview page"
                                + " polled every 5 s (%d requests, %d failed, %.1f MB answered). What Flink itself keeps of"
                                + " finished jobs and applications (`jobstore.cache-size`,"
                                + " `completed-application-store.cache-size`: 50 MB each; `jobstore.expiration-time`,"
                                + " `completed-application-store.expiration-time`: 1 h, by default) is 4 MiB caches, filled by"
                                + " the %d warm-up queries, and 60 s here, so the heap shows what the plugin keeps.%n%n",
                        FlinkDistribution.configuredVersion(),
                        options.zooKeeperHa() ? " (ZooKeeper high availability)" : "",
                        TASK_MANAGERS,
                        options.concurrency() + 2,
                        options.queries(),
                        ran,
                        queryFailures,
                        options.concurrency(),
                        minutes,
                        ran / Math.max(1e-9, minutes * 60),
                        options.minutes(),
                        after.overviewPolls(),
                        after.overviewErrors(),
                        overviewBytes.get() / 1e6,
                        WARMUP_QUERIES));
        md.append(
                "| phase | time (s) | queries | failed | JM heap after full GC (MiB) | JM `/metrics` series"
                        + " | history series | history (MiB) | checkpoints (MiB) | stores (MiB) | overview requests"
                        + " | overview errors |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Sample s : samples) {
            md.append(row(s)).append('\n');
        }
        md.append('\n');
        double heapGrowth = after.heapAfterGcMiB() - baseline.heapAfterGcMiB();
        md.append("| check | figure | met |\n| --- | --- | --- |\n");
        check(
                md,
                "JM heap after a full GC within " + HEAP_SLACK_MIB + " MiB of the baseline",
                String.format(
                        Locale.ROOT,
                        "%.1f → %.1f MiB (%+.1f)",
                        baseline.heapAfterGcMiB(),
                        after.heapAfterGcMiB(),
                        heapGrowth),
                heapGrowth <= HEAP_SLACK_MIB);
        check(
                md,
                "JM `/metrics` series back to the baseline",
                baseline.series() + " → " + after.series(),
                after.series() <= baseline.series());
        check(
                md,
                "stores within `stores.max-bytes` (128 MB)",
                String.format(Locale.ROOT, "%.1f MiB at most", maxStoresBytes() / 1048576.0),
                maxStoresBytes() <= STORES_MAX_BYTES);
        check(
                md,
                "history within `history.max-series` (20000)",
                maxHistorySeries() + " series at most",
                maxHistorySeries() <= HISTORY_MAX_SERIES);
        check(md, "a job started afterwards has history", laterJob, laterHistory);
        check(
                md,
                "every TaskManager's figures on the hub",
                taskManagers.size() + " of " + TASK_MANAGERS + " TaskManagers",
                taskManagers.size() == TASK_MANAGERS);
        check(
                md,
                "no query and no overview request failed",
                queryFailures + " queries, " + after.overviewErrors() + " requests",
                queryFailures == 0 && after.overviewErrors() == 0);
        return md.toString();
    }

    private long maxStoresBytes() {
        return samples.stream().mapToLong(Sample::storesBytes).max().orElse(0);
    }

    /**
     * Flink's record of one finished job or application, kept by its job store and job result
     * store.
     */
    private static boolean flinkFinishedJobRecord(String className) {
        return FINISHED_JOB_RECORDS.contains(className.substring(className.lastIndexOf('.') + 1));
    }

    private static final Set<String> FINISHED_JOB_RECORDS =
            Set.of(
                    "JobDetails",
                    "JobResult",
                    "ApplicationDetails",
                    "ApplicationResult",
                    "ExecutionGraphInfo");

    /** Which classes hold what the JobManager's heap grew by, from its class histograms. */
    private static String heapGrowth(ClassHistogram before, ClassHistogram after) {
        StringBuilder md = new StringBuilder();
        md.append(
                String.format(
                        Locale.ROOT,
                        "%nWhere the JobManager's heap grew (live objects by class,"
                                + " `jcmd <pid> GC.class_histogram` at the baseline and after): all classes %+.1f MiB; the"
                                + " plugin's own classes (`io.flinkinsight.*`, shaded libraries included) %+.2f MiB;"
                                + " Flink's records of finished jobs and applications (%s) %+.2f MiB. The classes that grew"
                                + " most:%n%n",
                        after.bytesGrownSince(before, c -> true) / 1048576.0,
                        after.bytesGrownSince(before, c -> c.startsWith("io.flinkinsight."))
                                / 1048576.0,
                        String.join(", ", new TreeSet<>(FINISHED_JOB_RECORDS)),
                        after.bytesGrownSince(
                                        before, ProductionShapeBenchmark::flinkFinishedJobRecord)
                                / 1048576.0));
        md.append("| class | instances | MiB |\n| --- | --- | --- |\n");
        after.growthSince(before).stream()
                .limit(12)
                .forEach(
                        g ->
                                md.append(
                                        String.format(
                                                Locale.ROOT,
                                                "| `%s` | %+d | %+.2f |%n",
                                                g.className(),
                                                g.instances(),
                                                g.bytes() / 1048576.0)));
        return md.toString();
    }

    private long maxHistorySeries() {
        return samples.stream().mapToLong(Sample::historySeries).max().orElse(0);
    }

    private static void check(StringBuilder md, String what, String figure, boolean met) {
        md.append("| ")
                .append(what)
                .append(" | ")
                .append(figure)
                .append(" | ")
                .append(met ? "yes" : "no")
                .append(" |\n");
    }
}
