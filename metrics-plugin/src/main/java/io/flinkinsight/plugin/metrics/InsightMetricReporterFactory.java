package io.flinkinsight.plugin.metrics;

import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.Properties;

/** Creates the metric reporter: {@code metrics.reporter.insight.factory.class} names this class. */
public final class InsightMetricReporterFactory implements MetricReporterFactory {

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new InsightMetricReporter();
    }
}
