package io.flinkinsight.client.metrics;

import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A reporter that records every metric it is told about by logical scope and name, e.g.
 * "insight_client_pool_hits".
 */
public final class CapturingReporterFactory implements MetricReporterFactory {

    static final Map<String, Metric> METRICS = new ConcurrentHashMap<>();
    static final Map<String, Map<String, String>> VARIABLES = new ConcurrentHashMap<>();

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new MetricReporter() {
            @Override
            public void open(MetricConfig config) {}

            @Override
            public void close() {}

            @Override
            public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
                String scope = LogicalScopeProvider.castFrom(group).getLogicalScope(s -> s, '_');
                METRICS.put(scope + "_" + name, metric);
                VARIABLES.put(scope + "_" + name, group.getAllVariables());
            }

            @Override
            public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}
        };
    }
}
