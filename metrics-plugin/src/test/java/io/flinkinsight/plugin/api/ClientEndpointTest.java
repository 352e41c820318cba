package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.TestingClientMetrics;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.runtime.MetricSampler;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.flinkinsight.plugin.store.TestingSeriesKeys.key;
import static org.assertj.core.api.Assertions.assertThat;

class ClientEndpointTest {

    private final TestingClock clock = new TestingClock(1_000_000);
    private final SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
    private final ClientEndpoint endpoint = new ClientEndpoint(store, Duration.ofMinutes(1));

    private void record(String name, double value, String... labelPairs) {
        store.record(key(name, labelPairs), clock.millis(), value);
    }

    /**
     * Samples a client's real metric objects into the store, as the plugin's sampler does in a
     * client process.
     */
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
    void withoutClientSeriesTheShapeIsThereWithZerosAndAHint() throws Exception {
        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(r).containsKeys("available", "hint", "pool", "channels", "collect", "queries");
        assertThat(r.get("available")).isEqualTo(false);
        assertThat((String) r.get("hint")).contains("remote-interactive");
        assertThat(section(r, "pool"))
                .containsEntry("requests", 0.0)
                .containsEntry("hitRate", null);
        assertThat(section(r, "channels")).containsEntry("reuseRatio", null);
        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", null);
        assertThat(section(section(r, "queries"), "e2eLatencyMs"))
                .containsEntry("p50", null)
                .containsEntry("p99", null);
        for (String phase :
                List.of("submitMs", "jobStartWaitMs", "clusterRunMs", "resultFetchMs")) {
            assertThat(section(section(r, "queries"), phase))
                    .containsEntry("p50", null)
                    .containsEntry("p99", null);
        }
        assertThat(r).doesNotContainKey("history");
    }

    @Test
    void theContractsMetricsAsTheSamplerKeepsThemGiveEveryFigure() throws Exception {
        sampleClient("gateway-1", 1);

        assertThat(store.names())
                .contains(
                        "flink_insight_client_pool_hits",
                        "flink_insight_client_channels_inFlight",
                        "flink_insight_client_queries_e2eLatencyMs",
                        "flink_insight_client_queries_e2eLatencyMs_count");
        assertThat(json()).isEqualTo(TestingClientMetrics.EXPECTED_JSON);
    }

