package io.flinkinsight.it;

import io.flinkinsight.harness.GatewaySession;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.Waits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Five statements run with varying literals through both kinds of gateway client (Flink's JDBC
 * driver and a REST caller), one of them slow on purpose, and what the statements API must then say
 * of them: exactly five statements with their counts, the slow one first by p99, and each kept
 * query's client phases adding up to its end-to-end time.
 */
final class StatementWorkload {

    /** In every statement's text, to tell them from the other tests' queries. */
    static final String TAG = "s27_";

    /** Calls of each fast statement, and of the slow one: 200 queries in all. */
    static final int FAST_CALLS = 48;

    static final int SLOW_CALLS = 8;

    private static final int FAST_STATEMENTS = 4;

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatementWorkload() {}

    /** Rows of the slow statement's source, one a second: far slower than a cold first query. */
    static final int SLOW_ROWS = 8;

    /** The slow statement's source: {@value #SLOW_ROWS} rows, one a second. */
    static void prepare(GatewaySession session) {
        session.execute(
                "CREATE TEMPORARY TABLE "
                        + TAG
                        + "slow_src (x INT) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '1', 'number-of-rows' = '"
                        + SLOW_ROWS
                        + "',"
                        + " 'fields.x.min' = '0', 'fields.x.max' = '9')");
    }

    /** Query {@code n} of the fast statement {@code k} (0 to 3), its literal varying with n. */
    static String fast(int k, int n) {
        return "SELECT v * "
                + (n % 7 + 1)
                + " AS "
                + TAG
                + k
                + " FROM (VALUES (1), (2), (3)) AS t(v) WHERE v > "
                + (n % 2);
    }

    /** Query {@code n} of the slow statement. */
    static String slow(int n) {
        return "SELECT x + " + n + " AS " + TAG + "slow FROM " + TAG + "slow_src";
    }

    /**
     * Runs the 200 queries over {@code sessions} side by side (each session its share of every
     * statement), each query's rows checked.
     */
    static void run(ExecutorService runner, List<Supplier<GatewaySession>> sessions)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Future<?>> running = new ArrayList<>();
        for (int s = 0; s < sessions.size(); s++) {
            int session = s;
            running.add(
                    runner.submit(
                            () -> {
                                try (GatewaySession gateway = sessions.get(session).get()) {
                                    prepare(gateway);
                                    for (int n = session; n < FAST_CALLS; n += sessions.size()) {
                                        for (int k = 0; k < FAST_STATEMENTS; k++) {
                                            assertThat(gateway.query(fast(k, n)))
                                                    .as("rows of %s", fast(k, n))
                                                    .hasSize(n % 2 == 0 ? 3 : 2);
                                        }
                                    }
                                    for (int n = session; n < SLOW_CALLS; n += sessions.size()) {
                                        assertThat(gateway.query(slow(n)))
                                                .as("rows of %s", slow(n))
                                                .hasSize(SLOW_ROWS);
                                    }
                                }
                                return null;
                            }));
        }
        for (Future<?> f : running) {
            try {
                f.get(10, TimeUnit.MINUTES);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new TimeoutException("the statements' queries did not end in 10 minutes");
            }
        }
    }

    /** The queries did not end in time. */
    static final class TimeoutException extends Exception {
        TimeoutException(String message) {
            super(message);
        }
    }

    /**
     * The statements of this workload as {@code role}'s {@code /api/v1/statements} answers them
     * once all 200 queries are counted, by text.
     */
    static Map<String, JsonNode> awaitStatements(LocalFlinkCluster cluster, Role role) {
        return Waits.until(
                role + "'s /api/v1/statements to count the 200 queries of the 5 statements",
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                () -> {
                    Map<String, JsonNode> ours = statements(cluster, role, "total");
                    long calls =
                            ours.values().stream().mapToLong(s -> s.path("calls").asLong()).sum();
                    return calls >= FAST_STATEMENTS * FAST_CALLS + SLOW_CALLS
                            ? Optional.of(ours)
                            : Optional.empty();
                },
                () -> cluster.insightGet(role, "/api/v1/statements?limit=1000"));
    }

    /** This workload's statements on {@code role}'s API, in the order {@code sort} gives. */
    static Map<String, JsonNode> statements(LocalFlinkCluster cluster, Role role, String sort) {
        JsonNode answer =
                json(cluster.insightGet(role, "/api/v1/statements?limit=1000&sort=" + sort));
        Map<String, JsonNode> ours = new LinkedHashMap<>();
        for (JsonNode s : answer.path("statements")) {
            if (s.path("statement").asText().contains(TAG)) {
                ours.put(s.path("statement").asText(), s);
            }
        }
        return ours;
    }

    /** What the statements API must say of this workload's statements on {@code role}. */
    static void assertStatements(LocalFlinkCluster cluster, Role role) {
        Map<String, JsonNode> byText = awaitStatements(cluster, role);
        assertThat(byText)
                .as("%s: the workload's statements: %s", role, byText.keySet())
                .hasSize(5);
        for (Map.Entry<String, JsonNode> s : byText.entrySet()) {
            boolean isSlow = s.getKey().contains(TAG + "slow");
            assertThat(s.getKey())
                    .as("a statement's text keeps no literal")
                    .doesNotContainPattern("[*>+] [0-9]");
            assertThat(s.getValue().path("calls").asLong())
                    .as("%s: calls of %s", role, s.getKey())
                    .isEqualTo(isSlow ? SLOW_CALLS : FAST_CALLS);
            assertThat(s.getValue().path("failed").asLong())
                    .as("failed of %s", s.getKey())
                    .isZero();
        }
        String firstByP99 = statements(cluster, role, "p99").keySet().iterator().next();
        assertThat(firstByP99)
                .as("%s: the statement made slow ranks first by p99", role)
                .contains(TAG + "slow");

        boolean clusterPhasesSeen = false;
        for (JsonNode s : byText.values()) {
            JsonNode kept =
                    json(
                            cluster.insightGet(
                                    role, "/api/v1/queries?statement=" + s.path("id").asText()));
            assertThat(kept.path("slowest").size()).as("slowest kept").isEqualTo(5);
            assertThat(kept.path("latest").size()).as("latest kept").isEqualTo(5);
            for (JsonNode q : kept.path("slowest")) {
                long client = 0;
                for (JsonNode phase : q.path("phases")) {
                    long length = phase.path("end").asLong() - phase.path("start").asLong();
                    assertThat(length).as("a phase's length in %s", q).isNotNegative();
                    if (phase.path("side").asText().equals("client")) {
                        client += length;
                    } else {
                        clusterPhasesSeen = true;
                    }
                }
                assertThat(client)
                        .as("%s: the client's phases of a query add up to its time: %s", role, q)
                        .isEqualTo(q.path("e2eMs").asLong());
                assertThat(q.path("jobId").asText()).as("the query's job").hasSize(32);
            }
        }
        if (role == Role.JOBMANAGER) {
            assertThat(clusterPhasesSeen)
                    .as("the hub joins the JobManager's phases of the queries' jobs")
                    .isTrue();
        }
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
