package io.flinkinsight.plugin.metrics;

import io.flinkinsight.plugin.JavaVersionCheck;

import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.Properties;

/**
 * Creates the metric reporter: {@code metrics.reporter.insight.factory.class} names this class.
 * Built for Java 8, since Flink loads it on any JVM (see {@link JavaVersionCheck}).
 */
public final class InsightMetricReporterFactory implements MetricReporterFactory {

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        JavaVersionCheck.requireSupportedJava("metrics.reporter.insight");
        return new InsightMetricReporter();
    }
}
