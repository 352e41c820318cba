package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.series.SampleVisitor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/series?metric=&from=&to=&step=&limit=&<label>=<value>...}: the history of the
 * series of one metric whose labels equal the given ones. Points are {@code [tsMillis, value]};
 * non-finite values are the strings {@code "NaN"}, {@code "+Inf"}, {@code "-Inf"} (as in
 * Prometheus' API) so the JSON stays standard. With a step, each step-aligned bucket keeps its last
 * sample, stamped with the bucket start.
 */
public final class SeriesEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/series";

    static final int MAX_SERIES = 200;
    static final int MAX_POINTS_PER_SERIES = 2_000;

    private static final Set<String> RESERVED = Set.of("metric", "from", "to", "step", "limit");

    private final SeriesStore store;

    public SeriesEndpoint(SeriesStore store) {
        this.store = store;
    }

    /**
     * The response: the effective window and step, the series, and whether {@code limit} cut the
     * list.
     */
    public record Response(
            String metric,
            long from,
            long to,
            long step,
            int matched,
            boolean truncated,
            List<SeriesPoints> series) {}

    /** One series: its name, labels in key order, and points oldest first. */
    public record SeriesPoints(String name, Map<String, String> labels, List<Object[]> points) {}

    @Override
    public List<String> narrowedBy() {
        return List.of(
                "from and to (a shorter window)",
                "step (a coarser step)",
                "limit (fewer series)",
                "label filters such as job_id=<id>");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        String metric = query.require("metric").trim();
        long now = store.clock().millis();
        long from = TimeParameters.instant(query, "from", now, store.retentionStartMillis());
        long to = TimeParameters.instant(query, "to", now, now);
        if (from > to) {
            throw new BadRequestException("'from' must not be after 'to'");
        }
        long step =
                effectiveStep(
                        TimeParameters.duration(query, "step"),
                        to - from,
                        store.resolutionMillis(),
                        MAX_POINTS_PER_SERIES);
        int limit = (int) query.getLong("limit", MAX_SERIES, 1, MAX_SERIES);
        Map<String, String> labelFilter = labelFilter(query);

        List<SeriesKey> keys = store.keys(k -> k.name().equals(metric) && matches(k, labelFilter));
        keys.sort(Comparator.comparing((SeriesKey k) -> k.labelValues().toString()));
        List<SeriesPoints> out = new ArrayList<>(Math.min(limit, keys.size()));
        for (SeriesKey key : keys.subList(0, Math.min(limit, keys.size()))) {
            out.add(new SeriesPoints(key.name(), labels(key), points(key, from, to, step)));
        }
        return new Response(metric, from, to, step, keys.size(), keys.size() > limit, out);
    }

    private List<Object[]> points(SeriesKey key, long from, long to, long step) {
        List<Object[]> points = new ArrayList<>();
        readBuckets(
                store,
                key,
                from,
                to,
                step,
                (t, v) -> {
                    if (points.size() < MAX_POINTS_PER_SERIES) {
                        points.add(point(t, v));
                    }
                });
        return points;
    }

    /**
     * The step a window is read with: the requested one (0 for none), coarsened so the window has
     * fewer than {@code maxPoints} buckets; without a request, none unless the store's resolution
     * gives too many points.
     */
    static long effectiveStep(long requested, long span, long resolutionMillis, int maxPoints) {
        long minStep = span / (maxPoints - 1) + 1;
        if (requested > 0) {
            return Math.max(requested, minStep);
        }
        return span / resolutionMillis >= maxPoints ? minStep : 0;
    }

    /**
     * Visits the samples of {@code key} oldest first; with a step, each bucket's last one, stamped
     * with its start.
     */
    static void readBuckets(
            SeriesStore store,
            SeriesKey key,
            long from,
            long to,
            long step,
            SampleVisitor visitor) {
        if (step <= 0) {
            store.read(key, from, to, visitor);
            return;
        }
        long[] bucket = {Long.MIN_VALUE};
        double[] last = {0};
        store.read(
                key,
                from,
                to,
                (t, v) -> {
                    long b = Math.floorDiv(t, step) * step;
                    if (b != bucket[0] && bucket[0] != Long.MIN_VALUE) {
                        visitor.accept(bucket[0], last[0]);
                    }
                    bucket[0] = b;
                    last[0] = v;
                });
        if (bucket[0] != Long.MIN_VALUE) {
            visitor.accept(bucket[0], last[0]);
        }
    }

    static Object[] point(long t, double v) {
        return new Object[] {t, jsonValue(v)};
    }

    /**
     * A double as a JSON number, or Prometheus' string spelling for the values JSON has no number
     * for.
     */
    static Object jsonValue(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        return v;
    }

    private static Map<String, String> labelFilter(QueryParameters query)
            throws BadRequestException {
        Map<String, String> filter = new LinkedHashMap<>();
        for (String name : query.asMap().keySet()) {
            if (!RESERVED.contains(name)) {
                filter.put(name, query.require(name));
            }
        }
        return filter;
    }

    private static boolean matches(SeriesKey key, Map<String, String> filter) {
        for (Map.Entry<String, String> e : filter.entrySet()) {
            if (!e.getValue().equals(key.label(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    static Map<String, String> labels(SeriesKey key) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < key.labelNames().size(); i++) {
            labels.put(key.labelNames().get(i), key.labelValues().get(i));
        }
        return labels;
    }
}
