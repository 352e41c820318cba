package io.flinkinsight.plugin.metrics;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.runtime.InsightReporterBase;

import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;

import org.slf4j.LoggerFactory;

/**
 * Flink's entry point for metrics: indexes every metric Flink registers, for the scrape, the JSON
 * API and the history. Pull-based (no {@code Scheduled}); Flink calls it under its registry's
 * global lock, so it only indexes.
 */
public final class InsightMetricReporter extends InsightReporterBase implements MetricReporter {

    public InsightMetricReporter() {
        super(
                "metric",
                InsightOptions.USER_PREFIX,
                LoggerFactory.getLogger(InsightMetricReporter.class));
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        forward("indexing an added metric", r -> r.metricAdded(metric, metricName, group));
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        forward(
                "removing a metric from the index",
                r -> r.metricRemoved(metric, metricName, group));
    }
}
