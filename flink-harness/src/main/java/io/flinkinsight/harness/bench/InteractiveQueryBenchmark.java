package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.GatewayRestSession;
import io.flinkinsight.harness.GatewaySession;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LocalFlinkClusterBuilder;
import io.flinkinsight.harness.LogLines;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The short-query benchmark: how fast short queries run through the SQL Gateway with Flink's stock
 * {@code remote} executor and with {@code remote-interactive}, on this machine. A gateway client
 * (Flink's JDBC driver, or a client of the gateway's REST API polling every 10 ms) → SQL Gateway →
 * session cluster, the three queries (source, wordcount, join over 1-row {@code datagen} tables,
 * streaming mode, or batch on the OLAP cluster: {@link ClusterProfile}), at each concurrency, with
 * either executor, in one run on one cluster: blocks of a fixed duration, the two executors
 * interleaved (ABBA across rounds) after a warm-up of both. Per block: E2E latency of every query
 * as the gateway client sees it (execute → last row read), QPS, the cluster-side duration of the
 * same jobs (Flink's REST {@code /jobs/overview}, jobs found by a per-block and per-session {@code
 * pipeline.name}), the time before each query's job started and after it ended (a session runs its
 * queries one after another, so its queries and jobs pair up in order), and the CPU time of the
 * JobManager, TaskManager and gateway processes ({@code /proc/<pid>/stat}). Prints and writes a
 * Markdown report.
 */
public final class InteractiveQueryBenchmark {

    /** The executor the gateway runs a session's queries with ({@code execution.target}). */
    enum Client {
        STOCK("remote"),
        INTERACTIVE("remote-interactive");

        final String target;

        Client(String target) {
            this.target = target;
        }
    }

    /** How the benchmark talks to the SQL Gateway. */
    enum GatewayClient {
        /** Flink's JDBC driver. */
        JDBC("jdbc"),
        /**
         * The gateway's REST API: submit, poll the result every 10 ms, close ({@link
         * GatewayRestSession}).
         */
        REST("rest");

        final String label;

        GatewayClient(String label) {
            this.label = label;
        }

        static GatewayClient of(String label) {
            for (GatewayClient client : values()) {
                if (client.label.equals(label)) {
                    return client;
                }
            }
            throw new IllegalArgumentException(
                    "unknown gateway client " + label + ", expected jdbc or rest");
        }
    }

    static final List<String> QUERY_NAMES = List.of("source", "wordcount", "join");

    /** Columns of the CPU figures, one per process. */
    static final String JM_CPU = "JobManager";

    /** Under high availability: the JobManagers that do not lead (also counted in JM_CPU). */
    static final String JM_STANDBY_CPU = "JobManager standby";

    static final String TM_CPU = "TaskManager";
    static final String GATEWAY_CPU = "gateway";
    static final String DRIVER_CPU = "gateway client";
    private static final long QUERY_TIMEOUT_SECONDS = 120;

    private final InteractiveBenchOptions options;
    private final List<Block> blocks = new ArrayList<>();

    /** With {@code --profile}: the CPU profiles of the blocks, else null. */
    private CpuProfile profile;

    InteractiveQueryBenchmark(InteractiveBenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        InteractiveBenchOptions options;
        try {
            options = InteractiveBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        InteractiveQueryBenchmark benchmark = new InteractiveQueryBenchmark(options);
        String markdown = benchmark.run();
        write(markdown, options.output());
        if (benchmark.profile != null) {
            String name =
                    options.output()
                            .getFileName()
                            .toString()
                            .replaceFirst("(\\.md)?$", "-profile.md");
            write(benchmark.profile.markdown(), options.output().resolveSibling(name));
        }
    }

    private static void write(String markdown, Path file) throws java.io.IOException {
        System.out.println();
        System.out.println(markdown);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, markdown, StandardCharsets.UTF_8);
        System.out.println("Written to " + file);
    }

    /**
     * Twice the highest concurrency, over all TaskManagers (see the cluster's set-up in {@link
     * #run()}).
     */
    static int slots(InteractiveBenchOptions options) {
        return 2 * options.concurrency().stream().max(Integer::compare).orElse(1);
    }

