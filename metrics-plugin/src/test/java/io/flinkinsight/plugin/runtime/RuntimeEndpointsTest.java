package io.flinkinsight.plugin.runtime;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class RuntimeEndpointsTest {

    @Test
    void servesTheDocumentedEndpoints() {
        InsightRuntime runtime = new InsightRuntime(
                InsightConfiguration.from(new Properties(), "metrics.reporter.insight."), Clock.systemUTC());
        try {
            assertThat(runtime.endpoints()).containsOnlyKeys("/api/v1/overview", "/api/v1/metrics", "/api/v1/series",
                    "/api/v1/series/names", "/api/v1/checkpoints", "/api/v1/jobs", "/api/v1/client",
                    "/api/v1/compare");
        } finally {
            runtime.close();
        }
    }
}
