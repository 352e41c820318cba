package io.flinkinsight.plugin.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Identity of one time series: the Prometheus-style metric name and its label pairs, in a stable
 * order. Created once when a metric is registered, so sampling never builds keys on the hot path.
 */
public record SeriesKey(String name, List<String> labelNames, List<String> labelValues) {

    /** The label that tells a summary's quantiles apart, as Prometheus names it. */
    public static final String QUANTILE_LABEL = "quantile";

    public SeriesKey {
        if (labelNames.size() != labelValues.size()) {
            throw new IllegalArgumentException("labelNames and labelValues differ in size");
        }
        labelNames = List.copyOf(labelNames);
        labelValues = List.copyOf(labelValues);
    }

    /**
     * The series of this one's {@code quantile}: the same name and labels, and {@value
     * #QUANTILE_LABEL} too.
     */
    public SeriesKey withQuantile(String quantile) {
        List<String> names = new ArrayList<>(labelNames);
        List<String> values = new ArrayList<>(labelValues);
        names.add(QUANTILE_LABEL);
        values.add(quantile);
        return new SeriesKey(name, names, values);
    }

    /** The value of label {@code name}, or null. */
    public String label(String name) {
        int i = labelNames.indexOf(name);
        return i < 0 ? null : labelValues.get(i);
    }

    /**
     * The key record and its two label lists, as {@code List.copyOf} makes them; the strings they
     * point to are not counted (Flink's metric-group strings, shared).
     */
    long estimatedBytes() {
        return 24 /* the key record */ + 2 * HeapSizes.immutableList(labelNames.size());
    }
}
