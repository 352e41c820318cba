package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.FlinkCapabilities;

import org.apache.flink.runtime.util.EnvironmentInformation;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class RuntimeEndpointsTest {

    @Test
    void servesTheDocumentedEndpoints() {
        InsightRuntime runtime =
                new InsightRuntime(
                        InsightConfiguration.from(new Properties(), "metrics.reporter.insight."),
                        Clock.systemUTC());
        try {
            assertThat(runtime.endpoints())
                    .containsOnlyKeys(
                            "/api/v1/overview",
                            "/api/v1/metrics",
                            "/api/v1/series",
                            "/api/v1/series/names",
                            "/api/v1/checkpoints",
                            "/api/v1/jobs",
                            "/api/v1/client",
                            "/api/v1/compare",
                            "/api/v1/statements",
                            "/api/v1/queries");
        } finally {
            runtime.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOverviewListsWhatThisFlinkGives() {
        InsightRuntime runtime =
                new InsightRuntime(
                        InsightConfiguration.from(new Properties(), "metrics.reporter.insight."),
                        Clock.systemUTC());
        try {
            Map<String, Object> overview = runtime.overview();
            // the build's Flink (flink-runtime on the test class path) gives everything the plugin
            // reads
            assertThat(overview.get("flinkVersion")).isEqualTo(EnvironmentInformation.getVersion());
            assertThat(overview.get("javaVersion")).isEqualTo(Runtime.version().feature());
            assertThat((List<FlinkCapabilities.Capability>) overview.get("capabilities"))
                    .extracting(FlinkCapabilities.Capability::name)
                    .containsExactly(
                            "checkpoint-spans",
                            "checkpoint-phase-figures",
                            "checkpoint-task-spans",
                            "event-reporters",
                            "job-events");
            assertThat((List<FlinkCapabilities.Capability>) overview.get("capabilities"))
                    .allMatch(FlinkCapabilities.Capability::available);
            assertThat((Map<String, Object>) overview.get("flink_insight_requests_refused_total"))
                    .as("every reason, zeros included, for alerts on their rate")
                    .containsKeys("not_found", "answer_too_large", "too_many_scrapes", "busy")
                    .hasSize(io.flinkinsight.plugin.http.RefusalReason.values().length);
        } finally {
            runtime.close();
        }
    }
}