    String run() throws Exception {
        // Every concurrent query gets a slot, also while the previous job of its client still
        // releases its own (Flink fails a job at once when no slot is free): the benchmark
        // measures the client path, not slot queueing.
        LocalFlinkClusterBuilder builder =
                options.cluster()
                        .apply(
                                LocalFlinkCluster.builder()
                                        .workDir(options.workDir())
                                        .pluginJar(options.pluginJar())
                                        .sqlGateway(true)
                                        .gatewayClasspath(options.clientJar()),
                                slots(options))
                        .config(options.clusterSettings());
        System.out.println(
                "Starting the cluster ("
                        + options.cluster().label
                        + ") in "
                        + options.workDir()
                        + " ...");
        try (LocalFlinkCluster cluster = builder.start()) {
            Map<String, List<Long>> pids = new LinkedHashMap<>();
            List<Long> jobManagers = new ArrayList<>();
            List<Long> standbys = new ArrayList<>();
            Role leader =
                    cluster.jobManagers().size() > 1
                            ? cluster.awaitLeadingJobManager(Duration.ofSeconds(60))
                            : Role.JOBMANAGER;
            for (Role jobManager : cluster.jobManagers()) {
                long pid = cluster.process(jobManager).pid();
                jobManagers.add(pid);
                if (!jobManager.equals(leader)) {
                    standbys.add(pid);
                }
            }
            // all JobManagers summed; the standbys (under HA) also on their own
            pids.put(JM_CPU, jobManagers);
            if (!standbys.isEmpty()) {
                pids.put(JM_STANDBY_CPU, standbys);
            }
            List<Long> taskManagers = new ArrayList<>();
            for (int i = 0; i < cluster.spec().taskManagers(); i++) {
                taskManagers.add(cluster.process(Role.taskManager(i)).pid());
            }
            pids.put(TM_CPU, taskManagers);
            pids.put(GATEWAY_CPU, List.of(cluster.process(Role.SQL_GATEWAY).pid()));
            // this process: the gateway client's threads (the JDBC driver fetches results in a
            // tight loop while a job runs)
            pids.put(DRIVER_CPU, List.of(ProcessHandle.current().pid()));
            ProcessCpu cpu = new ProcessCpu(pids);
            if (options.profile()) {
                // the leading JobManager and the first TaskManager
                Map<String, Long> profiled = new LinkedHashMap<>();
                profiled.put(JM_CPU, cluster.process(leader).pid());
                profiled.put(TM_CPU, taskManagers.get(0));
                profiled.put(GATEWAY_CPU, pids.get(GATEWAY_CPU).get(0));
                profile = new CpuProfile(profiled, options.workDir().resolve("profiles"));
            }
            warmUp(cluster);
            for (int concurrency : options.concurrency()) {
                for (GatewayClient gatewayClient : options.gatewayClients()) {
                    measure(cluster, cpu, gatewayClient, concurrency);
                }
            }
            String markdown =
                    new InteractiveReport(blocks, options, OverheadBenchmark.machine()).markdown();
            // the standby's CPU is the one of the JobManager that did not lead at the start
            Role leaderAtEnd = cluster.leadingJobManager().orElse(null);
            if (cluster.jobManagers().size() > 1 && !leader.equals(leaderAtEnd)) {
                String note =
                        "\nNote: the leading JobManager changed during the run ("
                                + leader
                                + " at the start, "
                                + leaderAtEnd
                                + " at the end): the standby's CPU column is not the standby's"
                                + " throughout.\n";
                System.out.println(note);
                markdown += note;
            }
            return markdown;
        }
    }

