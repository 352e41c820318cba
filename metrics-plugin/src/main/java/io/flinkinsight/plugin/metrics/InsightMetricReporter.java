package io.flinkinsight.plugin.metrics;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;

/**
 * Flink's entry point for metrics: indexes every metric Flink registers, for the scrape, the JSON API and the
 * history. Pull-based (no {@code Scheduled}); Flink calls it under its registry's global lock, so it only indexes.
 */
public final class InsightMetricReporter implements MetricReporter {

    private volatile InsightRuntime runtime;

    @Override
    public void open(MetricConfig config) {
        runtime = SharedRuntime.acquire(config, InsightOptions.USER_PREFIX);
    }

    @Override
    public void close() {
        InsightRuntime r = runtime;
        runtime = null;
        SharedRuntime.release(r);
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.metricAdded(metric, metricName, group);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.metricRemoved(metric, metricName, group);
        }
    }
}
