package io.flinkinsight.plugin.store.api;

import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code GET /api/v1/client}: the client path's figures (pool, channels, collect retries, query latency), read
 * from the newest samples of series whose name contains {@value #PREFIX} followed by a figure name, e.g.
 * {@code flink_..._insight_client_pool_hits}. Counters and gauges of several series (processes) are summed;
 * latency quantiles come from a {@code quantile} label ("0.5", "0.99") or a {@code _p50}/{@code _p99} name
 * suffix and take the maximum. Until the interactive client emits them, every figure is 0 or null.
 */
public final class ClientEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/client";
    public static final String PREFIX = "insight_client_";

    static final String HINT = "install the interactive-client jar in the SQL Gateway's lib/ and set"
            + " execution.target: remote-interactive";

    private final SeriesStore store;

    public ClientEndpoint(SeriesStore store) {
        this.store = store;
    }

    @Override
    public Map<String, Object> handle(QueryParameters query) {
        Figures f = new Figures(store);
        double requests = f.sum("pool_requests");
        double hits = f.sum("pool_hits");
        double misses = f.sum("pool_misses");
        double opened = f.sum("channels_opened");
        double reused = f.sum("channels_reused");
        double collectRequests = f.sum("collect_requests");
        double retries = f.sum("collect_retries");
        double submitted = f.sum("queries_submitted");

        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("requests", requests);
        pool.put("hits", hits);
        pool.put("misses", misses);
        pool.put("hitRate", ratio(hits, hits + misses));
        pool.put("size", f.sum("pool_size"));
        pool.put("evictions", f.sum("pool_evictions"));

        Map<String, Object> channels = new LinkedHashMap<>();
        channels.put("opened", opened);
        channels.put("reused", reused);
        channels.put("reuseRatio", ratio(reused, opened + reused));
        channels.put("inFlight", f.sum("channels_in_flight"));
        channels.put("requestLatencyMs", f.quantiles("channel_request_latency_ms"));

        Map<String, Object> collect = new LinkedHashMap<>();
        collect.put("requests", collectRequests);
        collect.put("retries", retries);
        collect.put("retriesPerQuery", ratio(retries, submitted));

        Map<String, Object> breakdown = new LinkedHashMap<>();
        breakdown.put("submit", f.quantile("query_submit_ms", "0.5", "p50"));
        breakdown.put("clusterRun", f.quantile("query_cluster_run_ms", "0.5", "p50"));
        breakdown.put("resultFetch", f.quantile("query_result_fetch_ms", "0.5", "p50"));

        Map<String, Object> queries = new LinkedHashMap<>();
        queries.put("submitted", submitted);
        queries.put("succeeded", f.sum("queries_succeeded"));
        queries.put("failed", f.sum("queries_failed"));
        queries.put("e2eLatencyMs", f.quantiles("query_e2e_latency_ms"));
        queries.put("breakdownMs", breakdown);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("available", f.any);
        out.put("hint", f.any ? null : HINT);
        out.put("pool", pool);
        out.put("channels", channels);
        out.put("collect", collect);
        out.put("queries", queries);
        return out;
    }

    private static Object ratio(double part, double whole) {
        return whole > 0 ? part / whole : null;
    }

    /** The newest values of the client series, looked up by figure name. */
    private static final class Figures {
        private final SeriesStore store;
        private final List<SeriesKey> keys;
        final boolean any;

        Figures(SeriesStore store) {
            this.store = store;
            this.keys = store.keys(k -> k.name().contains(PREFIX));
            this.any = !keys.isEmpty();
        }

        double sum(String figure) {
            double total = 0;
            for (SeriesKey k : keys) {
                if (figureOf(k).equals(figure)) {
                    OptionalDouble v = store.latest(k);
                    if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                        total += v.getAsDouble();
                    }
                }
            }
            return total;
        }

        Map<String, Object> quantiles(String figure) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("p50", quantile(figure, "0.5", "p50"));
            q.put("p99", quantile(figure, "0.99", "p99"));
            return q;
        }

        Double quantile(String figure, String quantileLabel, String suffix) {
            Double max = null;
            for (SeriesKey k : keys) {
                String f = figureOf(k);
                boolean byLabel = f.equals(figure) && quantileLabel.equals(k.label("quantile"));
                boolean bySuffix = f.equals(figure + "_" + suffix);
                if (byLabel || bySuffix) {
                    OptionalDouble v = store.latest(k);
                    if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                        max = max == null ? v.getAsDouble() : Math.max(max, v.getAsDouble());
                    }
                }
            }
            return max;
        }

        private static String figureOf(SeriesKey key) {
            String name = key.name();
            return name.substring(name.lastIndexOf(PREFIX) + PREFIX.length());
        }
    }
}
