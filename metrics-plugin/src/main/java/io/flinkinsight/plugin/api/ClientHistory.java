package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.ClientContract.Figure;
import io.flinkinsight.plugin.index.ClientContract.Ratio;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * The history of the client's figures over one window, read bucket by bucket, for {@link
 * ClientEndpoint}'s {@code history}: gauges summed, ratios per interval, histograms' quantiles the
 * maximum over series; at most {@value ClientEndpoint#MAX_HISTORY_POINTS} points per series.
 */
record ClientHistory(ClientSeries series, long from, long to, long step) {

    private static final ClientContract CONTRACT = ClientContract.get();

    void put(Map<String, Object> section, Figure f) {
        Ratio ratio = CONTRACT.ratio(f);
        switch (f.kind()) {
            case COUNTER -> {} // charted through the ratios
            case GAUGE ->
                    section.put(
                            f.name(),
                            ratio != null
                                    ? perInterval(ratio)
                                    : points(combined(series.values(f), Double::sum)));
            case HISTOGRAM -> {
                Map<String, Object> quantiles = new LinkedHashMap<>();
                quantiles.put(
                        "p50",
                        points(
                                combined(
                                        series.quantile(f, RegisteredMetric.HISTORY_P50),
                                        Math::max)));
                quantiles.put(
                        "p99",
                        points(
                                combined(
                                        series.quantile(f, RegisteredMetric.HISTORY_P99),
                                        Math::max)));
                if (ratio == null) {
                    section.put(f.name(), quantiles);
                } else {
                    section.put(f.name(), perInterval(ratio));
                    section.put(f.name() + ClientEndpoint.QUANTILES_SUFFIX, quantiles);
                }
            }
        }
    }

    /** Per bucket, the finite values of {@code keys} combined ({@code sum} or {@code max}). */
    private TreeMap<Long, Double> combined(List<SeriesKey> keys, BinaryOperator<Double> combine) {
        TreeMap<Long, Double> out = new TreeMap<>();
        for (SeriesKey k : keys) {
            SeriesEndpoint.readBuckets(
                    series.store(),
                    k,
                    from,
                    to,
                    step,
                    (t, v) -> {
                        if (Double.isFinite(v)) {
                            out.merge(t, v, combine);
                        }
                    });
        }
        return out;
    }

    /** Summed over the figures' series; a bucket counts only where every figure has a value. */
    private TreeMap<Long, Double> summed(List<Figure> figures) {
        TreeMap<Long, Double> total = null;
        for (Figure f : figures) {
            TreeMap<Long, Double> one = combined(series.values(f), Double::sum);
            if (total == null) {
                total = one;
            } else {
                total.keySet().retainAll(one.keySet());
                total.replaceAll((t, v) -> v + one.get(t));
            }
        }
        return total == null ? new TreeMap<>() : total;
    }

    /**
     * Δpart / Δwhole between consecutive buckets where both have a value; null where the whole did
     * not grow or a counter restarted (a negative Δ), so a quiet minute shows a gap instead of a
     * made-up 0 %.
     */
    private List<Object[]> perInterval(Ratio ratio) {
        TreeMap<Long, Double> part = summed(ratio.part());
        TreeMap<Long, Double> whole = summed(ratio.whole());
        List<Object[]> out = new ArrayList<>();
        Long previous = null;
        for (Map.Entry<Long, Double> e : part.entrySet()) {
            Double w = whole.get(e.getKey());
            if (w == null) {
                continue;
            }
            if (previous != null) {
                double dp = e.getValue() - part.get(previous);
                double dw = w - whole.get(previous);
                out.add(new Object[] {e.getKey(), dp >= 0 && dw > 0 ? dp / dw : null});
            }
            previous = e.getKey();
        }
        return capped(out);
    }

    private static List<Object[]> points(TreeMap<Long, Double> values) {
        List<Object[]> out = new ArrayList<>(values.size());
        values.forEach((t, v) -> out.add(new Object[] {t, v}));
        return capped(out);
    }

    /**
     * The newest {@value ClientEndpoint#MAX_HISTORY_POINTS} points (buckets of a coarsened step
     * never exceed it).
     */
    private static List<Object[]> capped(List<Object[]> points) {
        return points.size() <= ClientEndpoint.MAX_HISTORY_POINTS
                ? points
                : new ArrayList<>(
                        points.subList(
                                points.size() - ClientEndpoint.MAX_HISTORY_POINTS, points.size()));
    }
}
