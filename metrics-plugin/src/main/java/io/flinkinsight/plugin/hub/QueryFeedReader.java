package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.api.QueriesEndpoint;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.LimitedBodySubscriber;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementStore;

import com.fasterxml.jackson.databind.JsonNode;

import javax.annotation.Nullable;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the queries the gateways' interactive clients ran from their {@code /api/v1/queries} log,
 * after the last one it read from each, into the hub's statements: so the hub's statements are
 * every gateway's together, each query counted once. A gateway that started again (another {@code
 * instance}) is read from its start; queries a gateway logged and dropped before the hub read them
 * are counted as missed ({@code flink_insight_hub_client_refused_total{reason="queries_missed"}}).
 *
 * <p>Bounded as the gatherer is: the gateways answering at once, {@value #MAX_BODY_BYTES} bytes an
 * answer, {@value #MAX_PAGES} pages of {@value QueriesEndpoint#MAX_LIMIT} queries a gateway a
 * round, each query's text normalized again and cut ({@link QuerySample#of}).
 */
final class QueryFeedReader {

    /** A page of 500 queries of texts of at most 2,048 characters, and room. */
    static final int MAX_BODY_BYTES = 2 * 1024 * 1024;

    /** Pages read from one gateway in one round, so one busy gateway cannot hold the round. */
    static final int MAX_PAGES = 4;

    /** The gateways whose cursor is kept, beyond which the least recent are forgotten. */
    static final int MAX_CURSORS = 16 * 32;

    private record Cursor(String instance, long lastSeq) {}

    /** A gateway's port: its label in the hub's figures and its base URL. */
    record Source(String label, String baseUrl) {}

    private final StatementStore statements;
    private final ClientRefusal.Counts refusals;
    private final Map<String, Cursor> cursors = new HashMap<>();
    private long read;

    QueryFeedReader(StatementStore statements, ClientRefusal.Counts refusals) {
        this.statements = statements;
        this.refusals = refusals;
    }

    /** Queries dropped by gateways before the hub read them, since the hub started. */
    long missed() {
        return refusals.get(ClientRefusal.QUERIES_MISSED);
    }

    /** Queries read from gateways since the hub started. */
    synchronized long read() {
        return read;
    }

    /**
     * Reads each source's new queries, the sources at once, each at most {@link #MAX_PAGES} pages,
     * waiting at most {@code timeoutMillis} for each page round; a source that fails is read again
     * from the same place next round.
     */
    void readAll(HttpClient http, List<Source> sources, long timeoutMillis)
            throws InterruptedException {
        List<Source> pending = new ArrayList<>(sources);
        for (int page = 0; page < MAX_PAGES && !pending.isEmpty(); page++) {
            Map<Source, CompletableFuture<HttpResponse<byte[]>>> asked = new HashMap<>();
            for (Source s : pending) {
                asked.put(s, ask(http, s));
            }
            await(asked.values(), timeoutMillis);
            List<Source> full = new ArrayList<>();
            for (Map.Entry<Source, CompletableFuture<HttpResponse<byte[]>>> e : asked.entrySet()) {
                byte[] body = bodyOf(e.getValue());
                if (body != null && record(e.getKey().label(), body)) {
                    full.add(e.getKey());
                }
            }
            pending = full;
        }
        synchronized (this) {
            if (cursors.size() > MAX_CURSORS) {
                cursors.keySet().retainAll(sources.stream().map(Source::label).toList());
            }
        }
    }

    private CompletableFuture<HttpResponse<byte[]>> ask(HttpClient http, Source source) {
        Cursor cursor;
        synchronized (this) {
            cursor = cursors.get(source.label());
        }
        String path =
                QueriesEndpoint.PATH
                        + "?after="
                        + (cursor == null ? 0 : cursor.lastSeq())
                        + "&limit="
                        + QueriesEndpoint.MAX_LIMIT;
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
     * Records one answer of {@code label}'s log; true when the answer was a full page (more may
     * wait).
     */
    boolean record(String label, byte[] body) {
        JsonNode answer;
        try {
            answer = Json.mapper().readTree(body);
        } catch (IOException e) {
            return false;
        }
        JsonNode queries = answer == null ? null : answer.get("queries");
        String instance = text(answer, "instance");
        if (queries == null || !queries.isArray() || instance == null) {
            return false;
        }
        long firstSeq = answer.path("firstSeq").asLong(1);
        Cursor cursor;
        synchronized (this) {
            cursor = cursors.get(label);
            if (cursor != null && !cursor.instance().equals(instance)) {
                cursor = null; // the gateway started again: its log numbers from 1
            }
        }
        long last = cursor == null ? 0 : cursor.lastSeq();
        if (cursor != null && firstSeq > last + 1) {
            refusals.add(ClientRefusal.QUERIES_MISSED, firstSeq - last - 1);
        }
        int count = 0;
        for (JsonNode q : queries) {
            if (++count > QueriesEndpoint.MAX_LIMIT) {
                break;
            }
            long seq = q.path("seq").asLong(-1);
            if (seq <= last) {
                continue; // read already, or out of order: never counted twice
            }
            QuerySample sample = sampleOf(q, label, statements.keepsLiterals());
            if (sample != null) {
                statements.add(sample);
                synchronized (this) {
                    read++;
                }
            }
            last = seq;
        }
        synchronized (this) {
            cursors.put(label, new Cursor(instance, last));
        }
        return count >= QueriesEndpoint.MAX_LIMIT;
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

    @Nullable
    private static byte[] bodyOf(CompletableFuture<HttpResponse<byte[]>> answer) {
        if (!answer.isDone() || answer.isCompletedExceptionally()) {
            return null;
        }
        HttpResponse<byte[]> response = answer.getNow(null);
        return response != null && response.statusCode() == 200 ? response.body() : null;
    }
}
