package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.common.RateLimitedLog;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.LimitedBodySubscriber;
import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Gathers the interactive client's figures from the client processes listed in {@code hub.clients} into the hub's
 * history, so the hub's {@code /api/v1/client} and series show them. Client processes are not known to the
 * JobManager, hence the list. Each {@link HubRound}, on the hub's thread, every port of an entry without a known
 * client (and every {@value #RESCAN_EVERY_POLLS} rounds every port of every entry, for clients started since) and
 * every known client port is asked for {@code /api/v1/metrics?contains=insight_client_}: the path every access mode
 * answers to whoever reaches the port, as {@code /metrics}, so a gateway's plugin with its defaults (loopback)
 * answers a hub on another host. A port whose answer holds a figure of the {@link ClientContract} is a client; each
 * such figure is recorded under its own name and labels plus {@code client="host:port"}; a histogram as the history
 * keeps it ({@code quantile="0.5"}, {@code quantile="0.99"}, {@code _count}).
 *
 * <p>Bounded, since anything listening on a listed port may answer: at most {@value #MAX_AT_ONCE} requests at once
 * (each batch's answers are recorded and dropped before the next is sent), short connect and request timeouts,
 * waits of at most {@link #ROUND_TIMEOUT} a batch, at most {@value #MAX_BODY_BYTES} bytes an answer and
 * {@value #MAX_ROUND_BYTES} a round, at most {@value #MAX_LABELS} labels of bounded length a figure and
 * {@link #MAX_FIGURES_PER_CLIENT} series a client; what is refused is counted by reason ({@link #refusals()}).
 */
final class ClientGatherer {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    /** A batch stops waiting after this, whatever its requests still do. */
    static final Duration ROUND_TIMEOUT = Duration.ofSeconds(4);
    /** A client's figures are some 30 metrics of a few hundred bytes each: this leaves room for ten times that. */
    static final int MAX_BODY_BYTES = 128 * 1024;
    /** What one round reads in all; ports beyond it wait for the next round. */
    static final int MAX_ROUND_BYTES = 8 * 1024 * 1024;
    /** As many as a client process's port answers anyone (the path every access mode leaves open). */
    static final int MAX_METRICS_PER_CLIENT = (int) PortAccess.MAX_OPEN_METRICS;
    static final int MAX_LABELS = 16;
    static final int MAX_LABEL_NAME = 128;
    static final int MAX_LABEL_VALUE = 256;
    /** Requests at once, so a scan of many ranges never opens many sockets or holds many answers at once. */
    static final int MAX_AT_ONCE = 32;
    /** Known clients keep their ranges from being rescanned; this often they are anyway, to find new ones. */
    static final int RESCAN_EVERY_POLLS = 30;
    static final String CLIENT_LABEL = "client";
    static final String METRICS_PATH =
            "/api/v1/metrics?contains=" + ProcessRole.CLIENT_FIGURE_PREFIX + "&limit=" + MAX_METRICS_PER_CLIENT;

    private static final ClientContract CONTRACT = ClientContract.get();
    /** Figures (name and labels) a client may write: each of the contract's under two label sets. */
    static final int MAX_FIGURES_PER_CLIENT = 2 * CONTRACT.figures().size();
    /** Figures all clients together may write (a histogram is three series): bounded beside the hub's own. */
    static final int MAX_FIGURES = 2048;
    /** A client silent this many rounds gives its admitted figures back (its series age out of the history). */
    static final long FORGET_AFTER_ROUNDS = 2 * RESCAN_EVERY_POLLS;
    private static final Logger LOG = LoggerFactory.getLogger(ClientGatherer.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    /** Why part of a client's answer was not recorded. */
    enum Refusal {
        /** The answer was larger than {@link #MAX_BODY_BYTES}. */
        ANSWER_TOO_LARGE,
        /** The round had read {@link #MAX_ROUND_BYTES}; the port waits for the next round. */
        ROUND_BUDGET,
        /** A figure with too many labels, or a label name or value too long. */
        LABELS,
        /** Figures beyond {@link #MAX_FIGURES_PER_CLIENT} or {@link #MAX_FIGURES}, or metrics beyond {@link #MAX_METRICS_PER_CLIENT}. */
        TOO_MANY_SERIES;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final List<TargetState> targets = new ArrayList<>();
    private final SeriesStore series;
    private final Clock clock;
    private final RateLimitedLog warnings;
    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);
    /** The figures each client was let write so far. */
    private final SeriesAdmission admitted = new SeriesAdmission();
    private final boolean https;
    private final Supplier<SSLContext> tls;
    private final long startedAtMillis;
    private HttpClient http; // created on the hub's thread at the first round that can

    ClientGatherer(List<ClientTarget> targets, SeriesStore series, Clock clock) {
        this(targets, series, clock, false, () -> null);
    }

    /**
     * @param https whether the client processes' ports serve HTTPS (then never asked over plain HTTP)
     * @param tls the TLS context for them, asked each round until there is one (null: Flink's REST TLS unreadable)
     */
    ClientGatherer(List<ClientTarget> targets, SeriesStore series, Clock clock, boolean https,
            Supplier<SSLContext> tls) {
        this.https = https;
        this.tls = tls;
        this.startedAtMillis = clock.millis();
        for (ClientTarget t : targets) {
            this.targets.add(new TargetState(t));
        }
        this.series = series;
        this.clock = clock;
        // Its own limit, so a client that is down does not silence the hub's warnings about Flink's REST API.
        this.warnings = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new LongAdder());
        }
    }

    /** What the gatherer knows of one {@code hub.clients} entry. */
    private static final class TargetState {
        final ClientTarget target;
        /** Ports where a client answered, in range order. */
        List<Integer> ports = List.of();
        long scannedInRound;
        boolean rescanDue;

        TargetState(ClientTarget target) {
            this.target = target;
        }
    }

    /** A request in flight to one port of one entry; {@code scanning} when the port is not known as a client. */
    private record Request(TargetState state, int port, boolean scanning, CompletableFuture<byte[]> answer) {}

    /** What was refused so far, by reason, for {@code flink_insight_hub_client_refused_total}. */
    Map<String, Long> refusals() {
        Map<String, Long> counts = new LinkedHashMap<>();
        refusals.forEach((reason, count) -> counts.put(reason.label(), count.sum()));
        return counts;
    }

    /** Gathers in {@code round}; returns how many client processes answered. */
    int poll(HubRound round) throws InterruptedException {
        if (http == null) {
            SSLContext context = https ? tls.get() : null;
            if (https && context == null) {
                warnings.warn("Flink Insight hub: http.ssl.enabled asks for the client processes' figures over"
                        + " HTTPS, but Flink's REST TLS (security.ssl.rest.*) is not readable here; not gathering", null);
                return 0;
            }
            http = HttpRestSource.newClient(CONNECT_TIMEOUT, context);
        }
        admitted.forgetUnseen(round.number());
        List<Map.Entry<TargetState, Integer>> ports = new ArrayList<>();
        Map<TargetState, List<Integer>> found = new LinkedHashMap<>();
        for (TargetState s : targets) {
            boolean scan = s.ports.isEmpty() || s.rescanDue || round.roundsSince(s.scannedInRound) >= RESCAN_EVERY_POLLS;
            if (scan) {
                found.put(s, new ArrayList<>());
                for (int port = s.target.firstPort(); port <= s.target.lastPort(); port++) {
                    ports.add(Map.entry(s, port));
                }
            } else {
                s.ports.forEach(port -> ports.add(Map.entry(s, port)));
            }
        }
        long now = clock.millis();
        long bytesLeft = MAX_ROUND_BYTES;
        int answered = 0;
        for (int from = 0; from < ports.size(); from += MAX_AT_ONCE) {
            if (bytesLeft <= 0) {
                refusals.get(Refusal.ROUND_BUDGET).add(ports.size() - from);
                // An entry whose scan was cut short keeps what it knew and is scanned again next round.
                for (Map.Entry<TargetState, Integer> left : ports.subList(from, ports.size())) {
                    if (found.remove(left.getKey()) != null) {
                        left.getKey().rescanDue = true;
                    }
                }
                break;
            }
            List<Request> batch = new ArrayList<>();
            for (Map.Entry<TargetState, Integer> p : ports.subList(from, Math.min(ports.size(), from + MAX_AT_ONCE))) {
                batch.add(send(p.getKey(), p.getValue(), found.containsKey(p.getKey())));
            }
            awaitAll(batch);
            for (Request r : batch) {
                byte[] body = resultOf(r);
                JsonNode answer = body == null ? null : parse(body);
                bytesLeft -= body == null ? 0 : body.length;
                boolean client = answer != null && holdsAFigure(answer);
                if (client) {
                    record(series, answer, r.state.target.label(r.port), now, refusals, admitted);
                    answered++;
                    if (r.scanning) {
                        found.get(r.state).add(r.port);
                    }
                } else if (!r.scanning) {
                    lost(r);
                }
            }
        }
        found.forEach((s, clientPorts) -> scanned(s, clientPorts, round));
        series.record(HubSeries.of(HubSeries.CLIENTS), now, answered);
        return answered;
    }

    /** Remembers the client ports a scan of {@code s} found. */
    private void scanned(TargetState s, List<Integer> clientPorts, HubRound round) {
        s.scannedInRound = round.number();
        s.rescanDue = false;
        for (int port : clientPorts) {
            if (!s.ports.contains(port)) {
                LOG.info("Flink Insight hub gathers the interactive client's figures from {}", s.target.label(port));
            }
        }
        s.ports = List.copyOf(clientPorts);
        if (clientPorts.isEmpty()) {
            String what = "Flink Insight hub: no client process answered at " + s.target + " (hub.clients) with the"
                    + " interactive client's figures; scanning again next poll";
            if (clock.millis() - startedAtMillis < Hub.START_UP_GRACE_MILLIS) {
                LOG.debug(what); // gateways start after the JobManager, and report once a query ran
            } else {
                warnings.warn(what, null);
            }
        }
    }

    private static boolean holdsAFigure(JsonNode answer) {
        for (JsonNode metric : answer.path("metrics")) {
            if (CONTRACT.isFigure(metric.path("name").asText(""))) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode parse(byte[] body) {
        try {
            return Json.mapper().readTree(body);
        } catch (IOException e) {
            return null; // not JSON: not a client
        }
    }

    private void lost(Request r) {
        List<Integer> remaining = new ArrayList<>(r.state.ports);
        remaining.remove(Integer.valueOf(r.port));
        r.state.ports = List.copyOf(remaining);
        r.state.rescanDue = true;
        warnings.warn("Flink Insight hub: the client at " + r.state.target.label(r.port)
                + " stopped answering with its figures; its range " + r.state.target + " is scanned again next poll",
                causeOf(r));
    }

    private Request send(TargetState s, int port, boolean scanning) {
        CompletableFuture<byte[]> answer;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(s.target.baseUrl(https ? "https" : "http", port) + METRICS_PATH))
                    .timeout(REQUEST_TIMEOUT)
                    .header("Accept", "application/json")
                    .GET()
                    .build();
            answer = http.sendAsync(request, LimitedBodySubscriber.handler(MAX_BODY_BYTES)).thenApply(response -> {
                if (response.statusCode() / 100 != 2) {
                    throw new UncheckedIOException(new RestStatusException(METRICS_PATH, response.statusCode()));
                }
                return response.body();
            });
            answer.exceptionally(e -> {
                if (isTooLarge(e)) {
                    refusals.get(Refusal.ANSWER_TOO_LARGE).increment();
                }
                return null;
            });
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e); // e.g. a host the URL parser refuses
        }
        return new Request(s, port, scanning, answer);
    }

    private static boolean isTooLarge(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof LimitedBodySubscriber.BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /** Waits for all requests, at most {@link #ROUND_TIMEOUT}; the ones still running are cancelled. */
    private static void awaitAll(List<Request> requests) throws InterruptedException {
        if (requests.isEmpty()) {
            return;
        }
        CompletableFuture<?>[] all = requests.stream().map(Request::answer).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).get(ROUND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // each request's outcome is read on its own below
        } catch (InterruptedException e) {
            cancel(all);
            throw e;
        }
        cancel(all);
    }

    private static void cancel(CompletableFuture<?>[] futures) {
        for (CompletableFuture<?> f : futures) {
            f.cancel(true);
        }
    }

    private static byte[] resultOf(Request r) {
        return r.answer.isDone() && !r.answer.isCompletedExceptionally() ? r.answer.getNow(null) : null;
    }

    /** Why a request gave no answer (it was cancelled when it outlasted the round). */
    private static Throwable causeOf(Request r) {
        try {
            r.answer.getNow(null);
            return null;
        } catch (CancellationException e) {
            return new TimeoutException("no answer within " + ROUND_TIMEOUT.toMillis() + " ms");
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            return cause instanceof UncheckedIOException u ? u.getCause() : cause;
        }
    }

    /** {@link #record(SeriesStore, JsonNode, String, long, Map, SeriesAdmission)} for one answer alone (tests). */
    static int record(SeriesStore series, JsonNode answer, String clientLabel, long now) {
        Map<Refusal, LongAdder> ignored = new EnumMap<>(Refusal.class);
        for (Refusal r : Refusal.values()) {
            ignored.put(r, new LongAdder());
        }
        return record(series, answer, clientLabel, now, ignored, new SeriesAdmission());
    }

    /**
     * Which series the clients may write: a client keeps those it was let write, and new ones are let in while it
     * has fewer than {@link #MAX_FIGURES_PER_CLIENT} and all clients fewer than {@link #MAX_FIGURES}; so a client
     * that makes up new labels every round cannot push the hub's history out.
     */
    static final class SeriesAdmission {
        private final Map<String, Set<SeriesKey>> perClient = new HashMap<>();
        private final Map<String, Long> lastSeenRound = new HashMap<>();
        private long round;
        private int total;

        boolean admit(String clientLabel, SeriesKey key) {
            lastSeenRound.put(clientLabel, round);
            Set<SeriesKey> own = perClient.computeIfAbsent(clientLabel, c -> new HashSet<>());
            if (own.contains(key)) {
                return true;
            }
            if (own.size() >= MAX_FIGURES_PER_CLIENT || total >= MAX_FIGURES) {
                return false;
            }
            own.add(key);
            total++;
            return true;
        }

        /** A new round: clients that wrote nothing for {@link #FORGET_AFTER_ROUNDS} rounds give their places back. */
        void forgetUnseen(long newRound) {
            round = newRound;
            lastSeenRound.entrySet().removeIf(seen -> {
                if (newRound - seen.getValue() < FORGET_AFTER_ROUNDS) {
                    return false;
                }
                Set<SeriesKey> own = perClient.remove(seen.getKey());
                total -= own == null ? 0 : own.size();
                return true;
            });
        }
    }

    /**
     * Records one {@code /api/v1/metrics} answer of the client at {@code clientLabel}: the client series among its
     * metrics, with their labels plus {@code client}, within the bounds on labels and series. Returns how many
     * samples were recorded.
     */
    static int record(SeriesStore series, JsonNode answer, String clientLabel, long now,
            Map<Refusal, LongAdder> refusals, SeriesAdmission admission) {
        int recorded = 0;
        int seen = 0;
        for (JsonNode metric : answer.path("metrics")) {
            if (++seen > MAX_METRICS_PER_CLIENT) {
                refusals.get(Refusal.TOO_MANY_SERIES).increment();
                break;
            }
            String name = metric.path("name").asText("");
            if (!CONTRACT.isFigure(name)) {
                continue; // not a figure of the contract (a client plugin that ignores 'contains' answers everything)
            }
            List<String> labelNames = new ArrayList<>();
            List<String> labelValues = new ArrayList<>();
            if (!readLabels(metric.path("labels"), labelNames, labelValues)) {
                refusals.get(Refusal.LABELS).increment();
                continue;
            }
            labelNames.add(CLIENT_LABEL);
            labelValues.add(clientLabel);
            SeriesKey summary = new SeriesKey(name, labelNames, labelValues);
            if (!admission.admit(clientLabel, summary)) {
                refusals.get(Refusal.TOO_MANY_SERIES).increment();
                continue;
            }
            JsonNode histogram = metric.get("histogram");
            if (histogram != null && histogram.isObject()) {
                SeriesKey p50 = summary.withQuantile(RegisteredMetric.HISTORY_P50);
                SeriesKey p99 = summary.withQuantile(RegisteredMetric.HISTORY_P99);
                recorded += recordValue(series, p50, histogram.get("p50"), now);
                recorded += recordValue(series, p99, histogram.get("p99"), now);
                recorded += recordValue(series, new SeriesKey(name + "_count", labelNames, labelValues),
                        histogram.get("count"), now);
            } else {
                recorded += recordValue(series, summary, metric.get("value"), now);
            }
        }
        return recorded;
    }

    /** Reads a figure's labels but {@code client} and {@code quantile}; false when they break the bounds. */
    private static boolean readLabels(JsonNode labels, List<String> names, List<String> values) {
        if (labels.size() > MAX_LABELS) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            String value = label.getValue().asText();
            if (label.getKey().length() > MAX_LABEL_NAME || value.length() > MAX_LABEL_VALUE) {
                return false;
            }
            if (!label.getKey().equals(CLIENT_LABEL) && !label.getKey().equals(SeriesKey.QUANTILE_LABEL)) {
                names.add(label.getKey());
                values.add(value);
            }
        }
        return true;
    }

    /** Numbers as they are, booleans as 1/0 (as the sampler keeps them); strings, "NaN" and nulls are skipped. */
    private static int recordValue(SeriesStore series, SeriesKey key, JsonNode value, long now) {
        if (value == null) {
            return 0;
        }
        if (value.isNumber()) {
            series.record(key, now, value.asDouble());
            return 1;
        }
        if (value.isBoolean()) {
            series.record(key, now, value.asBoolean() ? 1 : 0);
            return 1;
        }
        return 0;
    }
}
