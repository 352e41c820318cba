package io.flinkinsight.plugin.hub;

import io.flinkinsight.common.RateLimitedLog;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.LimitedBodySubscriber;
import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.statement.StatementStore;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Gathers the interactive client's figures from the client processes listed in {@code hub.clients}
 * into the hub's history, so the hub's {@code /api/v1/client} and series show them. Client
 * processes are not known to the JobManager, hence the list. Each {@link HubRound}, on the hub's
 * thread, every port of an entry without a known client (and every {@value #RESCAN_EVERY_POLLS}
 * rounds every port of every entry, for clients started since) and every known client port is asked
 * for {@code /api/v1/metrics?contains=insight_client_}: the path every access mode answers to
 * whoever reaches the port, as {@code /metrics}, so a gateway's plugin with its defaults (loopback)
 * answers a hub on another host. A port whose answer holds a figure of the {@link ClientContract}
 * is a client; the {@link ClientAnswerRecorder} records its figures.
 *
 * <p>Bounded, since anything listening on a listed port may answer: at most {@value #MAX_AT_ONCE}
 * requests at once (each batch's answers are recorded and dropped before the next is sent), short
 * connect and request timeouts, waits of at most {@link #ROUND_TIMEOUT} a batch, at most {@value
 * #MAX_BODY_BYTES} bytes an answer and {@value #MAX_ROUND_BYTES} a round (and the recorder's bounds
 * on labels and series); what is refused is counted by reason ({@link #refusals()}).
 */
final class ClientGatherer {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    /** A batch stops waiting after this, whatever its requests still do. */
    static final Duration ROUND_TIMEOUT = Duration.ofSeconds(4);

    /**
     * A client's figures are some 30 metrics of a few hundred bytes each: this leaves room for ten
     * times that.
     */
    static final int MAX_BODY_BYTES = 128 * 1024;

    /** What one round reads in all; ports beyond it wait for the next round. */
    static final int MAX_ROUND_BYTES = 8 * 1024 * 1024;

    /**
     * Requests at once, so a scan of many ranges never opens many sockets or holds many answers at
     * once.
     */
    static final int MAX_AT_ONCE = 32;

    /**
     * Known clients keep their ranges from being rescanned; this often they are anyway, to find new
     * ones.
     */
    static final int RESCAN_EVERY_POLLS = 30;

    static final String METRICS_PATH =
            "/api/v1/metrics?contains="
                    + ProcessRole.CLIENT_FIGURE_PREFIX
                    + "&limit="
                    + ClientAnswerRecorder.MAX_METRICS_PER_CLIENT;

    private static final Logger LOG = LoggerFactory.getLogger(ClientGatherer.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final List<TargetState> targets = new ArrayList<>();
    private final LongAdder sent = new LongAdder();
    private final SeriesStore series;
    private final Clock clock;
    private final RateLimitedLog warnings;
    private final ClientRefusal.Counts refusals = new ClientRefusal.Counts();

    /** The figures each client was let write so far. */
    private final SeriesAdmission admitted = new SeriesAdmission();

    private final ClientAnswerRecorder recorder;
    private final QueryFeedReader queries;
    private final boolean https;
    private final Supplier<SSLContext> tls;
    private final long startedAtMillis;
    private HttpClient http; // created on the hub's thread at the first round that can

    /**
     * @param https whether the client processes' ports serve HTTPS (then never asked over plain
     *     HTTP)
     * @param tls the TLS context for them, asked each round until there is one (null: Flink's REST
     *     TLS unreadable)
     */
    ClientGatherer(
            List<ClientTarget> targets,
            SeriesStore series,
            StatementStore statements,
            Clock clock,
            boolean https,
            Supplier<SSLContext> tls) {
        this.https = https;
        this.tls = tls;
        this.startedAtMillis = clock.millis();
        for (ClientTarget t : targets) {
            this.targets.add(new TargetState(t));
        }
        this.series = series;
        this.clock = clock;
        // Its own limit, so a client that is down does not silence the hub's warnings about Flink's
        // REST API.
        this.warnings = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        this.recorder = new ClientAnswerRecorder(series, refusals, admitted);
        this.queries = new QueryFeedReader(statements, refusals);
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

    /**
     * A request in flight to one port of one entry; {@code scanning} when the port is not known as
     * a client.
     */
    private record Request(
            TargetState state, int port, boolean scanning, CompletableFuture<byte[]> answer) {}

    /** Requests sent to the client processes so far (their figures and their query feeds). */
    long requestsSent() {
        return sent.sum() + queries.requestsSent();
    }

    /** What was refused so far, by reason, for {@code flink_insight_hub_client_refused_total}. */
    Map<String, Long> refusals() {
        return refusals.snapshot();
    }

    /** Gathers in {@code round}; returns how many client processes answered. */
    int poll(HubRound round) throws InterruptedException {
        if (http == null) {
            SSLContext context = https ? tls.get() : null;
            if (https && context == null) {
                warnings.warn(
                        "Flink Insight hub: http.ssl.enabled asks for the client processes' figures over"
                                + " HTTPS, but Flink's REST TLS (security.ssl.rest.*) is not readable here; not gathering",
                        null);
                return 0;
            }
            http = HttpRestSource.newClient(CONNECT_TIMEOUT, context);
        }
        admitted.forgetUnseen(round.number());
        List<Map.Entry<TargetState, Integer>> ports = new ArrayList<>();
        Map<TargetState, List<Integer>> found = new LinkedHashMap<>();
        for (TargetState s : targets) {
            boolean scan =
                    s.ports.isEmpty()
                            || s.rescanDue
                            || round.roundsSince(s.scannedInRound) >= RESCAN_EVERY_POLLS;
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
        List<QueryFeedReader.Source> clients = new ArrayList<>();
        for (int from = 0; from < ports.size(); from += MAX_AT_ONCE) {
            if (bytesLeft <= 0) {
                refusals.add(ClientRefusal.ROUND_BUDGET, ports.size() - from);
                // An entry whose scan was cut short keeps what it knew and is scanned again next
                // round.
                for (Map.Entry<TargetState, Integer> left : ports.subList(from, ports.size())) {
                    if (found.remove(left.getKey()) != null) {
                        left.getKey().rescanDue = true;
                    }
                }
                break;
            }
            List<Request> batch = new ArrayList<>();
            for (Map.Entry<TargetState, Integer> p :
                    ports.subList(from, Math.min(ports.size(), from + MAX_AT_ONCE))) {
                batch.add(send(p.getKey(), p.getValue(), found.containsKey(p.getKey())));
            }
            awaitAll(batch);
            for (Request r : batch) {
                byte[] body = resultOf(r);
                JsonNode answer = body == null ? null : parse(body);
                bytesLeft -= body == null ? 0 : body.length;
                boolean client = answer != null && ClientAnswerRecorder.holdsAFigure(answer);
                if (client) {
                    recorder.record(answer, r.state.target.label(r.port), now);
                    answered++;
                    clients.add(
                            new QueryFeedReader.Source(
                                    r.state.target.label(r.port),
                                    r.state.target.baseUrl(https ? "https" : "http", r.port)));
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
        // their queries, for the statements of every gateway together
        queries.readAll(http, clients, now);
        return answered;
    }

    /** Remembers the client ports a scan of {@code s} found. */
    private void scanned(TargetState s, List<Integer> clientPorts, HubRound round) {
        s.scannedInRound = round.number();
        s.rescanDue = false;
        for (int port : clientPorts) {
            if (!s.ports.contains(port)) {
                LOG.info(
                        "Flink Insight hub gathers the interactive client's figures from {}",
                        s.target.label(port));
            }
        }
        s.ports = List.copyOf(clientPorts);
        if (clientPorts.isEmpty()) {
            String what =
                    "Flink Insight hub: no client process answered at "
                            + s.target
                            + " (hub.clients) with the"
                            + " interactive client's figures; scanning again next poll";
            if (clock.millis() - startedAtMillis < Hub.START_UP_GRACE_MILLIS) {
                LOG.debug(what); // gateways start after the JobManager, and report once a query ran
            } else {
                warnings.warn(what, null);
            }
        }
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
        warnings.warn(
                "Flink Insight hub: the client at "
                        + r.state.target.label(r.port)
                        + " stopped answering with its figures; its range "
                        + r.state.target
                        + " is scanned again next poll",
                causeOf(r));
    }

    private Request send(TargetState s, int port, boolean scanning) {
        sent.increment();
        CompletableFuture<byte[]> answer;
        try {
            HttpRequest request =
                    HttpRequest.newBuilder(
                                    URI.create(
                                            s.target.baseUrl(https ? "https" : "http", port)
                                                    + METRICS_PATH))
                            .timeout(REQUEST_TIMEOUT)
                            .header("Accept", "application/json")
                            .GET()
                            .build();
            answer =
                    http.sendAsync(request, LimitedBodySubscriber.handler(MAX_BODY_BYTES))
                            .thenApply(
                                    response -> {
                                        if (response.statusCode() / 100 != 2) {
                                            throw new UncheckedIOException(
                                                    new RestStatusException(
                                                            METRICS_PATH, response.statusCode()));
                                        }
                                        return response.body();
                                    });
            answer.exceptionally(
                    e -> {
                        if (LimitedBodySubscriber.isTooLarge(e)) {
                            refusals.count(ClientRefusal.ANSWER_TOO_LARGE);
                        }
                        return null;
                    });
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e); // e.g. a host the URL parser refuses
        }
        return new Request(s, port, scanning, answer);
    }

    /**
     * Waits for all requests, at most {@link #ROUND_TIMEOUT}; the ones still running are cancelled.
     */
    private static void awaitAll(List<Request> requests) throws InterruptedException {
        if (requests.isEmpty()) {
            return;
        }
        CompletableFuture<?>[] all =
                requests.stream().map(Request::answer).toArray(CompletableFuture[]::new);
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
        return r.answer.isDone() && !r.answer.isCompletedExceptionally()
                ? r.answer.getNow(null)
                : null;
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
}
