package io.flinkinsight.it;

import io.flinkinsight.harness.FlinkProcess;
import io.flinkinsight.harness.GatewayRestSession;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LogLines;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;
import io.flinkinsight.it.InteractiveClientSupport.ClientFigures;
import io.flinkinsight.it.InteractiveClientSupport.Outcome;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.flinkinsight.it.InteractiveClientSupport.assertShortQueryRows;
import static io.flinkinsight.it.InteractiveClientSupport.interactiveSession;
import static io.flinkinsight.it.InteractiveClientSupport.messageChain;
import static io.flinkinsight.it.InteractiveClientSupport.queryBounded;
import static io.flinkinsight.it.InteractiveClientSupport.settledFigures;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive client in a Flink cluster with Insight everywhere: its jar on the classpath of a
 * real SQL Gateway (JobManager, TaskManager and gateway as separate JVMs, the plugin in
 * plugins/insight/ of each), sessions on {@code execution.target = remote-interactive} over JDBC:
 * DemoWorkload's short queries with each collect strategy, client and channel reuse as the client's
 * own figures tell it (served by the plugin inside the gateway and pulled by the JobManager's hub),
 * SHOW/DESCRIBE/STOP JOB (STOP cancels), 64 concurrent queries held to the cap without leftover
 * threads or channels, and a clear error for a bad option. Tests run in order: the figures of one
 * are deltas over the ones before. That queries return exactly their rows in streaming and batch
 * mode is interactive-client's SqlGatewayQueryResultsITCase.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InteractiveClientOnInsightClusterITCase {

    /**
     * JobManager and TaskManager; away from the other ITCases' 19250-19290, so both can run at
     * once.
     */
    static final String CLUSTER_INSIGHT_PORTS = "19300-19339";

    /** The plugin inside the gateway binds here, and the hub pulls the client figures from here. */
    static final String GATEWAY_INSIGHT_PORTS = "19340-19349";

    private static final int MAX_CONNECTIONS = 16;
    private static final int SLOTS = 16;
    private static final int CONCURRENT_QUERIES = 64;
    private static final String CONCURRENT_JOB_NAME = "interactive-it-concurrent";

    /** Sessions side by side in the reuse test: the pool and the channels serve several at once. */
    private static final int REUSE_SESSIONS = 3;

    /**
     * Threads the gateway may have more after the concurrent queries than before (its worker pool's
     * core).
     */
    private static final int THREAD_MARGIN = 12;

    private static final Duration QUERY_BOUND = Duration.ofMinutes(2);

    /**
     * REST requests per short query above which the client has regressed: 14.5 before polls of an
     * unreached sink kept Flink's fetcher's pace, 5.1-5.7 after (Flink 2.3.0, jobs of 0.5 s on
     * average). The aim is 6, but the polls grow with how long the jobs run, which a busy machine
     * stretches: the bound per second of run time below is the one that holds on any machine.
     */
    private static final double REQUESTS_PER_QUERY_BOUND = 10.0;

    /**
     * Per query: submission, the end, the sink's version, the first poll and the one that finds the
     * job gone.
     */
    private static final double REQUESTS_PER_QUERY_BASE = 5.0;

    /** Per second a job ran: polls at most every 100 ms while the sink has not been reached. */
    private static final double REQUESTS_PER_JOB_SECOND = 10.0;

    /**
     * REST requests per short query with the defaults, a query running alone (once its job may have
     * ended, its end asked for at the collect strategy's pace): 5.3-6.0 measured, against 14.5 when
     * each poll of an unreached sink also asked for the end and 7.5 when such polls went at the
     * strategy's pace; the bound leaves room for a slow machine, where the joins run for seconds.
     */
    private static final double ALONE_REQUESTS_PER_QUERY_BOUND = 10.0;

    private static final String STREAMING_JOB_NAME = "interactive-it-endless";

    /**
     * REST API sessions at once in the REST client's test, and how often each runs the short
     * queries.
     */
    private static final int REST_SESSIONS = 8;

    private static final int REST_ROUNDS = 2;

    private LocalFlinkCluster cluster;
    private ExecutorService runner;

    @BeforeAll
    void startCluster() {
        cluster =
                TestClusters.withPlugin("interactive-client", CLUSTER_INSIGHT_PORTS)
                        .gatewayClasspath(TestClusters.clientJar())
                        .gatewayConfig("metrics.reporter.insight.port", GATEWAY_INSIGHT_PORTS)
                        .config(
                                "metrics.reporter.insight.hub.clients",
                                "127.0.0.1:" + GATEWAY_INSIGHT_PORTS)
                        .config("metrics.reporter.insight.history.resolution", "1 s")
                        .config("metrics.reporter.insight.hub.poll-interval", "1 s")
                        .config(
                                "execution.interactive.rest.max-connections",
                                Integer.toString(MAX_CONNECTIONS))
                        // The gateway's own worker threads above its core go after 5 s idle
                        // (default 5 min), so its
                        // thread count can come back within this test.
                        .config("sql-gateway.worker.keepalive-time", "5 s")
                        // A sort-shuffle partition reserves 512 buffers (16 MiB) by default; 1-row
                        // queries need a few, and
                        // 16 of them at once would not fit in the TaskManager's network memory.
                        .config("taskmanager.network.sort-shuffle.min-buffers", "16")
                        .slotsPerTaskManager(SLOTS)
                        .taskManagerProcessSize("2g")
                        .gatewayHeap("1g")
                        .start();
        runner = InteractiveClientSupport.daemonPool("interactive-it-query", 0);
    }

    @AfterAll
    void stop() {
        if (runner != null) {
            runner.shutdownNow();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void shortQueriesReturnTheirRowsWithEveryCollectStrategy() {
        List<String> strategies = List.of("fixed", "exponential", "incremental");
        try (SqlSession session = interactiveSession(cluster)) {
            for (String strategy : strategies) {
                session.execute("SET 'collect-strategy.type' = '" + strategy + "'");
                for (int q = 0; q < DemoWorkload.shortQueries().size(); q++) {
                    Outcome outcome =
                            queryBounded(
                                    runner,
                                    session,
                                    DemoWorkload.shortQueries().get(q),
                                    QUERY_BOUND);
                    assertSucceeded(
                            outcome, "query " + q + " with collect-strategy.type = " + strategy);
                    assertShortQueryRows(q, outcome.rows());
                }
            }
        }
        // The first queries of this gateway process: all of them went through the interactive
        // client.
        int expected = strategies.size() * DemoWorkload.shortQueries().size();
        ClientFigures figures =
                settledFigures(
                        cluster,
                        gatewayInsight(),
                        expected + " queries submitted",
                        f -> f.submitted() >= expected);
        assertThat(figures.submitted())
                .as("queries the interactive client submitted: %s", figures)
                .isEqualTo(expected);
        assertThat(figures.succeeded())
                .as("queries that succeeded: %s", figures)
                .isEqualTo(expected);
    }

    @Test
    @Order(2)
    void clientsAndChannelsAreReusedAcrossQueries() {
        int warmUp = 21;
        int measured = 51;
        ClientFigures before;
        ClientFigures after;
        List<SqlSession> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < REUSE_SESSIONS; i++) {
                sessions.add(interactiveSession(cluster));
            }
            runShortQueries(sessions, warmUp);
            before =
                    settledFigures(
                            cluster, gatewayInsight(), "figures after the warm-up", f -> true);
            runShortQueries(sessions, measured);
            after =
                    settledFigures(
                            cluster,
                            gatewayInsight(),
                            measured + " more queries submitted",
                            f -> f.submitted() >= before.submitted() + measured);
        } finally {
            sessions.forEach(SqlSession::close);
        }
        long hits = after.poolHits() - before.poolHits();
        long misses = after.poolMisses() - before.poolMisses();
        long reused = after.reused() - before.reused();
        long opened = after.opened() - before.opened();
        long queryRequests = after.queryRequests() - before.queryRequests();
        long ended = after.succeeded() + after.failed() - before.succeeded() - before.failed();
        System.out.printf(
                "over %d queries: pool %d hits, %d misses; REST requests: %d on a reused channel,"
                        + " %d on a new connection; %d sent for the %d queries that ended%n",
                measured, hits, misses, reused, opened, queryRequests, ended);
        assertThat(after.submitted() - before.submitted())
                .as("queries submitted")
                .isEqualTo(measured);
        assertThat(ended).as("queries ended").isEqualTo(measured);

        assertThat(hits + misses)
                .as("pool lookups over %s queries", measured)
                .isGreaterThanOrEqualTo(measured);
        assertThat((double) hits / (hits + misses))
                .as("pool hit rate (%s hits, %s misses)", hits, misses)
                .isGreaterThanOrEqualTo(0.99);

        assertThat(reused).as("requests on a reused channel").isPositive();
        assertThat((double) reused / (reused + opened))
                .as(
                        "share of REST requests on a reused channel" + " (%s reused, %s opened)",
                        reused, opened)
                .isGreaterThanOrEqualTo(0.95);
    }

    /**
     * What a short query costs the JobManager in REST requests, counted by the client, and that the
     * count is what went out on the client's channels. One session, so each query runs alone. A
     * query costs its submission, the end (one request that also brings the result) and its polls
     * for rows. While its collect sink has not been reached, polls go at most every 100 ms among
     * other queries (Flink's own fetcher's pace: no row shows later than with it), which is
     * measured here with {@code fast-start: 0 ms}; the 1-row jobs here end about 10-40 ms after
     * their sink first answers, so the polls grow with how long the job ran. Hence two bounds: on
     * average, and per 100 ms of the jobs' run time as the JobManager measured it (see {@link
     * #REQUESTS_PER_QUERY_BOUND} and {@link #REQUESTS_PER_JOB_SECOND}). With the defaults a query
     * alone also asks for its job's end at the collect strategy's pace once the job may have ended
     * (its end seen sooner): measured after, against {@link #ALONE_REQUESTS_PER_QUERY_BOUND}.
     */
    @Test
    @Order(3)
    void aShortQueryCostsTheJobManagerABoundedNumberOfRequestsAfterWarmUp() {
        RequestCost frugal =
                requestCost(
                        Map.of("execution.interactive.fast-start", "0 ms"), "among other queries");
        double allowed =
                frugal.ended * REQUESTS_PER_QUERY_BASE
                        + REQUESTS_PER_JOB_SECOND * frugal.jobTotalMillis / 1000.0;
        assertThat(frugal.perQuery())
                .as(
                        "REST requests to the JobManager per short query after warm-up, at the pace"
                                + " among other queries (%s requests, %s queries)",
                        frugal.requests, frugal.ended)
                .isBetween(2.0, REQUESTS_PER_QUERY_BOUND);
        assertThat(frugal.jobNotFoundErrors)
                .as(
                        "ERROR lines in the JobManager's log from collect polls that reached a job"
                                + " that had ended, for %s queries. Before the polls went after a"
                                + " question for the end, nearly every query at this pace had one"
                                + " (95%% at concurrency 8 in the benchmark); what is left is the"
                                + " race Flink's own fetcher has too: the job ends between the"
                                + " answer that it runs and the poll, in about a third of these"
                                + " queries on 2 cores (8 and 11 for 30 in two runs); the bound leaves"
                                + " room for chance",
                        frugal.ended)
                .isLessThanOrEqualTo(frugal.ended * 2 / 3);
        assertThat((double) frugal.requests)
                .as(
                        "REST requests for %s queries whose jobs ran %s ms in all",
                        frugal.ended, frugal.jobTotalMillis)
                .isLessThanOrEqualTo(allowed);

        RequestCost alone = requestCost(Map.of(), "alone, the defaults");
        assertThat(alone.perQuery())
                .as(
                        "REST requests per short query with the defaults, running alone (%s requests,"
                                + " %s queries)",
                        alone.requests, alone.ended)
                .isBetween(2.0, ALONE_REQUESTS_PER_QUERY_BOUND);
    }

    /** REST requests of {@code ended} queries whose jobs ran {@code jobTotalMillis} in all. */
    private record RequestCost(
            long requests, long ended, long jobTotalMillis, long jobNotFoundErrors) {
        double perQuery() {
            return (double) requests / ended;
        }
    }

    private RequestCost requestCost(Map<String, String> settings, String label) {
        int warmUp = 15;
        int measured = 30;
        ClientFigures before;
        ClientFigures after;
        long measuredFromMillis;
        LogLines jobManagerLog;
        try (SqlSession session = interactiveSession(cluster, settings)) {
            runShortQueries(List.of(session), warmUp);
            before =
                    settledFigures(
                            cluster, gatewayInsight(), "figures after the warm-up", f -> true);
            measuredFromMillis = System.currentTimeMillis();
            jobManagerLog = LogLines.from(List.of(cluster.logFile(Role.JOBMANAGER)));
            runShortQueries(List.of(session), measured);
            after =
                    settledFigures(
                            cluster,
                            gatewayInsight(),
                            measured + " more queries ended",
                            f ->
                                    f.succeeded() + f.failed()
                                            >= before.succeeded() + before.failed() + measured);
        }
        long queryRequests = after.queryRequests() - before.queryRequests();
        long sent = after.reused() + after.opened() - before.reused() - before.opened();
        long ended = after.succeeded() + after.failed() - before.succeeded() - before.failed();
        List<Long> jobMillis = new ArrayList<>();
        for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
            if (job.path("start-time").asLong() >= measuredFromMillis
                    && "FINISHED".equals(job.path("state").asText())) {
                jobMillis.add(job.path("duration").asLong());
            }
        }
        long jobTotalMillis = jobMillis.stream().mapToLong(Long::longValue).sum();
        long jobNotFoundErrors =
                jobManagerLog
                        .sinceStart(line -> line.contains("ClientCoordinationHandler"))
                        .errors();
        System.out.printf(
                "one session, %s: %d REST requests to the JobManager for %d short queries (%.1f each; %d"
                        + " sent on the client's channels); the %d jobs ran %d ms on average; E2E p50 %s ms;"
                        + " %d ERROR lines of the JobManager's coordination handler%n",
                label,
                queryRequests,
                ended,
                (double) queryRequests / ended,
                sent,
                jobMillis.size(),
                jobMillis.isEmpty() ? 0 : jobTotalMillis / jobMillis.size(),
                after.e2eP50(),
                jobNotFoundErrors);
        assertThat(ended).as("queries ended").isEqualTo(measured);
        assertThat(jobMillis).as("the measured queries' jobs in /jobs/overview").hasSize(measured);
        // every request the count claims went out on the channels (a stale keep-alive channel's
        // resend counts twice)
        assertThat(sent)
                .as("requests sent on the client's channels for %s counted", queryRequests)
                .isBetween(queryRequests, queryRequests + 2);
        return new RequestCost(queryRequests, ended, jobTotalMillis, jobNotFoundErrors);
    }

    @Test
    @Order(4)
    void hubServesTheSameClientFiguresAsTheGateway() {
        try (SqlSession session = interactiveSession(cluster)) {
            runShortQueries(List.of(session), DemoWorkload.shortQueries().size());
        }
        ClientFigures gateway =
                settledFigures(cluster, gatewayInsight(), "the gateway's figures", f -> true);
        ClientFigures hub =
                Waits.until(
                        "the hub's /api/v1/client to show the gateway's figures",
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1),
                        () -> {
                            ClientFigures now =
                                    InteractiveClientSupport.figures(
                                            cluster, cluster.insightUrl(Role.JOBMANAGER));
                            return now.sameCounters(gateway) ? Optional.of(now) : Optional.empty();
                        },
                        () ->
                                "gateway: "
                                        + gateway
                                        + "\nhub: "
                                        + cluster.insightGet(Role.JOBMANAGER, "/api/v1/client")
                                        + "\n"
                                        + cluster.diagnostics(List.of(Role.JOBMANAGER)));
        System.out.printf("hub's client figures: %s%n", hub);
        assertThat(hub.available()).as("hub: available").isTrue();
        assertThat(hub.submitted()).as("hub: queries submitted").isPositive();
        assertThat(hub.e2eP50().isNumber()).as("hub: E2E p50 in %s", hub).isTrue();
        assertThat(hub.poolSize()).as("hub: pooled clients").isEqualTo(gateway.poolSize());
    }

    @Test
    @Order(5)
    void showDescribeAndStopJobWorkOnAStreamingJob() {
        ClientFigures before =
                settledFigures(
                        cluster, gatewayInsight(), "figures before the streaming job", f -> true);
        try (SqlSession session = cluster.sqlSession()) {
            session.execute("SET 'execution.target' = '" + InteractiveClientSupport.TARGET + "'");
            session.execute("SET 'execution.runtime-mode' = 'streaming'");
            session.execute("SET 'pipeline.name' = '" + STREAMING_JOB_NAME + "'");
            session.execute(
                    "CREATE TEMPORARY TABLE endless (v BIGINT) WITH ("
                            + "'connector' = 'datagen', 'rows-per-second' = '10')");
            session.execute(
                    "CREATE TEMPORARY TABLE nowhere (v BIGINT) WITH ('connector' = 'blackhole')");
            session.execute("INSERT INTO nowhere SELECT v FROM endless");
            String jobId = awaitRunningJob(STREAMING_JOB_NAME);

            List<List<Object>> jobs = session.rows("SHOW JOBS");
            List<Object> listed =
                    jobs.stream()
                            .filter(row -> jobId.equals(String.valueOf(row.get(0))))
                            .findFirst()
                            .orElse(null);
            assertThat(listed).as("job %s in SHOW JOBS: %s", jobId, jobs).isNotNull();
            assertThat(listed.subList(0, 3)).containsExactly(jobId, STREAMING_JOB_NAME, "RUNNING");

            List<List<Object>> described = session.rows("DESCRIBE JOB '" + jobId + "'");
            assertThat(described).as("DESCRIBE JOB").hasSize(1);
            assertThat(described.get(0).subList(0, 3))
                    .containsExactly(jobId, STREAMING_JOB_NAME, "RUNNING");

            session.rows("STOP JOB '" + jobId + "'");
            String state =
                    Waits.until(
                            "job " + jobId + " to end after STOP JOB",
                            Duration.ofSeconds(60),
                            Duration.ofMillis(250),
                            () -> {
                                String now = cluster.jobState(jobId);
                                return List.of("CANCELED", "FINISHED").contains(now)
                                        ? Optional.of(now)
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.JOBMANAGER, Role.SQL_GATEWAY)));
            assertThat(state).isIn("CANCELED", "FINISHED");
            assertThat(state)
                    .as("STOP JOB without a savepoint cancels the job")
                    .isEqualTo("CANCELED");
        }
        ClientFigures after =
                settledFigures(
                        cluster,
                        gatewayInsight(),
                        "the streaming job submitted",
                        f -> f.submitted() > before.submitted());
        assertThat(after.submitted() - before.submitted())
                .as("jobs the interactive client submitted")
                .isEqualTo(1);
    }

    @Test
    @Order(6)
    void concurrentQueriesLeaveNoThreadsOrChannelsBehind() throws Exception {
        FlinkProcess gateway = cluster.process(Role.SQL_GATEWAY);
        int threadsBefore = gateway.threadCount();
        ClientFigures before =
                settledFigures(
                        cluster,
                        gatewayInsight(),
                        "figures before the concurrent queries",
                        f -> true);
        ExecutorService clients =
                InteractiveClientSupport.daemonPool("interactive-it-session", CONCURRENT_QUERIES);
        List<SqlSession> sessions = new ArrayList<>();
        try {
            List<Future<SqlSession>> opened = new ArrayList<>();
            for (int i = 0; i < CONCURRENT_QUERIES; i++) {
                opened.add(clients.submit(() -> interactiveSession(cluster)));
            }
            for (Future<SqlSession> session : opened) {
                sessions.add(session.get(2, TimeUnit.MINUTES));
            }
            for (SqlSession session : sessions) {
                // named, to find these jobs again; a long max-hold, so that only the cap decides
                // how many run at once
                session.set(
                        Map.of(
                                "pipeline.name",
                                CONCURRENT_JOB_NAME,
                                "execution.interactive.admission.max-hold",
                                "10 min"));
            }
            int peakThreads = gateway.threadCount();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<List<Object>>>> results = new ArrayList<>();
            for (int i = 0; i < CONCURRENT_QUERIES; i++) {
                SqlSession session = sessions.get(i);
                String sql = DemoWorkload.shortQueries().get(i % 3);
                results.add(
                        clients.submit(
                                () -> {
                                    start.await();
                                    return session.query(sql);
                                }));
            }
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            for (int i = 0; i < CONCURRENT_QUERIES; i++) {
                List<List<Object>> rows =
                        results.get(i)
                                .get(
                                        Math.max(1, deadline - System.nanoTime()),
                                        TimeUnit.NANOSECONDS);
                assertShortQueryRows(i % 3, rows);
            }
            System.out.printf(
                    "gateway threads: %d before, %d with %d sessions open%n",
                    threadsBefore,
                    Math.max(peakThreads, gateway.threadCount()),
                    CONCURRENT_QUERIES);
        } finally {
            sessions.forEach(SqlSession::close);
            clients.shutdownNow();
        }

        // The client holds back queries beyond its cap (admission.max-queries, default 16): never
        // more of these jobs
        // ran on the cluster at once, and they did run side by side.
        int peak = peakConcurrentJobs(CONCURRENT_JOB_NAME);
        System.out.printf(
                "peak of %d concurrent queries' jobs running at once: %d%n",
                CONCURRENT_QUERIES, peak);
        assertThat(peak).as("jobs of the concurrent queries running at once").isBetween(2, 16);

        ClientFigures after =
                settledFigures(
                        cluster,
                        gatewayInsight(),
                        CONCURRENT_QUERIES + " queries submitted",
                        f -> f.submitted() >= before.submitted() + CONCURRENT_QUERIES);
        assertThat(after.submitted() - before.submitted())
                .as("queries submitted")
                .isEqualTo(CONCURRENT_QUERIES);
        assertThat(after.failed()).as("failed queries").isEqualTo(before.failed());
        ClientFigures idle =
                Waits.until(
                        "no REST request in flight",
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(1),
                        () -> {
                            ClientFigures now =
                                    InteractiveClientSupport.figures(cluster, gatewayInsight());
                            return now.inFlight() == 0 ? Optional.of(now) : Optional.empty();
                        },
                        () ->
                                InteractiveClientSupport.figures(cluster, gatewayInsight())
                                        .toString());
        System.out.printf(
                "client figures around %d concurrent queries: before %s%nafter %s%n",
                CONCURRENT_QUERIES, before, idle);
        assertThat(idle.inFlight()).as("requests in flight").isZero();
        // Every request, the multipart job submissions included, rides the pool, which opens at
        // most max-connections
        // channels (more only if the server closed some).
        long opened = after.opened() - before.opened();
        assertThat(opened)
                .as("channels opened for %s concurrent queries", CONCURRENT_QUERIES)
                .isPositive()
                .isLessThanOrEqualTo(MAX_CONNECTIONS);
        assertThat(after.poolSize()).as("pooled cluster clients (one cluster)").isEqualTo(1);

        int limit = threadsBefore + THREAD_MARGIN;
        int threadsAfter =
                Waits.until(
                        "the gateway's thread count back to at most " + limit,
                        Duration.ofSeconds(90),
                        Duration.ofSeconds(1),
                        () -> {
                            int now = gateway.threadCount();
                            return now <= limit ? Optional.of(now) : Optional.empty();
                        },
                        () ->
                                "threads now "
                                        + gateway.threadCount()
                                        + " (before "
                                        + threadsBefore
                                        + "), by name:\n"
                                        + threadsByName(gateway.pid()));
        System.out.printf("gateway threads: %d before, %d after%n", threadsBefore, threadsAfter);
        assertThat(threadsAfter).isLessThanOrEqualTo(limit);
    }

    /**
     * A client of the gateway's REST API, as tools other than Flink's JDBC driver are (open a
     * session, submit, fetch the result every 10 ms, close the operation): alone, then {@value
     * #REST_SESSIONS} sessions at once, every query returns its rows through the interactive client
     * with its defaults, and none fails.
     */
    @Test
    @Order(7)
    void aRestApiClientPollingEvery10MsGetsEveryRowAloneAndAmongOthers() throws Exception {
        ClientFigures before =
                settledFigures(
                        cluster, gatewayInsight(), "figures before the REST sessions", f -> true);
        int perSession = REST_ROUNDS * DemoWorkload.shortQueries().size();
        assertThat(runRestSession()).as("queries of the REST session alone").isEqualTo(perSession);

        ExecutorService clients =
                InteractiveClientSupport.daemonPool("interactive-it-rest", REST_SESSIONS);
        try {
            List<Future<Integer>> sessions = new ArrayList<>();
            for (int i = 0; i < REST_SESSIONS; i++) {
                sessions.add(clients.submit(this::runRestSession));
            }
            for (Future<Integer> session : sessions) {
                assertThat(session.get(QUERY_BOUND.toMinutes() * perSession, TimeUnit.MINUTES))
                        .as("queries of a REST session among others")
                        .isEqualTo(perSession);
            }
        } finally {
            clients.shutdownNow();
        }

        int expected = (1 + REST_SESSIONS) * perSession;
        ClientFigures after =
                settledFigures(
                        cluster,
                        gatewayInsight(),
                        expected + " REST queries ended",
                        f ->
                                f.succeeded() + f.failed()
                                        >= before.succeeded() + before.failed() + expected);
        assertThat(after.submitted() - before.submitted())
                .as("queries the interactive client submitted: %s", after)
                .isEqualTo(expected);
        assertThat(after.succeeded() - before.succeeded())
                .as("queries that succeeded: %s", after)
                .isEqualTo(expected);
        assertThat(after.failed()).as("failed queries").isEqualTo(before.failed());
    }

    /**
     * One REST session on the interactive client: the short queries {@value #REST_ROUNDS} times,
     * rows checked.
     */
    private int runRestSession() {
        try (GatewayRestSession session = GatewayRestSession.open(cluster.gatewayUrl())) {
            DemoWorkload.prepareShortQueries(session);
            session.set(Map.of("execution.target", InteractiveClientSupport.TARGET));
            int queries = 0;
            for (int round = 0; round < REST_ROUNDS; round++) {
                for (int q = 0; q < DemoWorkload.shortQueries().size(); q++) {
                    assertRestShortQueryRows(q, session.query(DemoWorkload.shortQueries().get(q)));
                    queries++;
                }
            }
            return queries;
        }
    }

    /**
     * {@link InteractiveClientSupport#assertShortQueryRows}, for rows as the REST API's JSON gives
     * them (text).
     */
    private static void assertRestShortQueryRows(int index, List<List<Object>> rows) {
        String sql = DemoWorkload.shortQueries().get(index);
        assertThat(rows).as("rows of %s", sql).hasSize(1);
        List<Object> row = rows.get(0);
        assertThat(row).as("columns of %s", sql).hasSize(index == 0 ? 1 : 2);
        assertThat((String) row.get(0))
                .as("val1 of %s", sql)
                .hasSize(InteractiveClientSupport.DATAGEN_STRING_LENGTH);
        if (index > 0) {
            assertThat(row.get(1)).as("COUNT(*) of %s", sql).isEqualTo("1");
        }
    }

    @Test
    @Order(9)
    void
            twoHundredQueriesOfFiveStatementsFromBothKindsOfClientAreFiveStatementsInTheGatewayAndTheHub()
                    throws Exception {
        StatementWorkload.run(
                runner,
                List.of(
                        () -> interactiveSession(cluster),
                        () -> interactiveSession(cluster),
                        this::interactiveRestSession,
                        this::interactiveRestSession));
        StatementWorkload.assertStatements(cluster, Role.SQL_GATEWAY);
        StatementWorkload.assertStatements(cluster, Role.JOBMANAGER);
    }

    /** A REST API session on the interactive client. */
    private GatewayRestSession interactiveRestSession() {
        GatewayRestSession session = GatewayRestSession.open(cluster.gatewayUrl());
        session.set(Map.of("execution.target", InteractiveClientSupport.TARGET));
        return session;
    }

    @Test
    @Order(8)
    void badCollectStrategyNamesTheKeyAndTheAcceptedValues() {
        try (SqlSession session = interactiveSession(cluster)) {
            session.execute("SET 'collect-strategy.type' = 'bogus'");
            Outcome outcome =
                    queryBounded(runner, session, DemoWorkload.shortQueries().get(0), QUERY_BOUND);
            assertThat(outcome.timedOut()).as("the query ended within %s", QUERY_BOUND).isFalse();
            assertThat(outcome.error())
                    .as("the query with collect-strategy.type = bogus failed")
                    .isNotNull();
            String chain = messageChain(outcome.error());
            System.out.println("error for collect-strategy.type = bogus:\n" + chain);
            assertThat(chain)
                    .contains("collect-strategy.type")
                    .contains("fixed", "exponential", "incremental")
                    .contains("fixed, exponential, incremental");
        }
    }

    /**
     * The most jobs named {@code name} that ran at one moment, from their start and end times in
     * Flink's REST API.
     */
    private int peakConcurrentJobs(String name) {
        List<long[]> events = new ArrayList<>(); // {time, +1 start / -1 end}
        for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
            if (name.equals(job.path("name").asText()) && job.path("end-time").asLong(-1) > 0) {
                events.add(new long[] {job.path("start-time").asLong(), 1});
                events.add(new long[] {job.path("end-time").asLong(), -1});
            }
        }
        assertThat(events).as("finished jobs named %s", name).hasSize(2 * CONCURRENT_QUERIES);
        // at equal times ends first: a job that ends as another starts did not run beside it
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int peak = 0;
        for (long[] event : events) {
            running += (int) event[1];
            peak = Math.max(peak, running);
        }
        return peak;
    }

    private String gatewayInsight() {
        return cluster.insightUrl(Role.SQL_GATEWAY);
    }

    /** {@code count} short queries in turn, spread over the sessions, which run side by side. */
    private void runShortQueries(List<SqlSession> sessions, int count) {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        for (SqlSession session : sessions) {
            running.add(
                    runner.submit(
                            () -> {
                                for (int i = next.getAndIncrement();
                                        i < count;
                                        i = next.getAndIncrement()) {
                                    int q = i % DemoWorkload.shortQueries().size();
                                    Outcome outcome =
                                            queryBounded(
                                                    runner,
                                                    session,
                                                    DemoWorkload.shortQueries().get(q),
                                                    QUERY_BOUND);
                                    assertSucceeded(outcome, "query " + i);
                                    assertShortQueryRows(q, outcome.rows());
                                }
                                return null;
                            }));
        }
        for (Future<?> session : running) {
            try {
                session.get(); // each query is bounded
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AssertionError failure) {
                    throw failure;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private void assertSucceeded(Outcome outcome, String what) {
        assertThat(outcome.timedOut()).as("%s ended within %s", what, QUERY_BOUND).isFalse();
        assertThat(outcome.error())
                .as(
                        "%s failed:%n%s%n%s",
                        what,
                        outcome.error() == null ? "" : messageChain(outcome.error()),
                        outcome.error() == null
                                ? ""
                                : cluster.diagnostics(List.of(Role.SQL_GATEWAY)))
                .isNull();
    }

    private String awaitRunningJob(String name) {
        return Waits.until(
                "job " + name + " RUNNING",
                Duration.ofSeconds(60),
                Duration.ofMillis(250),
                () -> {
                    for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
                        if (name.equals(job.path("name").asText())
                                && "RUNNING".equals(job.path("state").asText())) {
                            return Optional.of(job.path("jid").asText());
                        }
                    }
                    return Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER, Role.SQL_GATEWAY)));
    }

    /**
     * Thread names of the process grouped without their numbers, from {@code jcmd Thread.print}.
     */
    private static String threadsByName(long pid) {
        try {
            Process jcmd =
                    new ProcessBuilder("jcmd", Long.toString(pid), "Thread.print")
                            .redirectErrorStream(true)
                            .start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
            Map<String, Integer> counts = new TreeMap<>();
            dump.lines()
                    .filter(line -> line.startsWith("\""))
                    .forEach(
                            line -> {
                                String name =
                                        line.substring(1, Math.max(1, line.indexOf('"', 1)))
                                                .replaceAll("\\d+", "N");
                                counts.merge(name, 1, Integer::sum);
                            });
            StringBuilder text = new StringBuilder();
            counts.forEach((name, count) -> text.append(String.format("%4d %s%n", count, name)));
            return text.toString();
        } catch (Exception e) {
            return "(no thread dump: " + e + ")";
        }
    }
}
