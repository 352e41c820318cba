package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.TestingClientMetrics;
import io.flinkinsight.plugin.api.ClientEndpoint;
import io.flinkinsight.plugin.api.MetricsJson;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.TestingGroups;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.apache.flink.metrics.SimpleCounter;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the hub makes of a client process's {@code /api/v1/metrics?contains=insight_client_} answer.
 */
class ClientAnswerRecorderTest {

    private final TestingClock clock = new TestingClock(1_000_000);
    private final SeriesStore hubStore = new SeriesStore(StoreSettings.defaults(), clock);

    /** A recorder of its own: its own refusals and admission. */
    private ClientAnswerRecorder recorder() {
        return new ClientAnswerRecorder(
                hubStore, new ClientRefusal.Counts(), new SeriesAdmission());
    }

    /**
     * The JSON a client process's plugin answers, from real metric objects, as the hub receives it.
     */
    private static JsonNode answerOf(MetricIndex clientIndex, String contains) throws Exception {
        byte[] body =
                Json.toBytes(
                        MetricsJson.read(
                                clientIndex.families(), "", contains, 1000, new LongAdder()));
        return Json.mapper().readTree(body);
    }

    @Test
    void aClientsAnswerBecomesTheSeriesItsOwnSamplerWouldKeepWithAClientLabel() throws Exception {
        MetricIndex client = new MetricIndex(true);
        TestingClientMetrics.register(client::add, "gateway-1", 1);

        int recorded =
                recorder()
                        .record(answerOf(client, ClientEndpoint.PREFIX), "gw:9251", clock.millis());

        // 18 counters and gauges, 9 histograms of three series each
        assertThat(recorded).isEqualTo(18 + 9 * 3);
        SeriesKey hits =
                new SeriesKey(
                        "flink_insight_client_pool_hits",
                        List.of("host", "client"),
                        List.of(
                                "gateway_1",
                                "gw:9251")); // label values filtered as in the client's scrape
        assertThat(hubStore.keys(k -> k.name().endsWith("pool_hits"))).containsExactly(hits);
        assertThat(hubStore.latest(hits)).hasValue(9.0);
        SeriesKey e2eP99 =
                new SeriesKey(
                        "flink_insight_client_queries_e2eLatencyMs",
                        List.of("host", "client", "quantile"),
                        List.of("gateway_1", "gw:9251", "0.99"));
        assertThat(hubStore.latest(e2eP99)).hasValue(4000.0);
        assertThat(hubStore.names()).contains("flink_insight_client_queries_e2eLatencyMs_count");
        String figures =
                new String(
                        Json.toBytes(
                                new ClientEndpoint(hubStore, Duration.ofMinutes(1))
                                        .handle(new QueryParameters(Map.of()))),
                        StandardCharsets.UTF_8);
        assertThat(figures).isEqualTo(TestingClientMetrics.EXPECTED_JSON);
    }

    @Test
    void otherMetricsAndValuesWithoutANumberAreLeftOut() throws Exception {
        MetricIndex client = new MetricIndex(true);
        client.add(new SimpleCounter(), "numRecordsIn", TestingGroups.taskGroup("0"));
        client.add(
                TestingClientMetrics.histogram(),
                "e2eLatencyMs",
                TestingGroups.group("insight_client.queries", Map.of("<host>", "h")));

        // as an older client plugin that ignores 'contains' would answer
        int recorded = recorder().record(answerOf(client, ""), "h:9250", clock.millis());

        assertThat(recorded)
                .as("only the empty histogram's count; its quantiles are NaN")
                .isEqualTo(1);
        assertThat(hubStore.names())
                .containsExactly("flink_insight_client_queries_e2eLatencyMs_count");
    }

    @Test
    void aRogueClientsLabelsAndSeriesAreBoundedAndCounted() throws Exception {
        String figure = "flink_insight_client_pool_hits";
        StringBuilder metrics = new StringBuilder("{\"metrics\":[");
        // one figure with too many labels, one with a huge label value, then many label sets of one
        // figure
        metrics.append("{\"name\":\"").append(figure).append("\",\"labels\":{");
        for (int i = 0; i <= ClientAnswerRecorder.MAX_LABELS; i++) {
            metrics.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v\"");
        }
        metrics.append("},\"value\":1},");
        metrics.append("{\"name\":\"")
                .append(figure)
                .append("\",\"labels\":{\"host\":\"")
                .append("x".repeat(ClientAnswerRecorder.MAX_LABEL_VALUE + 1))
                .append("\"},\"value\":1}");
        for (int i = 0; i < 500; i++) {
            metrics.append(",{\"name\":\"")
                    .append(figure)
                    .append("\",\"labels\":{\"host\":\"h")
                    .append(i)
                    .append("\"},\"value\":1}");
        }
        metrics.append("]}");
        ClientRefusal.Counts refused = new ClientRefusal.Counts();
        ClientAnswerRecorder recorder =
                new ClientAnswerRecorder(hubStore, refused, new SeriesAdmission());
        JsonNode answer = Json.mapper().readTree(metrics.toString());
        int recorded = recorder.record(answer, "gw:9251", clock.millis());
        // the next round, with the same figures and 500 new label sets: still nothing beyond the
        // bound
        int again =
                recorder.record(
                        Json.mapper().readTree(metrics.toString().replace("\"h", "\"n")),
                        "gw:9251",
                        clock.millis());

        int allowed = SeriesAdmission.MAX_FIGURES_PER_CLIENT;
        assertThat(recorded).isEqualTo(allowed);
        assertThat(again).as("a new round's new labels").isZero();
        assertThat(hubStore.keys(k -> k.name().equals(figure))).hasSize(allowed);
        assertThat(refused.get(ClientRefusal.LABELS)).isEqualTo(4);
        assertThat(refused.get(ClientRefusal.TOO_MANY_SERIES)).isEqualTo(1000 - allowed);
        assertThat(recorder.record(answer, "gw:9251", clock.millis()))
                .as("the figures it was let write, again")
                .isEqualTo(allowed);
    }

    @Test
    void aClientSilentForRoundsGivesItsPlacesBack() {
        SeriesAdmission admission = new SeriesAdmission();
        admission.forgetUnseen(1);
        for (int i = 0; i < SeriesAdmission.MAX_FIGURES_PER_CLIENT; i++) {
            assertThat(admission.admit("gw:1", new SeriesKey("f" + i, List.of(), List.of())))
                    .isTrue();
        }
        assertThat(admission.admit("gw:1", new SeriesKey("one-more", List.of(), List.of())))
                .isFalse();

        admission.forgetUnseen(1 + SeriesAdmission.FORGET_AFTER_ROUNDS);

        assertThat(admission.admit("gw:1", new SeriesKey("one-more", List.of(), List.of())))
                .as("after its silence")
                .isTrue();
    }
}
