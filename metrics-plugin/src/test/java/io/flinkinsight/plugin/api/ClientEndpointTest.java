package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.TestingClientMetrics;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.runtime.MetricSampler;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientEndpointTest {

    private final TestingClock clock = new TestingClock(1_000_000);
    private final SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
    private final ClientEndpoint endpoint = new ClientEndpoint(store, Duration.ofMinutes(1));

    private void record(String name, double value, String... labelPairs) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < labelPairs.length; i += 2) {
            names.add(labelPairs[i]);
            values.add(labelPairs[i + 1]);
        }
        store.record(new SeriesKey(name, names, values), clock.millis(), value);
    }

    /** Samples a client's real metric objects into the store, as the plugin's sampler does in a client process. */
    private void sampleClient(String host, long scale) {
        MetricIndex index = new MetricIndex(true);
        TestingClientMetrics.register(index::add, host, scale);
        new MetricSampler(index, store::record, clock, 5000).sample(clock.millis());
    }

    private String json() throws Exception {
        return new String(Json.toBytes(endpoint.handle(QueryParams.of())), StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> response, String name) {
        return (Map<String, Object>) response.get(name);
    }

    @Test
    void withoutClientSeriesTheShapeIsThereWithZerosAndAHint() {
        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(r).containsKeys("available", "hint", "pool", "channels", "collect", "queries");
        assertThat(r.get("available")).isEqualTo(false);
        assertThat((String) r.get("hint")).contains("remote-interactive");
        assertThat(section(r, "pool")).containsEntry("requests", 0.0).containsEntry("hitRate", null);
        assertThat(section(r, "channels")).containsEntry("reuseRatio", null);
        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", null);
        assertThat(section(section(r, "queries"), "e2eLatencyMs"))
                .containsEntry("p50", null)
                .containsEntry("p99", null);
        assertThat(section(section(r, "queries"), "breakdownMs"))
                .containsOnlyKeys("submit", "jobStartWait", "clusterRun", "resultFetch");
        assertThat(section(section(r, "queries"), "breakdownP99Ms"))
                .containsOnlyKeys("submit", "jobStartWait", "clusterRun", "resultFetch");
    }

    @Test
    void theContractsMetricsAsTheSamplerKeepsThemGiveEveryFigure() throws Exception {
        sampleClient("gateway-1", 1);

        assertThat(store.names()).contains("flink_insight_client_pool_hits", "flink_insight_client_channels_inFlight",
                "flink_insight_client_queries_e2eLatencyMs", "flink_insight_client_queries_e2eLatencyMs_count");
        assertThat(json()).isEqualTo(TestingClientMetrics.EXPECTED_JSON);
    }

    @Test
    void severalClientProcessesAreSummedAndTheSlowerLatencyWins() {
        record("flink_insight_client_pool_hits", 9, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_pool_misses", 1, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_pool_hits", 11, "host", "gw", "client", "gw:9251");
        record("flink_insight_client_pool_misses", 9, "host", "gw", "client", "gw:9251");
        record("flink_insight_client_channels_inFlight", 2, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_channels_inFlight", 3, "host", "gw", "client", "gw:9251");
        record("flink_insight_client_queries_e2eLatencyMs", 120, "client", "gw:9250", "quantile", "0.99");
        record("flink_insight_client_queries_e2eLatencyMs", 480, "client", "gw:9251", "quantile", "0.99");
        record("flink_insight_client_queries_e2eLatencyMs_count", 1000, "client", "gw:9251");

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "pool")).containsEntry("hits", 20.0).containsEntry("hitRate", 20.0 / 30.0);
        assertThat(section(r, "channels")).containsEntry("inFlight", 5.0);
        assertThat(section(section(r, "queries"), "e2eLatencyMs"))
                .containsEntry("p50", null)
                .containsEntry("p99", 480.0);
    }

    @Test
    void figureNamesMatchWhateverTheirCaseUnderscoresAndTotalSuffix() {
        record("flink_sql_gateway_insight_client_pool_hits_total", 3);
        record("flink_sql_gateway_insight_client_channels_in_flight", 4);
        record("flink_sql_gateway_insight_client_queries_jobstartwaitms_p50", 70);
        record("flink_sql_gateway_insight_client_collect_retries_per_query", 2, "quantile", "0.5");

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "pool")).containsEntry("hits", 3.0);
        assertThat(section(r, "channels")).containsEntry("inFlight", 4.0);
        assertThat(section(section(r, "queries"), "breakdownMs")).containsEntry("jobStartWait", 70.0);
        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", 2.0);
    }

    @Test
    void retriesPerQueryFallsBackToTheCountersWithoutTheHistogram() {
        record("flink_insight_client_collect_retries", 4);
        record("flink_insight_client_queries_submitted", 8);

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", 0.5);
        assertThat(section(section(r, "collect"), "retriesPerQueryQuantiles")).containsEntry("p50", null);
    }

    @Test
    void aClientWhoseSamplesAreStaleNoLongerCounts() {
        record("flink_insight_client_pool_hits", 100, "client", "gone:9250");
        clock.advance(Duration.ofMinutes(2).toMillis());
        record("flink_insight_client_pool_hits", 7, "client", "alive:9250");

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(r.get("available")).isEqualTo(true);
        assertThat(section(r, "pool")).containsEntry("hits", 7.0);
        assertThat(section(new ClientEndpoint(store).handle(QueryParams.of()), "pool"))
                .as("without a freshness bound, every sample in the retention counts")
                .containsEntry("hits", 107.0);
    }

    @Test
    void freshnessIsThreeRoundsOfTheSlowerWriterAndAtLeastAMinute() {
        assertThat(ClientEndpoint.freshness(Duration.ofSeconds(5), Duration.ofSeconds(10)))
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(ClientEndpoint.freshness(Duration.ofSeconds(5), Duration.ofMinutes(5)))
                .isEqualTo(Duration.ofMinutes(15));
    }
}