    /**
     * Both executors with each gateway client, all three queries, until the JIT has seen several
     * hundred queries (a fresh cluster is slow).
     */
    private void warmUp(LocalFlinkCluster cluster) throws Exception {
        int concurrency =
                Math.min(4, options.concurrency().stream().max(Integer::compare).orElse(1));
        System.out.printf(
                Locale.ROOT,
                "Warm-up: %d queries, both executors, concurrency %d ...%n",
                options.warmupQueries(),
                concurrency);
        int perRun = Math.max(1, options.warmupQueries() / (2 * options.gatewayClients().size()));
        for (GatewayClient gatewayClient : options.gatewayClients()) {
            for (Client client : Client.values()) {
                warmUp(openSessions(cluster, gatewayClient, client, concurrency), perRun);
            }
        }
    }

    /** Runs {@code queries} of the three, spread over {@code sessions}, then closes them. */
    private static void warmUp(List<GatewaySession> sessions, int queries) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(sessions.size());
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> done = new ArrayList<>();
            for (GatewaySession session : sessions) {
                done.add(
                        workers.submit(
                                () -> {
                                    for (int i = next.getAndIncrement();
                                            i < queries;
                                            i = next.getAndIncrement()) {
                                        checkRows(
                                                session.query(
                                                        DemoWorkload.shortQueries().get(i % 3)),
                                                i % 3);
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.MINUTES);
            }
        } finally {
            workers.shutdownNow();
            sessions.forEach(GatewaySession::close);
        }
    }

    private void measure(
            LocalFlinkCluster cluster, ProcessCpu cpu, GatewayClient gatewayClient, int concurrency)
            throws Exception {
        Map<Client, List<GatewaySession>> sessions = new EnumMap<>(Client.class);
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        try {
            for (Client client : Client.values()) {
                sessions.put(client, openSessions(cluster, gatewayClient, client, concurrency));
            }
            for (int round = 1; round <= options.rounds(); round++) {
                for (int q : options.queries()) {
                    // ABBA: the client that runs first alternates, so drift in machine load hits
                    // both alike.
                    boolean stockFirst = (round + q) % 2 == 1;
                    for (Client client :
                            stockFirst
                                    ? List.of(Client.STOCK, Client.INTERACTIVE)
                                    : List.of(Client.INTERACTIVE, Client.STOCK)) {
                        Block block =
                                runBlock(
                                        cluster,
                                        cpu,
                                        workers,
                                        sessions.get(client),
                                        gatewayClient,
                                        client,
                                        concurrency,
                                        q,
                                        round);
                        blocks.add(block);
                        System.out.println(block.summary());
                    }
                }
            }
        } finally {
            workers.shutdownNow();
            sessions.values().forEach(list -> list.forEach(GatewaySession::close));
        }
    }

    private Block runBlock(
            LocalFlinkCluster cluster,
            ProcessCpu cpu,
            ExecutorService workers,
            List<GatewaySession> sessions,
            GatewayClient gatewayClient,
            Client client,
            int concurrency,
            int query,
            int round)
            throws Exception {
        String tag =
                String.format(
                        Locale.ROOT,
                        "bench-%s-%s-%s-c%d-r%d",
                        gatewayClient.label,
                        client.target,
                        QUERY_NAMES.get(query),
                        concurrency,
                        round);
        for (int i = 0; i < sessions.size(); i++) {
            sessions.get(i).execute("SET 'pipeline.name' = '" + sessionTag(tag, i) + "'");
        }
        String sql = DemoWorkload.shortQueries().get(query);
        ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        // per session, the wall-clock start and end (ms) of each query, or null once one of its
        // queries failed
        List<List<long[]>> spans = new ArrayList<>();
        AtomicInteger failures = new AtomicInteger();
        if (profile != null) {
            profile.start(tag);
        }
        Map<String, Double> cpuBefore = cpu.seconds();
        LogLines jobManagerLog =
                LogLines.from(cluster.jobManagers().stream().map(cluster::logFile).toList());
        LogLines gatewayLog = LogLines.from(List.of(cluster.logFile(Role.SQL_GATEWAY)));
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(options.seconds());
        List<Future<Long>> done = new ArrayList<>();
        for (GatewaySession session : sessions) {
            List<long[]> sessionSpans = new ArrayList<>();
            spans.add(sessionSpans);
            done.add(
                    workers.submit(
                            () -> {
                                long lastEnd = System.nanoTime();
                                while (System.nanoTime() < deadline) {
                                    long t0 = System.nanoTime();
                                    long wall0 = System.currentTimeMillis();
                                    try {
                                        checkRows(session.query(sql), query);
                                        lastEnd = System.nanoTime();
                                        latencies.add((lastEnd - t0) / 1e6);
                                        sessionSpans.add(
                                                new long[] {wall0, System.currentTimeMillis()});
                                    } catch (RuntimeException e) {
                                        lastEnd = System.nanoTime();
                                        sessionSpans.add(null);
                                        if (failures.incrementAndGet() <= 3) {
                                            System.out.println(
                                                    "  query failed ("
                                                            + tag
                                                            + "): "
                                                            + e.getMessage());
                                        }
                                    }
                                }
                                return lastEnd;
                            }));
        }
        long end = start;
        for (Future<Long> f : done) {
            end = Math.max(end, f.get(options.seconds() + QUERY_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        Map<String, Double> cpuAfter = cpu.seconds();
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        cpuAfter.forEach((role, after) -> cpuSeconds.put(role, after - cpuBefore.get(role)));
        if (profile != null) {
            profile.stop(
                    tag,
                    String.format(
                            Locale.ROOT,
                            "%s, concurrency %d, %s",
                            gatewayClient.label,
                            concurrency,
                            QUERY_NAMES.get(query)),
                    client,
                    latencies.size(),
                    cpuSeconds);
        }
        double wallSeconds = (end - start) / 1e9;
        JobTimes jobs = jobTimes(cluster, tag, spans);
        return new Block(
                gatewayClient,
                client,
                concurrency,
                QUERY_NAMES.get(query),
                round,
                List.copyOf(latencies),
                failures.get(),
                wallSeconds,
                jobs.durations(),
                jobs.before(),
                jobs.after(),
                cpuSeconds,
                jobManagerLog.sinceStart(),
                gatewayLog.sinceStart());
    }

    private static String sessionTag(String tag, int session) {
        return tag + "-s" + session;
    }

    /**
     * Cluster-side durations (ms) of the block's finished jobs; and, for the sessions whose queries
     * all succeeded and match their jobs one to one, each query's time before its job started and
     * after its job ended (the JobManager's {@code start-time} and {@code end-time}: same host,
     * same clock).
     */
    record JobTimes(List<Double> durations, List<Double> before, List<Double> after) {}

    private static JobTimes jobTimes(
            LocalFlinkCluster cluster, String tag, List<List<long[]>> spans) {
        Map<String, List<JsonNode>> bySession = new LinkedHashMap<>();
        List<Double> durations = new ArrayList<>();
        for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
            String name = job.path("name").asText();
            if (name.startsWith(tag + "-s") && "FINISHED".equals(job.path("state").asText())) {
                durations.add(job.path("duration").asDouble());
                bySession.computeIfAbsent(name, n -> new ArrayList<>()).add(job);
            }
        }
        List<Double> before = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            List<long[]> queries = spans.get(i);
            List<JsonNode> jobs = bySession.getOrDefault(sessionTag(tag, i), List.of());
            if (queries.contains(null) || queries.size() != jobs.size()) {
                continue;
            }
            jobs.sort(Comparator.comparingLong(job -> job.path("start-time").asLong()));
            for (int q = 0; q < queries.size(); q++) {
                before.add((double) (jobs.get(q).path("start-time").asLong() - queries.get(q)[0]));
                after.add((double) (queries.get(q)[1] - jobs.get(q).path("end-time").asLong()));
            }
        }
        return new JobTimes(durations, before, after);
    }

    private List<GatewaySession> openSessions(
            LocalFlinkCluster cluster, GatewayClient gatewayClient, Client client, int count) {
        List<GatewaySession> sessions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GatewaySession session =
                    gatewayClient == GatewayClient.JDBC
                            ? cluster.sqlSession()
                            : cluster.gatewayRestSession();
            sessions.add(session);
            DemoWorkload.shortQueryTables().forEach(session::execute);
            session.set(
                    Map.of(
                            "execution.runtime-mode",
                            options.cluster().runtimeMode(),
                            "execution.target",
                            client.target));
            if (client == Client.INTERACTIVE) {
                session.set(options.interactiveSettings());
            }
        }
        return sessions;
    }

    /** Each of the short queries returns exactly one row over its 1-row tables. */
    private static void checkRows(List<List<Object>> rows, int query) {
        if (rows.size() != 1) {
            throw new IllegalStateException(
                    QUERY_NAMES.get(query) + " returned " + rows.size() + " rows: " + rows);
        }
    }

    /** One measured block: one client, one query, one concurrency, a fixed duration. */
    record Block(
            GatewayClient gatewayClient,
            Client client,
            int concurrency,
            String query,
            int round,
            List<Double> latenciesMs,
            int failures,
            double wallSeconds,
            List<Double> jobMs,
            List<Double> beforeJobMs,
            List<Double> afterJobMs,
            Map<String, Double> cpuSeconds,
            LogLines.Counts jobManagerLogLines,
            LogLines.Counts gatewayLogLines) {

        double qps() {
            return latenciesMs.size() / wallSeconds;
        }

        /** The CPU of {@code process} in % of a core over the block; NaN if not measured. */
        double cpuPercent(String process) {
            Double seconds = cpuSeconds.get(process);
            return seconds == null ? Double.NaN : 100 * seconds / wallSeconds;
        }

        String summary() {
            return String.format(
                    Locale.ROOT,
                    "%-4s c=%-2d %-9s %-18s round %d: %4d queries, %5.1f QPS, E2E p50 %6.1f ms, p99 %6.1f ms,"
                            + " job p50 %6.1f ms (%d jobs), before/after job p50 %.0f/%.0f ms, %d failed;"
                            + " CPU JM %.0f%%, TM %.0f%%, gateway %.0f%%,"
                            + " gateway client %.0f%%; JM log %d ERROR, %d WARN lines; gateway log %d"
                            + " ERROR, %d WARN lines",
                    gatewayClient.label,
                    concurrency,
                    query,
                    client.target,
                    round,
                    latenciesMs.size(),
                    qps(),
                    Stats.percentile(latenciesMs, 50),
                    Stats.percentile(latenciesMs, 99),
                    Stats.percentile(jobMs, 50),
                    jobMs.size(),
                    Stats.percentile(beforeJobMs, 50),
                    Stats.percentile(afterJobMs, 50),
                    failures,
                    cpuPercent(JM_CPU),
                    cpuPercent(TM_CPU),
                    cpuPercent(GATEWAY_CPU),
                    cpuPercent(DRIVER_CPU),
                    jobManagerLogLines.errors(),
                    jobManagerLogLines.warnings(),
                    gatewayLogLines.errors(),
                    gatewayLogLines.warnings());
        }
    }

    /**
     * CPU seconds (user + system) of groups of processes, each group summed, from {@code
     * /proc/<pid>/stat}.
     */
    static final class ProcessCpu {
        static final double TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux

        private final Map<String, List<Long>> pids;

        ProcessCpu(Map<String, List<Long>> pids) {
            this.pids = pids;
        }

        Map<String, Double> seconds() throws java.io.IOException {
            Map<String, Double> out = new LinkedHashMap<>();
            for (Map.Entry<String, List<Long>> e : pids.entrySet()) {
                long ticks = 0;
                for (long pid : e.getValue()) {
                    ticks += ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
                }
                out.put(e.getKey(), ticks / TICKS_PER_SECOND);
            }
            return out;
        }

        /**
         * User + system CPU ticks of a {@code /proc/<pid>/stat} or {@code
         * /proc/<pid>/task/<tid>/stat} line.
         */
        static long ticks(String stat) {
            // Fields after the command name in parentheses (which may hold spaces): utime is field
            // 14, stime 15.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
    }

    /** Percentiles by the nearest-rank method. */
    static final class Stats {
        private Stats() {}

        static double percentile(List<Double> values, double p) {
            if (values.isEmpty()) {
                return Double.NaN;
            }
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }
    }
}
