package io.flinkinsight.plugin.metrics;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * Flink's entry point for metrics: indexes every metric Flink registers, for the scrape, the JSON API and the
 * history. Pull-based (no {@code Scheduled}); Flink calls it under its registry's global lock, so it only indexes,
 * and nothing it does throws into Flink ({@link FlinkBoundary}).
 */
public final class InsightMetricReporter implements MetricReporter {

    private static final Logger LOG = LoggerFactory.getLogger(InsightMetricReporter.class);
    private static final FlinkBoundary FLINK_CALLS = new FlinkBoundary(LOG, Clock.systemUTC());

    private volatile InsightRuntime runtime;

    /** Not guarded: an invalid option must fail here, so that Flink logs it and leaves this reporter out. */
    @Override
    public void open(MetricConfig config) {
        runtime = SharedRuntime.acquire(config, InsightOptions.USER_PREFIX);
    }

    @Override
    public void close() {
        InsightRuntime r = runtime;
        runtime = null;
        FLINK_CALLS.run("closing the metric reporter", () -> SharedRuntime.release(r));
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        InsightRuntime r = runtime;
        if (r != null) {
            FLINK_CALLS.run("indexing an added metric", () -> r.metricAdded(metric, metricName, group));
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        InsightRuntime r = runtime;
        if (r != null) {
            FLINK_CALLS.run("removing a metric from the index", () -> r.metricRemoved(metric, metricName, group));
        }
    }
}
