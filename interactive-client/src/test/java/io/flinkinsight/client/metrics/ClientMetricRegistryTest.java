package io.flinkinsight.client.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.junit.jupiter.api.Test;

class ClientMetricRegistryTest {

    @Test
    void configuredReporterSeesEveryFigureUnderInsightClientWithHostVariable() {
        Configuration conf = new Configuration();
        conf.setString("metrics.reporter.capture.factory.class", CapturingReporterFactory.class.getName());
        CapturingReporterFactory.METRICS.clear();

        try (ClientMetricRegistry registry = ClientMetricRegistry.create(conf)) {
            assertThat(registry.isReporting()).isTrue();
            registry.metrics().poolHits.inc();
            registry.metrics().poolRequests.inc();
            registry.metrics().poolRequests.inc();

            assertThat(CapturingReporterFactory.METRICS.keySet()).containsExactlyInAnyOrderElementsOf(Set.of(
                    "insight_client_pool_requests", "insight_client_pool_hits", "insight_client_pool_misses",
                    "insight_client_pool_evictions", "insight_client_pool_hitRate", "insight_client_pool_size",
                    "insight_client_channels_requests", "insight_client_channels_opened",
                    "insight_client_channels_reused", "insight_client_channels_reuseRatio",
                    "insight_client_channels_inFlight", "insight_client_channels_requestLatencyMs",
                    "insight_client_channels_queryRequests", "insight_client_channels_requestsPerQuery",
                    "insight_client_collect_requests", "insight_client_collect_retries",
                    "insight_client_collect_retriesPerQuery",
                    "insight_client_queries_submitted", "insight_client_queries_succeeded",
                    "insight_client_queries_failed", "insight_client_queries_waiting",
                    "insight_client_queries_e2eLatencyMs", "insight_client_queries_submitMs",
                    "insight_client_queries_admissionWaitMs", "insight_client_queries_jobStartWaitMs",
                    "insight_client_queries_clusterRunMs", "insight_client_queries_resultFetchMs"));
            assertThat(((Counter) CapturingReporterFactory.METRICS.get("insight_client_pool_hits")).getCount())
                    .isEqualTo(1);
            assertThat(((Gauge<?>) CapturingReporterFactory.METRICS.get("insight_client_pool_hitRate")).getValue())
                    .isEqualTo(0.5);
            assertThat(CapturingReporterFactory.VARIABLES.get("insight_client_pool_hits")).containsKey("<host>");
        }
    }

    @Test
    void withoutReportersTheFiguresStillCount() {
        try (ClientMetricRegistry registry = ClientMetricRegistry.create(new Configuration())) {
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
        assertThat(metrics.requestLatencyMs.getStatistics().getMin()).as("rounded, not truncated").isEqualTo(1);
    }

    @Test
    void ratiosAreZeroBeforeTheFirstRequest() {
        ClientMetrics metrics = new ClientMetrics();

        assertThat(metrics.poolHitRate()).isZero();
        assertThat(metrics.channelReuseRatio()).isZero();
    }
}
