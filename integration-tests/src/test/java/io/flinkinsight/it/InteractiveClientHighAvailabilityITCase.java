package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;
import io.flinkinsight.it.InteractiveClientSupport.Outcome;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.flinkinsight.it.InteractiveClientSupport.assertShortQueryRows;
import static io.flinkinsight.it.InteractiveClientSupport.interactiveSession;
import static io.flinkinsight.it.InteractiveClientSupport.messageChain;
import static io.flinkinsight.it.InteractiveClientSupport.queryBounded;
import static io.flinkinsight.it.InteractiveClientSupport.rootLine;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive client on a cluster with ZooKeeper high availability: a ZooKeeper server, two
 * JobManagers, a TaskManager and the SQL Gateway, each its own JVM. Eight sessions run short
 * queries in a loop while the leading JobManager is first paused (SIGSTOP) for 15 s and resumed,
 * then killed (SIGKILL). Every query is bounded on the test's side, so a hang shows up as a failure
 * and not as a stuck build.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InteractiveClientHighAvailabilityITCase {

    private static final int CONCURRENCY = 8;
    private static final Duration PAUSE = Duration.ofSeconds(15);

    /**
     * How long a JobManager's ZooKeeper session outlives it: a killed leader's standby takes over
     * after this. Longer than {@link #PAUSE} plus the client's ping interval (a third of it), with
     * tolerated suspended connections, so a paused leader keeps its leadership, as Flink's docs
     * advise for long GC pauses.
     */
    private static final Map<String, String> HA_OPTIONS =
            Map.of(
                    "high-availability.zookeeper.client.session-timeout", "30 s",
                    "high-availability.zookeeper.client.tolerate-suspended-connections", "true");

    /**
     * Far above the failover time (session timeout, job recovery, retries): a query still running
     * then hangs.
     */
    private static final Duration QUERY_BOUND = Duration.ofSeconds(100);

    /**
     * The time between the new leader's log line and its address reaching the client through
     * ZooKeeper's watch; a connection to the dead address later than that is a request the client
     * should not have sent.
     */
    private static final Duration LEADER_NOTICE_GRACE = Duration.ofSeconds(1);

    /** Messages of the gateway's own wrapping exceptions, which say nothing about the cause. */
    private static final String[] GATEWAY_WRAPPERS = {
        "Failed to fetchResults",
        "Failed to execute sql",
        "Failed to execute the operation",
        "Failed to get response for the operation",
        "Internal server error"
    };

    private LocalFlinkCluster cluster;
    private ExecutorService runner;

    @BeforeAll
    void startCluster() {
        cluster =
                LocalFlinkCluster.builder()
                        .workDir(TestClusters.workDir("interactive-ha"))
                        .zooKeeperHa(true)
                        .jobManagers(2)
                        .sqlGateway(true)
                        .gatewayClasspath(TestClusters.clientJar())
                        .config(HA_OPTIONS)
                        .config("taskmanager.network.sort-shuffle.min-buffers", "16")
                        .slotsPerTaskManager(CONCURRENCY + 2)
                        .start();
        runner = InteractiveClientSupport.daemonPool("interactive-ha-query", 0);
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
    void pausedLeaderLosesNoQueryAndAStreamingQueryKeepsDelivering() throws Exception {
        Role leader = cluster.awaitLeadingJobManager(Duration.ofSeconds(60));
        long zooKeeperClientsBefore = gatewayZooKeeperClients();
        try (Load load = new Load();
                SqlSession streaming = interactiveSession(cluster)) {
            streaming.set(Map.of("execution.runtime-mode", "streaming"));
            streaming.execute(
                    "CREATE TEMPORARY TABLE ticks (n BIGINT) WITH ('connector' = 'datagen',"
                            + " 'rows-per-second' = '20')");
            AtomicLong streamedRows = new AtomicLong();
            AtomicLong lastRowNanos = new AtomicLong();
            AtomicBoolean stopStreaming = new AtomicBoolean();
            Future<Long> stream =
                    runner.submit(
                            () ->
                                    streaming.stream(
                                            "SELECT n FROM ticks",
                                            row -> {
                                                streamedRows.incrementAndGet();
                                                lastRowNanos.set(System.nanoTime());
                                                return !stopStreaming.get();
                                            }));
            awaitRows(streamedRows, 20, "streamed rows before the pause");
            load.awaitSuccesses(2, Long.MIN_VALUE, "before the pause");

            long pausedAt = System.nanoTime();
            cluster.pause(leader);
            try {
                Thread.sleep(PAUSE.toMillis());
            } finally {
                cluster.resume(leader);
            }
            long resumedAt = System.nanoTime();
            long rowsAtResume = streamedRows.get();

            load.awaitSuccesses(2, resumedAt, "after the resume");
            awaitRows(streamedRows, rowsAtResume + 20, "streamed rows after the resume");
            stopStreaming.set(true);
            load.stop();
            System.out.println("pause: " + load.summary(pausedAt, resumedAt));
            System.out.printf(
                    "pause: the streaming query delivered %d rows, %d after the resume%n",
                    streamedRows.get(), streamedRows.get() - rowsAtResume);

            long zooKeeperClients = gatewayZooKeeperClients() - zooKeeperClientsBefore;
            System.out.printf(
                    "pause: %d ZooKeeper client(s) started in the gateway%n", zooKeeperClients);
            load.assertNoHangAndClearErrors(pausedAt);
            // one pooled client per cluster, and with it one leader retrieval, for every query of
            // every session
            assertThat(zooKeeperClients)
                    .as(
                            "ZooKeeper clients the gateway started for %d sessions' queries",
                            CONCURRENCY + 1)
                    .isEqualTo(1);
            assertThat(load.failures())
                    .as("queries lost to a paused leader: %s", load.summary(pausedAt, resumedAt))
                    .isZero();
            assertThat(lastRowNanos.get())
                    .as("a streamed row after the resume")
                    .isGreaterThan(resumedAt);
            assertThat(stream.isDone() && !stopStreaming.get())
                    .as("the streaming query ended on its own")
                    .isFalse();
        }
    }

    @Test
    @Order(2)
    void killedLeaderIsFollowedAndItsAddressIsLeftAlone() throws Exception {
        Role leader = cluster.awaitLeadingJobManager(Duration.ofSeconds(60));
        int deadPort = URI.create(cluster.restUrl(leader)).getPort();
        long zooKeeperClientsBefore = gatewayZooKeeperClients();
        try (Load load = new Load()) {
            load.awaitSuccesses(2, Long.MIN_VALUE, "before the kill");

            long killedAt = System.nanoTime();
            cluster.kill(leader);
            // A listener on the dead address counts every connection the client still tries; it
            // closes each at once
            // with a reset, as the dead JobManager's closed port would refuse it.
            try (DeadAddress dead = DeadAddress.listen(deadPort)) {
                Role newLeader =
                        Waits.until(
                                "a new leader after " + leader + " was killed",
                                Duration.ofSeconds(90),
                                Duration.ofMillis(100),
                                () -> cluster.leadingJobManager().filter(r -> !r.equals(leader)),
                                () -> cluster.diagnostics(List.of()));
                long leaderKnownAt = System.nanoTime();
                load.awaitSuccesses(
                        3, leaderKnownAt, "after the new leader " + newLeader + " was elected");
                load.stop();

                System.out.println("kill: " + load.summary(killedAt, leaderKnownAt));
                System.out.printf(
                        "kill: new leader after %d ms; connections to the dead address %d: %s ms after"
                                + " the kill%n",
                        (leaderKnownAt - killedAt) / 1_000_000,
                        deadPort,
                        dead.connections().size(),
                        dead.connections().stream().map(t -> (t - killedAt) / 1_000_000).toList());

                long zooKeeperClients = gatewayZooKeeperClients() - zooKeeperClientsBefore;
                System.out.printf(
                        "kill: %d ZooKeeper client(s) started in the gateway%n", zooKeeperClients);
                load.assertNoHangAndClearErrors(killedAt);
                // the pooled client follows the new leader with its own leader retrieval: none
                // started for the
                // failover (one if this test made the pooled client, the first test's having
                // expired)
                assertThat(zooKeeperClients)
                        .as("ZooKeeper clients the gateway started across the failover")
                        .isLessThanOrEqualTo(1);
                long late = leaderKnownAt + LEADER_NOTICE_GRACE.toNanos();
                assertThat(
                                dead.connections().stream()
                                        .filter(t -> t > late)
                                        .map(t -> (t - leaderKnownAt) / 1_000_000))
                        .as(
                                "connections to the dead JobManager's address %d, in ms after the new leader was known",
                                deadPort)
                        .isEmpty();
            }
        }
        assertThat(
                        cluster.http()
                                .getJson(cluster.gatewayUrl() + "/v1/info")
                                .path("productName")
                                .asText())
                .as("the gateway still serves")
                .isNotEmpty();
    }

    /**
     * How many ZooKeeper clients the gateway has started so far: each cluster client with ZooKeeper
     * HA starts one for its leader retrieval, and logs this line.
     */
    private long gatewayZooKeeperClients() throws IOException {
        try (var lines = Files.lines(cluster.logFile(Role.SQL_GATEWAY), StandardCharsets.UTF_8)) {
            return lines.filter(
                            line -> line.contains("Initiating client connection, connectString="))
                    .count();
        }
    }

    private void awaitRows(AtomicLong rows, long count, String what) {
        Waits.until(
                count + " " + what,
                Duration.ofSeconds(90),
                Duration.ofMillis(200),
                () -> rows.get() >= count ? Optional.of(true) : Optional.empty(),
                () ->
                        rows.get()
                                + " rows so far\n"
                                + cluster.diagnostics(List.of(Role.SQL_GATEWAY)));
    }

    /** {@value #CONCURRENCY} sessions, each running the short queries in turn until stopped. */
    private final class Load implements AutoCloseable {
        private final List<SqlSession> sessions = new ArrayList<>();
        private final List<List<Outcome>> outcomes = new ArrayList<>();
        private final List<Future<?>> loops = new ArrayList<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ExecutorService pool =
                InteractiveClientSupport.daemonPool("interactive-ha-loop", CONCURRENCY);

        Load() {
            for (int s = 0; s < CONCURRENCY; s++) {
                SqlSession session = interactiveSession(cluster);
                sessions.add(session);
                List<Outcome> own = new CopyOnWriteArrayList<>();
                outcomes.add(own);
                loops.add(pool.submit(() -> queryLoop(session, own)));
            }
        }

        private Void queryLoop(SqlSession session, List<Outcome> own) {
            for (int i = 0; !stop.get(); i++) {
                int q = i % DemoWorkload.shortQueries().size();
                Outcome outcome =
                        queryBounded(
                                runner, session, DemoWorkload.shortQueries().get(q), QUERY_BOUND);
                if (outcome.succeeded()) {
                    try {
                        assertShortQueryRows(q, outcome.rows());
                    } catch (AssertionError wrongRows) {
                        outcome =
                                new Outcome(
                                        outcome.rows(),
                                        wrongRows,
                                        false,
                                        outcome.startNanos(),
                                        outcome.endNanos());
                    }
                }
                own.add(outcome);
                if (outcome.timedOut()) {
                    return null;
                }
            }
            return null;
        }

        /**
         * Waits until each session has {@code count} successful queries that started after {@code
         * since}.
         */
        void awaitSuccesses(int count, long since, String when) {
            Waits.until(
                    count + " successful queries on each of " + CONCURRENCY + " sessions " + when,
                    QUERY_BOUND.plusSeconds(30),
                    Duration.ofMillis(250),
                    () -> {
                        for (List<Outcome> session : outcomes) {
                            if (session.stream().anyMatch(Outcome::timedOut)) {
                                throw new Waits.AbortException("a query hung for " + QUERY_BOUND);
                            }
                            long ok =
                                    session.stream()
                                            .filter(o -> o.succeeded() && o.startNanos() >= since)
                                            .count();
                            if (ok < count) {
                                return Optional.empty();
                            }
                        }
                        return Optional.of(true);
                    },
                    () ->
                            summary(since, since)
                                    + "\n"
                                    + cluster.diagnostics(List.of(Role.SQL_GATEWAY)));
        }

        void stop() throws Exception {
            stop.set(true);
            for (Future<?> loop : loops) {
                loop.get(QUERY_BOUND.toSeconds() + 30, TimeUnit.SECONDS);
            }
        }

        long failures() {
            return outcomes.stream().flatMap(List::stream).filter(o -> !o.succeeded()).count();
        }

        void assertNoHangAndClearErrors(long faultAt) {
            for (List<Outcome> session : outcomes) {
                for (Outcome outcome : session) {
                    assertThat(outcome.timedOut())
                            .as(
                                    "a query hung for %s (started %d ms after the fault)",
                                    QUERY_BOUND, (outcome.startNanos() - faultAt) / 1_000_000)
                            .isFalse();
                    if (outcome.error() != null) {
                        assertThat(outcome.error())
                                .as("wrong rows")
                                .isNotInstanceOf(AssertionError.class);
                        // The gateway's wrappers alone say nothing; the chain must go down to what
                        // went wrong.
                        assertThat(rootLine(outcome.error()))
                                .as(
                                        "root cause of a failed query:%n%s",
                                        messageChain(outcome.error()))
                                .isNotBlank()
                                .doesNotContain(GATEWAY_WRAPPERS);
                    }
                }
            }
        }

        /**
         * Successes and failures of queries started before the fault, during it and after, with the
         * errors.
         */
        String summary(long faultAt, long faultEndAt) {
            int[][] counts = new int[3][2];
            Map<String, Integer> errors = new TreeMap<>();
            long slowest = 0;
            for (List<Outcome> session : outcomes) {
                for (Outcome o : session) {
                    int phase = o.startNanos() < faultAt ? 0 : o.startNanos() < faultEndAt ? 1 : 2;
                    counts[phase][o.succeeded() ? 0 : 1]++;
                    slowest = Math.max(slowest, o.elapsed().toMillis());
                    if (o.error() != null) {
                        errors.merge(rootLine(o.error()), 1, Integer::sum);
                    } else if (o.timedOut()) {
                        errors.merge("(hung)", 1, Integer::sum);
                    }
                }
            }
            StringBuilder text =
                    new StringBuilder(
                            String.format(
                                    "queries started before the fault: %d ok, %d failed; during it: %d ok, %d failed;"
                                            + " after: %d ok, %d failed; slowest %d ms%n",
                                    counts[0][0],
                                    counts[0][1],
                                    counts[1][0],
                                    counts[1][1],
                                    counts[2][0],
                                    counts[2][1],
                                    slowest));
            errors.forEach((line, n) -> text.append(String.format("%4d × %s%n", n, line)));
            return text.toString();
        }

        @Override
        public void close() {
            stop.set(true);
            pool.shutdownNow();
            for (SqlSession session : sessions) {
                try {
                    session.close();
                } catch (RuntimeException e) {
                    // The session's gateway side may be gone with a failed query; nothing to keep.
                }
            }
        }
    }

    /**
     * A listener on a dead JobManager's REST port that records when each connection came and resets
     * it.
     */
    private static final class DeadAddress implements AutoCloseable {
        private final ServerSocket server;
        private final List<Long> connections = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        private DeadAddress(ServerSocket server) {
            this.server = server;
            this.acceptor = new Thread(this::acceptLoop, "dead-jobmanager-address");
            this.acceptor.setDaemon(true);
            this.acceptor.start();
        }

        static DeadAddress listen(int port) throws IOException {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
            return new DeadAddress(server);
        }

        private void acceptLoop() {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    connections.add(System.nanoTime());
                    socket.setSoLinger(true, 0);
                } catch (IOException e) {
                    // closed, or a reset of our own making
                }
            }
        }

        /** The {@code System.nanoTime()} of each connection accepted. */
        List<Long> connections() {
            return List.copyOf(connections);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
