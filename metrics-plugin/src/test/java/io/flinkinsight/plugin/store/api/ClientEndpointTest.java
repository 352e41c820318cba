package io.flinkinsight.plugin.store.api;

import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientEndpointTest {

    private static final String SCOPE = "flink_sql_gateway_insight_client_";

    private final TestingClock clock = new TestingClock(1_000_000);
    private final SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
    private final ClientEndpoint endpoint = new ClientEndpoint(store);

    private void record(String figure, double value, String... labels) {
        List<String> names = labels.length == 0 ? List.of() : List.of(labels[0]);
        List<String> values = labels.length == 0 ? List.of() : List.of(labels[1]);
        store.record(new SeriesKey(SCOPE + figure, names, values), clock.millis(), value);
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
        assertThat(section(section(r, "queries"), "e2eLatencyMs")).containsEntry("p50", null).containsEntry("p99", null);
        assertThat(section(section(r, "queries"), "breakdownMs")).containsKeys("submit", "clusterRun", "resultFetch");
    }

    @Test
    void clientSeriesFillTheFiguresAndRatios() {
        record("pool_requests", 10);
        record("pool_hits", 9);
        record("pool_misses", 1);
        record("channels_opened", 2);
        record("channels_reused", 6);
        record("collect_retries", 4);
        record("queries_submitted", 8);
        record("query_e2e_latency_ms", 120, "quantile", "0.5");
        record("query_e2e_latency_ms", 480, "quantile", "0.99");
        record("query_cluster_run_ms_p50", 80);

        Map<String, Object> r = endpoint.handle(QueryParams.of());

        assertThat(r.get("available")).isEqualTo(true);
        assertThat(r.get("hint")).isNull();
        assertThat(section(r, "pool")).containsEntry("hitRate", 0.9);
        assertThat(section(r, "channels")).containsEntry("reuseRatio", 0.75);
        assertThat(section(r, "collect")).containsEntry("retriesPerQuery", 0.5);
        assertThat(section(section(r, "queries"), "e2eLatencyMs")).containsEntry("p50", 120.0).containsEntry("p99", 480.0);
        assertThat(section(section(r, "queries"), "breakdownMs")).containsEntry("clusterRun", 80.0);
    }
}