    @Test
    void severalClientProcessesAreSummedAndTheSlowerLatencyWins() throws Exception {
        record("flink_insight_client_pool_hits", 9, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_pool_misses", 1, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_pool_hits", 11, "host", "gw", "client", "gw:9251");
        record("flink_insight_client_pool_misses", 9, "host", "gw", "client", "gw:9251");
        record("flink_insight_client_channels_inFlight", 2, "host", "gw", "client", "gw:9250");
        record("flink_insight_client_channels_inFlight", 3, "host", "gw", "client", "gw:9251");
        record(
                "flink_insight_client_queries_e2eLatencyMs",
                120,
                "client",
                "gw:9250",
                "quantile",
                "0.99");
        record(
                "flink_insight_client_queries_e2eLatencyMs",
                480,
                "client",
                "gw:9251",
                "quantile",
                "0.99");
        record("flink_insight_client_queries_e2eLatencyMs_count", 1000, "client", "gw:9251");

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "pool"))
                .containsEntry("hits", 20.0)
                .containsEntry("hitRate", 20.0 / 30.0);
        assertThat(section(r, "channels")).containsEntry("inFlight", 5.0);
        assertThat(section(section(r, "queries"), "e2eLatencyMs"))
                .containsEntry("p50", null)
                .containsEntry("p99", 480.0);
    }

    @Test
    void onlyTheContractsExactNamesAreRead() throws Exception {
        record("flink_sql_gateway_insight_client_pool_hits_total", 3);
        record("flink_insight_client_channels_in_flight", 4);
        record("flink_insight_client_queries_jobstartwaitms_p50", 70);
        record("flink_insight_client_collect_retries_per_query", 2, "quantile", "0.5");
        record("flink_insight_client_queries_jobStartWaitMs", 80, "quantile", "0.5");

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "pool")).containsEntry("hits", 0.0);
        assertThat(section(r, "channels")).containsEntry("inFlight", 0.0);
        assertThat(section(section(r, "queries"), "jobStartWaitMs")).containsEntry("p50", 80.0);
        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", null);
    }

    @Test
    void historyHasTheRatiosPerIntervalTheGaugesSummedAndTheQuantilesOfTheSlowerProcess()
            throws Exception {
        long t0 = clock.millis();
        double[][] hitsMisses = {{0, 0}, {4, 1}, {8, 2}};
        for (int i = 0; i < 3; i++) {
            long t = t0 + i * 10_000L;
            store.record(key("flink_insight_client_pool_hits", "client", "a"), t, hitsMisses[i][0]);
            store.record(
                    key("flink_insight_client_pool_hits", "client", "b"), t, hitsMisses[i][0] + i);
            store.record(
                    key("flink_insight_client_pool_misses", "client", "a"), t, hitsMisses[i][1]);
            store.record(key("flink_insight_client_pool_size", "client", "a"), t, 2);
            store.record(key("flink_insight_client_pool_size", "client", "b"), t, 3);
            store.record(
                    key(
                            "flink_insight_client_queries_e2eLatencyMs",
                            "client",
                            "a",
                            "quantile",
                            "0.99"),
                    t,
                    100);
            store.record(
                    key(
                            "flink_insight_client_queries_e2eLatencyMs",
                            "client",
                            "b",
                            "quantile",
                            "0.99"),
                    t,
                    400);
        }
        clock.advance(20_000);

        Map<String, Object> r = endpoint.handle(QueryParams.of("from", "-1m", "step", "10s"));

        Map<String, Object> pool = section(section(r, "history"), "pool");
        assertThat(pool).containsOnlyKeys("hitRate", "size");
        // hits of both processes 0, 9, 18; misses 0, 1, 2: each interval 9 of 10 lookups hit
        assertThat(points(pool.get("hitRate")))
                .containsExactly(List.of(t0 + 10_000, 0.9), List.of(t0 + 20_000, 0.9));
        assertThat(points(pool.get("size")))
                .extracting(p -> p.get(1))
                .containsExactly(5.0, 5.0, 5.0);
        Map<String, Object> e2e =
                section(section(section(r, "history"), "queries"), "e2eLatencyMs");
        assertThat(points(e2e.get("p99")))
                .extracting(p -> p.get(1))
                .containsExactly(400.0, 400.0, 400.0);
        assertThat(points(e2e.get("p50"))).isEmpty();
        assertThat(section(section(r, "history"), "collect"))
                .containsOnlyKeys("retriesPerQuery", "retriesPerQueryQuantiles");
    }

    @Test
    void historyRatiosLeaveAGapWhereNothingHappenedOrACounterRestarted() throws Exception {
        long t0 = clock.millis();
        // lookups 0, 10, 10, 30 then a restart: 9 of 10, nothing (a gap, not 0 %), 10 of 20, a gap
        double[] hits = {0, 9, 9, 19, 2};
        double[] misses = {0, 1, 1, 11, 1};
        for (int i = 0; i < hits.length; i++) {
            store.record(key("flink_insight_client_pool_hits"), t0 + i * 10_000L, hits[i]);
            store.record(key("flink_insight_client_pool_misses"), t0 + i * 10_000L, misses[i]);
        }
        clock.advance(40_000);

        Map<String, Object> r = endpoint.handle(QueryParams.of("from", "-1m", "step", "10s"));

        assertThat(points(section(section(r, "history"), "pool").get("hitRate")))
                .extracting(p -> p.get(1))
                .containsExactly(0.9, null, 0.5, null);
    }

    @Test
    void historyStaysWithinItsBoundOfPointsAndBytes() throws Exception {
        MetricIndex index = new MetricIndex(true);
        TestingClientMetrics.register(index::add, "gateway-1", 1);
        MetricSampler sampler = new MetricSampler(index, store::record, clock, 5000);
        for (int i = 0; i < 2 * ClientEndpoint.MAX_HISTORY_POINTS; i++) {
            clock.advance(5000);
            sampler.sample(clock.millis());
        }

        Map<String, Object> r = endpoint.handle(QueryParams.of("from", "-2h", "step", "1ms"));

        long bytes = Json.toBytes(r).length;
        assertThat(bytes).isLessThanOrEqualTo(ClientEndpoint.maxHistoryBytes() + 4096);
        int longest = 0;
        for (Object section : section(r, "history").values()) {
            for (Object series : ((Map<?, ?>) section).values()) {
                List<Object> all =
                        series instanceof Map<?, ?> q
                                ? new ArrayList<>(q.values())
                                : List.of(series);
                for (Object points : all) {
                    assertThat((List<?>) points)
                            .hasSizeLessThanOrEqualTo(ClientEndpoint.MAX_HISTORY_POINTS);
                    longest = Math.max(longest, ((List<?>) points).size());
                }
            }
        }
        assertThat(longest).as("the gauges have a point per coarsened step").isGreaterThan(100);
    }

    /** History points as lists, {@code [t, value]}. */
    private static List<List<Object>> points(Object points) {
        List<List<Object>> out = new ArrayList<>();
        for (Object p : (List<?>) points) {
            Object[] a = (Object[]) p;
            out.add(java.util.Arrays.asList(a[0], a[1]));
        }
        return out;
    }

    @Test
    void retriesPerQueryFallsBackToTheCountersWithoutTheHistogram() throws Exception {
        record("flink_insight_client_collect_retries", 4);
        record("flink_insight_client_queries_submitted", 8);

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", 0.5);
        assertThat(section(section(r, "collect"), "retriesPerQueryQuantiles"))
                .containsEntry("p50", null);
    }

    @Test
    void aClientWhoseSamplesAreStaleNoLongerCounts() throws Exception {
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
