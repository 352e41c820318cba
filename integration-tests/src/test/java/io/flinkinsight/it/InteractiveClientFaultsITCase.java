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

import static io.flinkinsight.it.InteractiveClientSupport.assertShortQueryRows;
import static io.flinkinsight.it.InteractiveClientSupport.interactiveSession;
import static io.flinkinsight.it.InteractiveClientSupport.messageChain;
import static io.flinkinsight.it.InteractiveClientSupport.queryBounded;
import static io.flinkinsight.it.InteractiveClientSupport.rootLine;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive client when the JobManager goes away under it: killed (SIGKILL) and restarted on
 * the same ports while sessions run queries in a loop, then killed for good. Every query is bounded
 * on the test's side, so a hang shows up as a failure and not as a stuck build.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InteractiveClientFaultsITCase {

    private static final int LOOP_SESSIONS = 3;
    private static final int SUCCESSES_AFTER_RESTART = 3;

    /** Far above any configured timeout below: a query still running then hangs. */
    private static final Duration QUERY_BOUND = Duration.ofSeconds(90);

    /** The client's timeouts, small so an unreachable JobManager fails a query quickly. */
    private static final Map<String, String> CLIENT_TIMEOUTS =
            Map.of(
                    "client.timeout", "10 s",
                    "rest.connection-timeout", "3 s",
                    "rest.retry.max-attempts", "2",
                    "rest.retry.delay", "500 ms",
                    "execution.interactive.rest.acquire-timeout", "3 s");

    /**
     * What {@link #unreachableJobManagerFailsAQueryWithAClearError()} allows: the timeouts above
     * and some slack.
     */
    private static final Duration UNREACHABLE_BOUND = Duration.ofSeconds(45);

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
                TestClusters.withPlugin(
                                "interactive-faults",
                                InteractiveClientOnInsightClusterITCase.CLUSTER_INSIGHT_PORTS)
                        .gatewayClasspath(TestClusters.clientJar())
                        .gatewayConfig(
                                "metrics.reporter.insight.port",
                                InteractiveClientOnInsightClusterITCase.GATEWAY_INSIGHT_PORTS)
                        .config(CLIENT_TIMEOUTS)
                        // The TaskManager notices a killed JobManager after heartbeat.timeout and
                        // registers with the new one.
                        .config("heartbeat.interval", "2 s")
                        .config("heartbeat.timeout", "10 s")
                        .config("cluster.registration.error-delay", "2 s")
                        .config("taskmanager.network.sort-shuffle.min-buffers", "16")
                        .slotsPerTaskManager(8)
                        .start();
        runner = InteractiveClientSupport.daemonPool("interactive-faults-query", 0);
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
    void queriesRecoverAfterTheJobManagerRestarts() throws Exception {
        List<SqlSession> sessions = new ArrayList<>();
        List<List<Outcome>> outcomes = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService loops =
                InteractiveClientSupport.daemonPool("interactive-faults-loop", LOOP_SESSIONS);
        long killedAt;
        long restartedAt;
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int s = 0; s < LOOP_SESSIONS; s++) {
                SqlSession session = interactiveSession(cluster);
                sessions.add(session);
                List<Outcome> own = new CopyOnWriteArrayList<>();
                outcomes.add(own);
                running.add(loops.submit(() -> queryLoop(session, own, stop)));
            }
            awaitSuccesses(outcomes, 2, Long.MIN_VALUE, "before the kill");

            killedAt = System.nanoTime();
            cluster.kill(Role.JOBMANAGER);
            Thread.sleep(2000); // queries meet a JobManager that is gone, not only one that is
            // restarting
            cluster.restartJobManager();
            restartedAt = System.nanoTime();
            awaitSuccesses(outcomes, SUCCESSES_AFTER_RESTART, restartedAt, "after the restart");

            stop.set(true);
            for (Future<?> loop : running) {
                loop.get(QUERY_BOUND.toSeconds() + 30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            loops.shutdownNow();
            sessions.forEach(InteractiveClientFaultsITCase::closeQuietly);
        }

        System.out.println(summary(outcomes, killedAt, restartedAt));
        for (List<Outcome> session : outcomes) {
            for (Outcome outcome : session) {
                assertThat(outcome.timedOut())
                        .as(
                                "a query hung for %s (started %s s after the kill)",
                                QUERY_BOUND, (outcome.startNanos() - killedAt) / 1_000_000_000L)
                        .isFalse();
                if (outcome.error() != null) {
                    // The gateway's wrappers alone say nothing; the chain must go down to what went
                    // wrong.
                    assertThat(rootLine(outcome.error()))
                            .as("root cause of a failed query:%n%s", messageChain(outcome.error()))
                            .isNotBlank()
                            .doesNotContain(GATEWAY_WRAPPERS);
                }
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

    @Test
    @Order(2)
    void unreachableJobManagerFailsAQueryWithAClearError() {
        try (SqlSession session = interactiveSession(cluster)) {
            Outcome warm =
                    queryBounded(runner, session, DemoWorkload.shortQueries().get(0), QUERY_BOUND);
            assertThat(warm.error())
                    .as(
                            "a query before the kill: %s",
                            warm.error() == null ? "" : messageChain(warm.error()))
                    .isNull();

            cluster.kill(Role.JOBMANAGER);
            Outcome outcome =
                    queryBounded(
                            runner, session, DemoWorkload.shortQueries().get(1), UNREACHABLE_BOUND);

            assertThat(outcome.timedOut())
                    .as("the query ended within %s with the JobManager gone", UNREACHABLE_BOUND)
                    .isFalse();
            assertThat(outcome.error()).as("the query failed with the JobManager gone").isNotNull();
            String chain = messageChain(outcome.error());
            System.out.printf(
                    "unreachable JobManager: failed after %d ms:%n%s%n",
                    outcome.elapsed().toMillis(), chain);
            String port = Integer.toString(cluster.ports().rest());
            assertThat(chain)
                    .as("the error names the JobManager's address or the connection")
                    .satisfiesAnyOf(
                            c -> assertThat(c).contains("127.0.0.1:" + port),
                            c -> assertThat(c).containsIgnoringCase("connect"));
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
     * Short queries in turn until told to stop; a query that hangs ends the loop (its session is
     * stuck).
     */
    private Void queryLoop(SqlSession session, List<Outcome> outcomes, AtomicBoolean stop) {
        for (int i = 0; !stop.get(); i++) {
            int q = i % DemoWorkload.shortQueries().size();
            Outcome outcome =
                    queryBounded(runner, session, DemoWorkload.shortQueries().get(q), QUERY_BOUND);
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
            outcomes.add(outcome);
            if (outcome.timedOut()) {
                return null;
            }
            if (outcome.error() instanceof AssertionError) {
                throw (AssertionError) outcome.error();
            }
        }
        return null;
    }

    /**
     * Waits until each session has {@code count} successful queries that started after {@code
     * since}.
     */
    private void awaitSuccesses(List<List<Outcome>> outcomes, int count, long since, String when) {
        Waits.until(
                count + " successful queries on each of " + outcomes.size() + " sessions " + when,
                Duration.ofSeconds(150),
                Duration.ofMillis(500),
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
                        summary(outcomes, since, since)
                                + "\n"
                                + cluster.diagnostics(List.of(Role.JOBMANAGER, Role.SQL_GATEWAY)));
    }

    /**
     * Successes and failures before the kill, while the JobManager was away, and after, with the
     * errors seen.
     */
    private static String summary(List<List<Outcome>> outcomes, long killedAt, long restartedAt) {
        int[][] counts = new int[3][2];
        Map<String, Integer> errors = new TreeMap<>();
        for (List<Outcome> session : outcomes) {
            for (Outcome o : session) {
                int phase = o.startNanos() < killedAt ? 0 : o.startNanos() < restartedAt ? 1 : 2;
                counts[phase][o.succeeded() ? 0 : 1]++;
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
                                "queries started before the kill: %d ok, %d failed; while away: %d ok, %d failed;"
                                        + " after the restart: %d ok, %d failed%n",
                                counts[0][0],
                                counts[0][1],
                                counts[1][0],
                                counts[1][1],
                                counts[2][0],
                                counts[2][1]));
        errors.forEach((line, n) -> text.append(String.format("%4d × %s%n", n, line)));
        return text.toString();
    }

    private static void closeQuietly(SqlSession session) {
        try {
            session.close();
        } catch (RuntimeException e) {
            // The session's gateway side may be gone with a failed query; nothing to keep.
        }
    }
}
