package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code GET /api/v1/client}: the interactive client's figures (pool, channels, collect retries, query latency), read
 * from the newest samples of series whose name contains {@value #PREFIX} followed by a figure name: the client
 * registers group {@code insight_client} with groups {@code pool}, {@code channels}, {@code collect} and {@code
 * queries}, so a figure is e.g. {@code pool_hits} of {@code flink_insight_client_pool_hits}. Figure names match
 * whatever their case and underscores, and with or without a {@code _total} suffix.
 *
 * <p>Counters and gauges of several series (client processes, or hosts) are summed; ratios are computed from the
 * summed counters. Latency quantiles come from the {@code quantile} label ("0.5", "0.99") the history gives a
 * histogram, or from a {@code _p50}/{@code _p99} name suffix, and take the maximum over series. Samples older than
 * the freshness bound are left out, so a client process that went away stops counting; until one reports, every
 * figure is 0 or null.
 */
public final class ClientEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/client";
    public static final String PREFIX = ProcessRole.CLIENT_FIGURE_PREFIX;

    static final String HINT = "install the interactive-client jar in the SQL Gateway's lib/ and set"
            + " execution.target: remote-interactive";

    /** Freshness is at least this: a hub round can take a while when Flink's REST API is slow. */
    static final Duration MIN_FRESHNESS = Duration.ofMinutes(1);

    private static final String P50 = "0.5";
    private static final String P99 = "0.99";

    private final SeriesStore store;
    private final long freshnessMillis;

    /** Reads every sample inside the retention, however old. */
    public ClientEndpoint(SeriesStore store) {
        this(store, Duration.ofMillis(Long.MAX_VALUE));
    }

    /** Reads samples no older than {@code freshness}. */
    public ClientEndpoint(SeriesStore store, Duration freshness) {
        this.store = store;
        this.freshnessMillis = freshness.toMillis();
    }

    /**
     * How old a client's newest sample may be and still count: three rounds of whichever writes it less often, the
     * sampler (in the client process) or the hub (which gathers from client processes), and at least a minute.
     */
    public static Duration freshness(Duration resolution, Duration hubPollInterval) {
        Duration slowest = resolution.compareTo(hubPollInterval) >= 0 ? resolution : hubPollInterval;
        Duration threeRounds = slowest.multipliedBy(3);
        return threeRounds.compareTo(MIN_FRESHNESS) >= 0 ? threeRounds : MIN_FRESHNESS;
    }

    @Override
    public Map<String, Object> handle(QueryParameters query) {
        long now = store.clock().millis();
        long notBefore = freshnessMillis >= now ? Long.MIN_VALUE : now - freshnessMillis;
        Figures f = new Figures(store, notBefore);
        double hits = f.sum("pool_hits");
        double misses = f.sum("pool_misses");
        double opened = f.sum("channels_opened");
        double reused = f.sum("channels_reused");
        double retries = f.sum("collect_retries");
        double submitted = f.sum("queries_submitted");

        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("requests", f.sum("pool_requests"));
        pool.put("hits", hits);
        pool.put("misses", misses);
        pool.put("hitRate", ratio(hits, hits + misses));
        pool.put("size", f.sum("pool_size"));
        pool.put("evictions", f.sum("pool_evictions"));

        Map<String, Object> channels = new LinkedHashMap<>();
        channels.put("opened", opened);
        channels.put("reused", reused);
        channels.put("reuseRatio", ratio(reused, opened + reused));
        channels.put("inFlight", f.sum("channels_inFlight"));
        channels.put("requestLatencyMs", f.quantiles("channels_requestLatencyMs"));
        // REST requests to the JobManager per ended query: the histogram's median, else the counters' quotient
        double queryRequests = f.sum("channels_queryRequests");
        Map<String, Object> requestsPerQuery = f.quantiles("channels_requestsPerQuery");
        Object medianRequests = requestsPerQuery.get("p50");
        channels.put("queryRequests", queryRequests);
        channels.put("requestsPerQuery", medianRequests != null
                ? medianRequests
                : ratio(queryRequests, f.sum("queries_succeeded") + f.sum("queries_failed")));
        channels.put("requestsPerQueryQuantiles", requestsPerQuery);

        // The histogram's median is the client's own per-query count; the counters' quotient is the fallback
        // (it also counts the polls of queries still running).
        Map<String, Object> retriesPerQuery = f.quantiles("collect_retriesPerQuery");
        Object medianRetries = retriesPerQuery.get("p50");
        Map<String, Object> collect = new LinkedHashMap<>();
        collect.put("requests", f.sum("collect_requests"));
        collect.put("retries", retries);
        collect.put("retriesPerQuery", medianRetries != null ? medianRetries : ratio(retries, submitted));
        collect.put("retriesPerQueryQuantiles", retriesPerQuery);

        Map<String, Object> queries = new LinkedHashMap<>();
        queries.put("submitted", submitted);
        queries.put("succeeded", f.sum("queries_succeeded"));
        queries.put("failed", f.sum("queries_failed"));
        queries.put("waiting", f.sum("queries_waiting"));
        queries.put("e2eLatencyMs", f.quantiles("queries_e2eLatencyMs"));
        queries.put("admissionWaitMs", f.quantiles("queries_admissionWaitMs"));
        queries.put("breakdownMs", breakdown(f, P50, "p50"));
        queries.put("breakdownP99Ms", breakdown(f, P99, "p99"));

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("available", f.any);
        out.put("hint", f.any ? null : HINT);
        out.put("pool", pool);
        out.put("channels", channels);
        out.put("collect", collect);
        out.put("queries", queries);
        return out;
    }

    /** The phases of a query's end-to-end latency at one quantile (see the interactive client's QueryRecord). */
    private static Map<String, Object> breakdown(Figures f, String quantile, String suffix) {
        Map<String, Object> phases = new LinkedHashMap<>();
        phases.put("submit", f.quantile("queries_submitMs", quantile, suffix));
        phases.put("jobStartWait", f.quantile("queries_jobStartWaitMs", quantile, suffix));
        phases.put("clusterRun", f.quantile("queries_clusterRunMs", quantile, suffix));
        phases.put("resultFetch", f.quantile("queries_resultFetchMs", quantile, suffix));
        return phases;
    }

    private static Object ratio(double part, double whole) {
        return whole > 0 ? part / whole : null;
    }

    /** The client series, grouped by their canonical figure name, and their fresh values. */
    private static final class Figures {
        private final SeriesStore store;
        private final long notBefore;
        private final Map<String, List<SeriesKey>> byFigure = new HashMap<>();
        final boolean any;

        Figures(SeriesStore store, long notBefore) {
            this.store = store;
            this.notBefore = notBefore;
            List<SeriesKey> keys = store.keys(k -> k.name().contains(PREFIX));
            for (SeriesKey k : keys) {
                byFigure.computeIfAbsent(canonical(figureOf(k.name())), x -> new ArrayList<>()).add(k);
            }
            this.any = !keys.isEmpty();
        }

        double sum(String figure) {
            double total = 0;
            for (SeriesKey k : byFigure.getOrDefault(canonical(figure), List.of())) {
                if (k.label("quantile") == null) {
                    OptionalDouble v = store.latest(k, notBefore);
                    if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                        total += v.getAsDouble();
                    }
                }
            }
            return total;
        }

        Map<String, Object> quantiles(String figure) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("p50", quantile(figure, P50, "p50"));
            q.put("p99", quantile(figure, P99, "p99"));
            return q;
        }

        Double quantile(String figure, String quantileLabel, String suffix) {
            Double max = null;
            List<SeriesKey> candidates = new ArrayList<>();
            for (SeriesKey k : byFigure.getOrDefault(canonical(figure), List.of())) {
                if (quantileLabel.equals(k.label("quantile"))) {
                    candidates.add(k);
                }
            }
            candidates.addAll(byFigure.getOrDefault(canonical(figure + "_" + suffix), List.of()));
            for (SeriesKey k : candidates) {
                OptionalDouble v = store.latest(k, notBefore);
                if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                    max = max == null ? v.getAsDouble() : Math.max(max, v.getAsDouble());
                }
            }
            return max;
        }
    }

    /** The figure a client series name carries, e.g. {@code pool_hits} of {@code flink_insight_client_pool_hits}. */
    static String figureOf(String seriesName) {
        String figure = seriesName.substring(seriesName.lastIndexOf(PREFIX) + PREFIX.length());
        return figure.endsWith("_total") ? figure.substring(0, figure.length() - "_total".length()) : figure;
    }

    /** {@code channels_inFlight}, {@code channels_in_flight} and {@code channelsInflight} are one figure. */
    static String canonical(String figure) {
        return figure.replace("_", "").toLowerCase(Locale.ROOT);
    }
}
