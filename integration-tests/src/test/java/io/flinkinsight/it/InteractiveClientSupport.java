package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the interactive-client ITCases share: sessions on {@code remote-interactive}, the rows of
 * DemoWorkload's short queries, queries bounded on the test's side, and the client figures of an
 * Insight endpoint's {@code /api/v1/client}.
 */
final class InteractiveClientSupport {

    static final String TARGET = "remote-interactive";

    /** Datagen's default length of a random STRING. */
    static final int DATAGEN_STRING_LENGTH = 100;

    private static final Duration SETTLE_INTERVAL = Duration.ofSeconds(2);

    private InteractiveClientSupport() {}

    /** A session on the interactive client, prepared for {@link DemoWorkload#shortQueries()}. */
    static SqlSession interactiveSession(LocalFlinkCluster cluster) {
        return interactiveSession(cluster, Map.of());
    }

    /** The same, with more session settings (e.g. the client's options). */
    static SqlSession interactiveSession(LocalFlinkCluster cluster, Map<String, String> settings) {
        Map<String, String> all = new java.util.LinkedHashMap<>(settings);
        all.put("execution.target", TARGET);
        SqlSession session = cluster.sqlSession(all);
        try {
            DemoWorkload.prepareShortQueries(session);
            return session;
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * The rows of short query {@code index} of {@link DemoWorkload#shortQueries()} over 1-row
     * datagen tables: source → one random string; wordcount and the left joins (random strings
     * never match) → that string with count 1.
     */
    static void assertShortQueryRows(int index, List<List<Object>> rows) {
        String sql = DemoWorkload.shortQueries().get(index);
        assertThat(rows).as("rows of %s", sql).hasSize(1);
        List<Object> row = rows.get(0);
        assertThat(row).as("columns of %s", sql).hasSize(index == 0 ? 1 : 2);
        assertThat(row.get(0)).as("val1 of %s", sql).isInstanceOf(String.class);
        assertThat((String) row.get(0)).as("val1 of %s", sql).hasSize(DATAGEN_STRING_LENGTH);
        if (index > 0) {
            assertThat(row.get(1)).as("COUNT(*) of %s", sql).isInstanceOf(Number.class);
            assertThat(((Number) row.get(1)).longValue()).as("COUNT(*) of %s", sql).isEqualTo(1L);
        }
    }

    /** Daemon threads, so a query that hangs cannot keep the test JVM alive. */
    static ExecutorService daemonPool(String name, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory =
                runnable -> {
                    Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                };
        return threads <= 0
                ? Executors.newCachedThreadPool(factory)
                : Executors.newFixedThreadPool(threads, factory);
    }

    /** How one query ended, as the JDBC client saw it. */
    record Outcome(
            List<List<Object>> rows,
            Throwable error,
            boolean timedOut,
            long startNanos,
            long endNanos) {

        boolean succeeded() {
            return error == null && !timedOut;
        }

        Duration elapsed() {
            return Duration.ofNanos(endNanos - startNanos);
        }
    }

    /**
     * Runs the query on {@code runner} and waits at most {@code bound}; a hang is reported, never
     * waited out.
     */
    static Outcome queryBounded(
            ExecutorService runner, SqlSession session, String sql, Duration bound) {
        long start = System.nanoTime();
        Future<List<List<Object>>> result = runner.submit(() -> session.query(sql));
        try {
            List<List<Object>> rows = result.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome(rows, null, false, start, System.nanoTime());
        } catch (ExecutionException e) {
            return new Outcome(null, e.getCause(), false, start, System.nanoTime());
        } catch (TimeoutException e) {
            result.cancel(true);
            return new Outcome(null, null, true, start, System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + sql, e);
        }
    }

    /** Class and message of the error and each of its causes, one per line. */
    static String messageChain(Throwable error) {
        StringBuilder chain = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            chain.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
        }
        return chain.toString();
    }

    /**
     * The root cause in one line: the last {@code Caused by:} line of the chain's messages (the
     * gateway sends its server-side stack trace as message text), else the first line of the
     * innermost message.
     */
    static String rootLine(Throwable error) {
        String line = String.valueOf(error);
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            String message = t.getMessage();
            if (message == null || message.isBlank()) {
                continue;
            }
            line =
                    t.getClass().getSimpleName()
                            + ": "
                            + message.strip().lines().findFirst().orElse("");
            for (String text : (Iterable<String>) message.lines()::iterator) {
                if (text.startsWith("Caused by: ")) {
                    line = text.substring("Caused by: ".length());
                }
            }
        }
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    /** The client figures of one {@code /api/v1/client} answer. */
    record ClientFigures(JsonNode json) {

        boolean available() {
            return json.path("available").asBoolean(false);
        }

        long submitted() {
            return count("/queries/submitted");
        }

        long succeeded() {
            return count("/queries/succeeded");
        }

        long failed() {
            return count("/queries/failed");
        }

        long poolRequests() {
            return count("/pool/requests");
        }

        long poolHits() {
            return count("/pool/hits");
        }

        long poolMisses() {
            return count("/pool/misses");
        }

        long poolSize() {
            return count("/pool/size");
        }

        long evictions() {
            return count("/pool/evictions");
        }

        long opened() {
            return count("/channels/opened");
        }

        long reused() {
            return count("/channels/reused");
        }

        /** REST requests to the JobManager the client sent for queries. */
        long queryRequests() {
            return count("/channels/queryRequests");
        }

        long inFlight() {
            return count("/channels/inFlight");
        }

        /** The median E2E latency, or null when the endpoint has none. */
        JsonNode e2eP50() {
            return json.at("/queries/e2eLatencyMs/p50");
        }

        /** Whether every counter equals the other's, i.e. nothing happened in between. */
        boolean sameCounters(ClientFigures other) {
            return submitted() == other.submitted()
                    && succeeded() == other.succeeded()
                    && failed() == other.failed()
                    && poolRequests() == other.poolRequests()
                    && poolHits() == other.poolHits()
                    && poolMisses() == other.poolMisses()
                    && opened() == other.opened()
                    && reused() == other.reused()
                    && queryRequests() == other.queryRequests();
        }

        private long count(String pointer) {
            return Math.round(json.at(pointer).asDouble(0));
        }

        @Override
        public String toString() {
            return json.toString();
        }
    }

    /** {@code /api/v1/client} of the Insight server at {@code insightUrl}. */
    static ClientFigures figures(LocalFlinkCluster cluster, String insightUrl) {
        return new ClientFigures(cluster.http().getJson(insightUrl + "/api/v1/client"));
    }

    /**
     * The figures once they are {@code ready} and have stopped changing: two answers a settle
     * interval apart with the same counters (the endpoint serves the newest sample of each series,
     * taken every history resolution).
     */
    static ClientFigures settledFigures(
            LocalFlinkCluster cluster,
            String insightUrl,
            String what,
            Predicate<ClientFigures> ready) {
        AtomicReference<ClientFigures> previous = new AtomicReference<>();
        return Waits.until(
                what + " (settled client figures at " + insightUrl + ")",
                Duration.ofSeconds(60),
                SETTLE_INTERVAL,
                () -> {
                    ClientFigures now = figures(cluster, insightUrl);
                    ClientFigures before = previous.getAndSet(now);
                    boolean settled = before != null && ready.test(now) && now.sameCounters(before);
                    return settled ? Optional.of(now) : Optional.empty();
                },
                () -> "last answer: " + previous.get());
    }
}
