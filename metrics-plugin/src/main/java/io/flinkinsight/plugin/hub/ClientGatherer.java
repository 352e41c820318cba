package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.RateLimitedLog;
import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Gathers the interactive client's figures from the client processes listed in {@code hub.clients} into the hub's
 * history, so the hub's {@code /api/v1/client} and series show them. Client processes are not known to the
 * JobManager, hence the list. Each {@link HubRound}, on the hub's thread:
 * <ol>
 *   <li>an entry without a known client is scanned: {@code /api/v1/overview} on every port of its range at once
 *       (at most {@value #MAX_PROBES_AT_ONCE} at a time), keeping the ports whose plugin has role {@code client};
 *       known ports are kept until one stops answering, and a range is rescanned every {@value #RESCAN_EVERY_POLLS}
 *       rounds for clients started since;</li>
 *   <li>every known client answers {@code /api/v1/metrics?contains=insight_client_}, and each figure of the
 *       {@link ClientContract} is recorded under its own name and labels plus {@code client="host:port"}; a
 *       histogram as the history keeps it
 *       ({@code quantile="0.5"}, {@code quantile="0.99"}, {@code _count}).</li>
 * </ol>
 * Bounded: short connect and request timeouts, waits of at most {@link #ROUND_TIMEOUT} each, at most
 * {@value #MAX_METRICS_PER_CLIENT} metrics per client; the series store caps the series.
 */
final class ClientGatherer {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    /** A step (scan or fetch) stops waiting after this, whatever its requests still do. */
    static final Duration ROUND_TIMEOUT = Duration.ofSeconds(4);
    static final int MAX_BODY_BYTES = 2 * 1024 * 1024;
    static final int MAX_METRICS_PER_CLIENT = 1000;
    /** Ports probed at once while scanning, so a scan of many ranges never opens many sockets at once. */
    static final int MAX_PROBES_AT_ONCE = 64;
    /** Known clients keep their ranges from being rescanned; this often they are anyway, to find new ones. */
    static final int RESCAN_EVERY_POLLS = 30;
    static final String CLIENT_LABEL = "client";
    static final String OVERVIEW_PATH = "/api/v1/overview";
    static final String METRICS_PATH =
            "/api/v1/metrics?contains=" + ProcessRole.CLIENT_FIGURE_PREFIX + "&limit=" + MAX_METRICS_PER_CLIENT;

    private static final ClientContract CONTRACT = ClientContract.get();
    private static final Logger LOG = LoggerFactory.getLogger(ClientGatherer.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final List<TargetState> targets = new ArrayList<>();
    private final SeriesStore series;
    private final Clock clock;
    private final RateLimitedLog warnings;
    private HttpClient http; // created on the hub's thread at the first round

    ClientGatherer(List<ClientTarget> targets, SeriesStore series, Clock clock) {
        for (ClientTarget t : targets) {
            this.targets.add(new TargetState(t));
        }
        this.series = series;
        this.clock = clock;
        // Its own limit, so a client that is down does not silence the hub's warnings about Flink's REST API.
        this.warnings = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
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

    /** A request in flight to one port of one entry. */
    private record Request(TargetState state, int port, CompletableFuture<JsonNode> answer) {}

    /** Gathers in {@code round}; returns how many client processes answered. */
    int poll(HubRound round) throws InterruptedException {
        if (http == null) {
            http = HttpRestSource.newClient(CONNECT_TIMEOUT);
        }
        List<TargetState> toScan = new ArrayList<>();
        for (TargetState s : targets) {
            if (s.ports.isEmpty() || s.rescanDue || round.roundsSince(s.scannedInRound) >= RESCAN_EVERY_POLLS) {
                toScan.add(s);
            }
        }
        scan(toScan, round);

        long now = clock.millis();
        List<Request> fetches = new ArrayList<>();
        for (TargetState s : targets) {
            for (int port : s.ports) {
                fetches.add(send(s, port, METRICS_PATH));
            }
        }
        awaitAll(fetches);
        int answered = 0;
        for (Request r : fetches) {
            JsonNode answer = resultOf(r);
            if (answer != null) {
                record(series, answer, r.state.target.label(r.port), now);
                answered++;
            } else {
                lost(r);
            }
        }
        series.record(HubSeries.of(HubSeries.CLIENTS), now, answered);
        return answered;
    }

    private void scan(List<TargetState> toScan, HubRound round) throws InterruptedException {
        if (toScan.isEmpty()) {
            return;
        }
        List<Map.Entry<TargetState, Integer>> candidates = new ArrayList<>();
        for (TargetState s : toScan) {
            for (int port = s.target.firstPort(); port <= s.target.lastPort(); port++) {
                candidates.add(Map.entry(s, port));
            }
        }
        Map<TargetState, List<Integer>> found = new LinkedHashMap<>();
        toScan.forEach(s -> found.put(s, new ArrayList<>()));
        for (int from = 0; from < candidates.size(); from += MAX_PROBES_AT_ONCE) {
            List<Request> probes = new ArrayList<>();
            int to = Math.min(candidates.size(), from + MAX_PROBES_AT_ONCE);
            for (Map.Entry<TargetState, Integer> p : candidates.subList(from, to)) {
                probes.add(send(p.getKey(), p.getValue(), OVERVIEW_PATH));
            }
            awaitAll(probes);
            for (Request r : probes) {
                JsonNode overview = resultOf(r);
                if (overview != null && ProcessRole.CLIENT.lowerCaseName().equals(overview.path("role").asText(null))) {
                    found.get(r.state).add(r.port);
                }
            }
        }
        found.forEach((s, ports) -> {
            s.scannedInRound = round.number();
            s.rescanDue = false;
            for (int port : ports) {
                if (!s.ports.contains(port)) {
                    LOG.info("Flink Insight hub gathers the interactive client's figures from {}",
                            s.target.label(port));
                }
            }
            s.ports = List.copyOf(ports);
            if (ports.isEmpty()) {
                warnings.warn("Flink Insight hub: no client process answered at " + s.target
                        + " (hub.clients) with role client; scanning again next poll", null);
            }
        });
    }

    private void lost(Request r) {
        List<Integer> remaining = new ArrayList<>(r.state.ports);
        remaining.remove(Integer.valueOf(r.port));
        r.state.ports = List.copyOf(remaining);
        r.state.rescanDue = true;
        warnings.warn("Flink Insight hub: the client at " + r.state.target.label(r.port)
                + " stopped answering; its range " + r.state.target + " is scanned again next poll",
                causeOf(r));
    }

    private Request send(TargetState s, int port, String path) {
        HttpRestSource source = new HttpRestSource(s.target.baseUrl(port), http, REQUEST_TIMEOUT, MAX_BODY_BYTES);
        CompletableFuture<JsonNode> answer;
        try {
            answer = source.getAsync(path);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e); // e.g. a host the URL parser refuses
        }
        return new Request(s, port, answer);
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

    private static JsonNode resultOf(Request r) {
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

    /**
     * Records one {@code /api/v1/metrics} answer of the client at {@code clientLabel}: the client series among its
     * metrics, with their labels plus {@code client}. Returns how many samples were recorded.
     */
    static int record(SeriesStore series, JsonNode answer, String clientLabel, long now) {
        int recorded = 0;
        int seen = 0;
        for (JsonNode metric : answer.path("metrics")) {
            if (++seen > MAX_METRICS_PER_CLIENT) {
                break;
            }
            String name = metric.path("name").asText("");
            if (!CONTRACT.isFigure(name)) {
                continue; // not a figure of the contract (a client plugin that ignores 'contains' answers everything)
            }
            List<String> labelNames = new ArrayList<>();
            List<String> labelValues = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = metric.path("labels").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> label = it.next();
                if (!label.getKey().equals(CLIENT_LABEL) && !label.getKey().equals(SeriesKey.QUANTILE_LABEL)) {
                    labelNames.add(label.getKey());
                    labelValues.add(label.getValue().asText());
                }
            }
            labelNames.add(CLIENT_LABEL);
            labelValues.add(clientLabel);
            JsonNode histogram = metric.get("histogram");
            if (histogram != null && histogram.isObject()) {
                SeriesKey summary = new SeriesKey(name, labelNames, labelValues);
                SeriesKey p50 = summary.withQuantile(RegisteredMetric.HISTORY_P50);
                SeriesKey p99 = summary.withQuantile(RegisteredMetric.HISTORY_P99);
                recorded += recordValue(series, p50, histogram.get("p50"), now);
                recorded += recordValue(series, p99, histogram.get("p99"), now);
                recorded += recordValue(series, new SeriesKey(name + "_count", labelNames, labelValues),
                        histogram.get("count"), now);
            } else {
                recorded += recordValue(series, new SeriesKey(name, labelNames, labelValues), metric.get("value"), now);
            }
        }
        return recorded;
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
