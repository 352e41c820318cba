package io.flinkinsight.plugin;

import io.flinkinsight.plugin.events.InsightEventReporterFactory;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.traces.InsightTraceReporterFactory;

import org.apache.flink.events.reporter.EventReporterFactory;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.traces.reporter.TraceReporterFactory;

import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

class FactoriesTest {

    @Test
    void allThreeFactoriesAreFoundThroughTheirServicesFiles() {
        assertThat(
                        ServiceLoader.load(MetricReporterFactory.class).stream()
                                .map(ServiceLoader.Provider::type))
                .contains(InsightMetricReporterFactory.class);
        assertThat(
                        ServiceLoader.load(TraceReporterFactory.class).stream()
                                .map(ServiceLoader.Provider::type))
                .contains(InsightTraceReporterFactory.class);
        assertThat(
                        ServiceLoader.load(EventReporterFactory.class).stream()
                                .map(ServiceLoader.Provider::type))
                .contains(InsightEventReporterFactory.class);
    }
}
