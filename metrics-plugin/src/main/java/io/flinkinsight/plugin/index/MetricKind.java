package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.Metric;

/** The four Flink metric kinds the plugin understands, and how each is exposed. */
public enum MetricKind {
    COUNTER("counter"),
    GAUGE("gauge"),
    /** Exposed as a gauge of its per-second rate, as Flink's PrometheusReporter does. */
    METER("gauge"),
    /**
     * Exposed as a summary: quantiles and {@code _count}, as Flink's reporter does (no running sum
     * exists).
     */
    HISTOGRAM("summary");

    private final String prometheusType;

    MetricKind(String prometheusType) {
        this.prometheusType = prometheusType;
    }

    /** The {@code # TYPE} in Prometheus text 0.0.4. */
    public String prometheusType() {
        return prometheusType;
    }

    /** The kind of {@code metric}, or null for a metric type this plugin cannot expose. */
    public static MetricKind of(Metric metric) {
        // instanceof first: custom Metric implementations may not implement getMetricType().
        if (metric instanceof Counter) {
            return COUNTER;
        }
        if (metric instanceof Gauge) {
            return GAUGE;
        }
        if (metric instanceof Meter) {
            return METER;
        }
        if (metric instanceof Histogram) {
            return HISTOGRAM;
        }
        return null;
    }
}
