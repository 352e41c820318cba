package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.api.QueriesEndpoint;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.LimitedBodySubscriber;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementStore;
import io.flinkinsight.plugin.store.statement.StatementsSnapshot;

import com.fasterxml.jackson.databind.JsonNode;

import javax.annotation.Nullable;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads the queries the gateways' interactive clients ran from their {@code /api/v1/queries} log,
 * after the last one it read from each, into the hub's statements: so the hub's statements are
 * every gateway's together, each query counted once. A gateway that started again (another {@code
 * instance}) is read from its start; queries a gateway logged and dropped before the hub read them
 * are counted as missed ({@code flink_insight_hub_client_refused_total{reason="queries_missed"}}).
 *
 * <p>Bounded, since anything listening on a listed port may answer: {@value #MAX_AT_ONCE} gateways
 * asked at once, {@value #MAX_BODY_BYTES} bytes an answer and {@value #MAX_ROUND_BYTES} a round (a
 * gateway's pages are cut at {@link QueriesEndpoint#PAGE_BYTES}; one whose answer is still too
 * large is asked for fewer queries next time), {@value #MAX_PAGES} pages a gateway a round, all
 * within {@link #ROUND_DEADLINE_MILLIS}; each query's text normalized again and cut, its time its
 * end less its start, a query outside the last day (by the hub's clock) refused, and at most
 * {@value #MAX_NEW_STATEMENTS} new statements a gateway a page, so one process cannot push the
 * others' statements out in one round.
 */
final class QueryFeedReader {

    /** A page of at most {@link QueriesEndpoint#PAGE_BYTES}, and room. */
    static final int MAX_BODY_BYTES = 2 * 1024 * 1024;

    /** What one round reads from all gateways together; the rest waits for the next round. */
    static final int MAX_ROUND_BYTES = 16 * 1024 * 1024;

    /** Gateways asked at once. */
    static final int MAX_AT_ONCE = 8;

    /** Pages read from one gateway in one round, so one busy gateway cannot hold the round. */
    static final int MAX_PAGES = 4;

    /** How long a round's reading may take in all. */
    static final long ROUND_DEADLINE_MILLIS = 8_000;

    /** Statements the hub did not know that one page of one gateway may add. */
    static final int MAX_NEW_STATEMENTS = 50;

    /** The fewest queries asked for in a page, however often answers were too large. */
    static final int MIN_LIMIT = 10;

    /** How far back a query may have started, and how far ahead ended, by the hub's clock. */
    static final long MAX_AGE_MILLIS = 24L * 3600 * 1000;

    static final long MAX_AHEAD_MILLIS = 5L * 60 * 1000;

    /** Where the hub is in a gateway's log, and how many queries it asks for a page. */
    private record Cursor(String instance, long lastSeq, int limit) {}

    /** A gateway's port: its label in the hub's figures and its base URL. */
    record Source(String label, String baseUrl) {}

    private final LongAdder sent = new LongAdder();
    private final StatementStore statements;
    private final ClientRefusal.Counts refusals;

    /** One per port of hub.clients at the most (16 entries of 32 ports): never more. */
    private final Map<String, Cursor> cursors = new HashMap<>();

    QueryFeedReader(StatementStore statements, ClientRefusal.Counts refusals) {
        this.statements = statements;
        this.refusals = refusals;
    }

    /** Queries dropped by gateways before the hub read them, since the hub started. */
    long missed() {
        return refusals.get(ClientRefusal.QUERIES_MISSED);
    }

    /**
     * Reads each source's new queries, {@link #MAX_AT_ONCE} sources at once, each at most {@link
     * #MAX_PAGES} pages, within {@link #ROUND_DEADLINE_MILLIS} and {@link #MAX_ROUND_BYTES} in all;
     * a source that fails or is left over is read again from the same place next round.
     */
    void readAll(HttpClient http, List<Source> sources, long nowMillis)
            throws InterruptedException {
        long deadline = System.nanoTime() + ROUND_DEADLINE_MILLIS * 1_000_000;
        long bytesLeft = MAX_ROUND_BYTES;
        List<Source> pending = new ArrayList<>(sources);
        for (int page = 0; page < MAX_PAGES && !pending.isEmpty(); page++) {
            List<Source> more = new ArrayList<>();
            for (int from = 0; from < pending.size(); from += MAX_AT_ONCE) {
                long waitMillis = (deadline - System.nanoTime()) / 1_000_000;
                if (waitMillis <= 0 || bytesLeft <= 0) {
                    return;
                }
                Map<Source, CompletableFuture<HttpResponse<byte[]>>> asked = new LinkedHashMap<>();
                for (Source s :
                        pending.subList(from, Math.min(pending.size(), from + MAX_AT_ONCE))) {
                    asked.put(s, ask(http, s));
                }
                await(asked.values(), waitMillis);
                for (Map.Entry<Source, CompletableFuture<HttpResponse<byte[]>>> e :
                        asked.entrySet()) {
                    byte[] body = answerOf(e.getKey(), e.getValue());
                    e.setValue(null); // each answer dropped once recorded
                    if (body != null) {
                        bytesLeft -= body.length;
                        if (record(e.getKey().label(), body, nowMillis)) {
                            more.add(e.getKey());
                        }
                    }
                }
            }
            pending = more;
        }
    }

    /** Requests sent to the client processes' query feeds so far. */
    long requestsSent() {
        return sent.sum();
    }

    private CompletableFuture<HttpResponse<byte[]>> ask(HttpClient http, Source source) {
        sent.increment();
        Cursor cursor = cursorOf(source.label());
        String path =
                QueriesEndpoint.PATH
                        + "?after="
                        + (cursor == null ? 0 : cursor.lastSeq())
                        + "&limit="
                        + (cursor == null ? QueriesEndpoint.MAX_LIMIT : cursor.limit());
        try {
            HttpRequest request =
                    HttpRequest.newBuilder(URI.create(source.baseUrl() + path))
                            .timeout(ClientGatherer.REQUEST_TIMEOUT)
                            .header("Accept", "application/json")
                            .GET()
                            .build();
            return http.sendAsync(request, LimitedBodySubscriber.handler(MAX_BODY_BYTES));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The body of a 200 answer; null otherwise, and an answer too large (over {@link
     * #MAX_BODY_BYTES}, or 413 from the gateway's own bound) has the source asked for a quarter as
     * many queries next time.
     */
    @Nullable
    private byte[] answerOf(Source source, CompletableFuture<HttpResponse<byte[]>> answer) {
        boolean tooLarge;
        if (!answer.isDone()) {
            return null;
        }
        try {
            HttpResponse<byte[]> response = answer.getNow(null);
            if (response != null && response.statusCode() == 200) {
                return response.body();
            }
            tooLarge = response != null && response.statusCode() == 413;
        } catch (RuntimeException e) {
            tooLarge = LimitedBodySubscriber.isTooLarge(e);
        }
        if (tooLarge) {
            refusals.count(ClientRefusal.ANSWER_TOO_LARGE);
            synchronized (this) {
                Cursor c = cursors.get(source.label());
                int limit = c == null ? QueriesEndpoint.MAX_LIMIT : c.limit();
                cursors.put(
                        source.label(),
                        new Cursor(
                                c == null ? "" : c.instance(),
                                c == null ? 0 : c.lastSeq(),
                                Math.max(MIN_LIMIT, limit / 4)));
            }
        }
        return null;
    }

    /**
     * Records one answer of {@code label}'s log; true when more queries wait after it. An answer
     * whose numbers do not hold together (the first above the last plus one, a query numbered out
     * of order or above the last) is refused whole.
     */
    boolean record(String label, byte[] body, long nowMillis) {
        JsonNode answer;
        try {
            answer = Json.mapper().readTree(body);
        } catch (IOException e) {
            return false;
        }
        JsonNode queries = answer == null ? null : answer.get("queries");
        String instance = text(answer, "instance");
        long firstSeq = answer == null ? -1 : answer.path("firstSeq").asLong(-1);
        long lastSeq = answer == null ? -1 : answer.path("lastSeq").asLong(-1);
        if (queries == null
                || !queries.isArray()
                || queries.size() > QueriesEndpoint.MAX_LIMIT
                || instance == null
                || firstSeq < 1
                || lastSeq < 0
                || firstSeq > lastSeq + 1
                || !numberedInOrder(queries, lastSeq)) {
            refusals.count(ClientRefusal.QUERIES_REFUSED);
            return false;
        }
        Cursor cursor = cursorOf(label);
        int limit = cursor == null ? QueriesEndpoint.MAX_LIMIT : cursor.limit();
        if (cursor != null && !cursor.instance().equals(instance) && cursor.lastSeq() > 0) {
            // the gateway started again: read its log from its start, from the next page on
            synchronized (this) {
                cursors.put(label, new Cursor(instance, 0, limit));
            }
            return true;
        }
        long last = cursor == null ? 0 : cursor.lastSeq();
        if (cursor != null && firstSeq - 1 > last) {
            refusals.add(
                    ClientRefusal.QUERIES_MISSED,
                    Math.min(StatementStore.MAX_LOGGED, firstSeq - 1 - last));
        }
        Set<String> newStatements = new HashSet<>();
        List<QuerySample> accepted = new ArrayList<>(queries.size());
        for (JsonNode q : queries) {
            long seq = q.path("seq").asLong();
            if (seq <= last) {
                continue; // read already: never counted twice
            }
            last = seq;
            QuerySample sample = sampleOf(q, label, statements.keepsLiterals());
            if (sample == null
                    || sample.startMillis() < nowMillis - MAX_AGE_MILLIS
                    || sample.endMillis() > nowMillis + MAX_AHEAD_MILLIS
                    || !admitted(sample.statementId(), newStatements)) {
                refusals.count(ClientRefusal.QUERIES_REFUSED);
                continue;
            }
            accepted.add(sample);
        }
        // the queries and how far the log was read go in together, so the hub's stores on disk
        // have both or neither: a hub that starts again reads on from there, counting none twice
        statements.addRead(accepted, label, new StatementsSnapshot.FeedPosition(instance, last));
        synchronized (this) {
            cursors.put(label, new Cursor(instance, last, limit));
        }
        return last < lastSeq;
    }

    /**
     * Whether a query of {@code statementId} may be counted: its statement is known, or one of the
     * first {@value #MAX_NEW_STATEMENTS} new ones of this page ({@code newStatements}).
     */
    private boolean admitted(String statementId, Set<String> newStatements) {
        if (statements.contains(statementId) || newStatements.contains(statementId)) {
            return true;
        }
        return newStatements.size() < MAX_NEW_STATEMENTS && newStatements.add(statementId);
    }

    /**
     * Where the hub stands in {@code label}'s log: as this reader last left it, else as the
     * statements read back from disk say (a hub that started again), else null (from the start).
     */
    private synchronized Cursor cursorOf(String label) {
        Cursor cursor = cursors.get(label);
        if (cursor == null) {
            StatementsSnapshot.FeedPosition read = statements.readPosition(label);
            if (read != null) {
                cursor = new Cursor(read.instance(), read.lastSeq(), QueriesEndpoint.MAX_LIMIT);
                cursors.put(label, cursor);
            }
        }
        return cursor;
    }

    /** Whether every query is numbered, above the one before it, and at most {@code lastSeq}. */
    private static boolean numberedInOrder(JsonNode queries, long lastSeq) {
        long before = 0;
        for (JsonNode q : queries) {
            JsonNode seq = q.get("seq");
            if (seq == null
                    || !seq.isIntegralNumber()
                    || !seq.canConvertToLong()
                    || seq.asLong() <= before
                    || seq.asLong() > lastSeq) {
                return false;
            }
            before = seq.asLong();
        }
        return true;
    }

    /**
     * The query {@code q} of a gateway's log, its literals kept only when {@code keepLiterals} (the
     * hub's {@code statements.keep-literals}) and the gateway marks it {@code literalsKept}.
     */
    @Nullable
    static QuerySample sampleOf(JsonNode q, String label, boolean keepLiterals) {
        if (!q.path("start").canConvertToLong() || !q.path("end").canConvertToLong()) {
            return null;
        }
        JsonNode parts = q.path("partsMs");
        return QuerySample.of(
                text(q, "statement"),
                label,
                text(q, "jobId"),
                text(q, "outcome"),
                q.path("start").asLong(),
                q.path("end").asLong(),
                number(q, "e2eMs"),
                number(q, "admittedAt"),
                number(q, "acceptedAt"),
                number(q, "runningAt"),
                number(q, "terminalAt"),
                number(parts, "admissionWait"),
                number(parts, "submit"),
                number(parts, "jobStartWait"),
                number(parts, "clusterRun"),
                number(parts, "resultFetch"),
                number(q, "requests"),
                number(q, "collectRetries"),
                keepLiterals
                        && q.path("literalsKept").isBoolean()
                        && q.path("literalsKept").asBoolean());
    }

    @Nullable
    private static String text(@Nullable JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    @Nullable
    private static Long number(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isIntegralNumber() && v.canConvertToLong() ? v.asLong() : null;
    }

    private static void await(
            Iterable<CompletableFuture<HttpResponse<byte[]>>> futures, long timeoutMillis)
            throws InterruptedException {
        List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
        futures.forEach(all::add);
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // each answer is read on its own
        } finally {
            all.forEach(f -> f.cancel(true));
        }
    }
}
