package io.flinkinsight.plugin.store;

import java.util.List;

/**
 * Identity of one time series: the Prometheus-style metric name and its label pairs, in a stable order.
 * Created once when a metric is registered, so sampling never builds keys on the hot path.
 */
public record SeriesKey(String name, List<String> labelNames, List<String> labelValues) {

    public SeriesKey {
        if (labelNames.size() != labelValues.size()) {
            throw new IllegalArgumentException("labelNames and labelValues differ in size");
        }
        labelNames = List.copyOf(labelNames);
        labelValues = List.copyOf(labelValues);
    }

    /** The value of label {@code name}, or null. */
    public String label(String name) {
        int i = labelNames.indexOf(name);
        return i < 0 ? null : labelValues.get(i);
    }
}
