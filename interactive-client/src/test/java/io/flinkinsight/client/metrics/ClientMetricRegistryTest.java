package io.flinkinsight.client.metrics;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.common.ClientFigures;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientMetricRegistryTest {

    @Test
    void configuredReporterSeesEveryFigureUnderInsightClientWithHostVariable() throws IOException {
        Configuration conf = new Configuration();
        conf.setString(
                "metrics.reporter.capture.factory.class", CapturingReporterFactory.class.getName());
        CapturingReporterFactory.METRICS.clear();

        try (ClientMetricRegistry registry = ClientMetricRegistry.create(conf, FlinkLine.get())) {
            assertThat(registry.isReporting()).isTrue();
            // two lookups: one served by a pooled client, one that built it
            registry.metrics().poolHits.inc();
            registry.metrics().poolMisses.inc();
            registry.metrics().poolRequests.inc();
            registry.metrics().poolRequests.inc();

            // exactly the figures of client-figures.json, the contract the plugin and the panel
            // read
            Map<String, Class<? extends Metric>> declared = declaredFigures();
            assertThat(CapturingReporterFactory.METRICS.keySet())
                    .containsExactlyInAnyOrderElementsOf(declared.keySet());
            declared.forEach(
                    (name, kind) ->
                            assertThat(CapturingReporterFactory.METRICS.get(name))
                                    .as("the kind of %s", name)
                                    .isInstanceOf(kind));
            assertThat(
                            ((Counter)
                                            CapturingReporterFactory.METRICS.get(
                                                    "insight_client_pool_hits"))
                                    .getCount())
                    .isEqualTo(1);
            assertThat(
                            ((Gauge<?>)
                                            CapturingReporterFactory.METRICS.get(
                                                    "insight_client_pool_hitRate"))
                                    .getValue())
                    .isEqualTo(0.5);
            assertThat(CapturingReporterFactory.VARIABLES.get("insight_client_pool_hits"))
                    .containsKey("<host>");
        }
    }

    @Test
    void withoutReportersTheFiguresStillCount() {
        try (ClientMetricRegistry registry =
                ClientMetricRegistry.create(new Configuration(), FlinkLine.get())) {
            registry.metrics().queriesSubmitted.inc();

            assertThat(registry.metrics().queriesSubmitted.getCount()).isEqualTo(1);
        }
    }

    @Test
    void transportCallbacksFeedTheChannelFigures() {
        ClientMetrics metrics = new ClientMetrics();

        metrics.transportListener().channelOpened();
        for (int i = 0; i < 3; i++) {
            metrics.transportListener().channelReused();
        }
        metrics.transportListener().inFlightChanged(1);
        metrics.transportListener().inFlightChanged(1);
        metrics.transportListener().inFlightChanged(-1);
        metrics.transportListener().requestFinished(2_400_000L, true);
        metrics.transportListener().requestFinished(600_000L, false);

        assertThat(metrics.channelsOpened.getCount()).isEqualTo(1);
        assertThat(metrics.channelsReused.getCount()).isEqualTo(3);
        assertThat(metrics.channelReuseRatio()).isEqualTo(0.75);
        assertThat(metrics.channelsInFlight.get()).isEqualTo(1);
        assertThat(metrics.channelRequests.getCount()).isEqualTo(2);
        assertThat(metrics.requestLatencyMs.getStatistics().getMax()).isEqualTo(2);
        assertThat(metrics.requestLatencyMs.getStatistics().getMin())
                .as("rounded, not truncated")
                .isEqualTo(1);
    }

    @Test
    void ratiosAreZeroBeforeTheFirstRequest() {
        ClientMetrics metrics = new ClientMetrics();

        assertThat(metrics.poolHitRate()).isZero();
        assertThat(metrics.channelReuseRatio()).isZero();
    }

    /**
     * The figures of the contract, as a reporter names them from the logical scope, and their kind.
     */
    private static Map<String, Class<? extends Metric>> declaredFigures() throws IOException {
        JsonNode contract;
        try (InputStream in = ClientFigures.open()) {
            contract = new ObjectMapper().readTree(in);
        }
        Map<String, Class<? extends Metric>> out = new HashMap<>();
        for (JsonNode f : contract.path("figures")) {
            Class<? extends Metric> kind =
                    switch (f.path("kind").asText()) {
                        case "counter" -> Counter.class;
                        case "gauge" -> Gauge.class;
                        case "histogram" -> Histogram.class;
                        default -> throw new AssertionError("unknown kind in " + f);
                    };
            out.put(
                    InsightClientMetricGroup.GROUP_NAME
                            + "_"
                            + f.path("group").asText()
                            + "_"
                            + f.path("name").asText(),
                    kind);
        }
        assertThat(contract.path("scope").asText()).isEqualTo(InsightClientMetricGroup.GROUP_NAME);
        return out;
    }
}
