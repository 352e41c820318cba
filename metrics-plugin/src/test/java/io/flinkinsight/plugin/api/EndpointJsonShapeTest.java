package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

/** The JSON the panel reads, as a plain Jackson mapper renders the endpoints' return values. */
class EndpointJsonShapeTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final TestingClock clock = new TestingClock(2_000_000);

    private JsonNode render(InsightStores stores, String path, String... params) throws Exception {
        return mapper.readTree(
                mapper.writeValueAsString(endpoint(stores, path).handle(QueryParams.of(params))));
    }

    /** The endpoint the runtime serves at {@code path}, over {@code stores}. */
    private JsonEndpoint endpoint(InsightStores stores, String path) {
        return switch (path) {
            case CheckpointsEndpoint.PATH ->
                    new CheckpointsEndpoint(stores.checkpoints(), stores.jobs(), clock);
            case SeriesEndpoint.PATH -> new SeriesEndpoint(stores.series());
            case JobsEndpoint.PATH -> new JobsEndpoint(stores.jobs(), stores.checkpoints());
            case ClientEndpoint.PATH -> new ClientEndpoint(stores.series(), Duration.ofMinutes(1));
            default -> throw new IllegalArgumentException(path);
        };
    }

    @Test
    void checkpointsRenderWithFiguresTasksAndSubtasks() throws Exception {
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        stores.onSpan(FlinkTelemetry.checkpointSpan(JOB_ID, 8, 1_000_000, 1_000_400, 5, 2));

        JsonNode cp =
                render(stores, "/api/v1/checkpoints", "job", JOB_ID).at("/jobs/0/checkpoints/0");

        assertThat(cp.get("checkpointId").asLong()).isEqualTo(8);
        assertThat(cp.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(cp.get("triggerTime").asLong()).isEqualTo(1_000_000);
        assertThat(cp.get("durationMs").asLong()).isEqualTo(400);
        assertThat(cp.get("checkpointedSize").asLong()).isEqualTo(100);
        assertThat(cp.get("savepoint").asBoolean()).isFalse();
        assertThat(cp.at("/max/asyncDurationMs").asLong()).isEqualTo(30);
        assertThat(cp.at("/sum/syncDurationMs").asLong()).isEqualTo(250);
        assertThat(cp.at("/tasks/0/vertexId").asText()).isEqualTo(FlinkTelemetry.SOURCE_VERTEX);
        assertThat(cp.at("/tasks/0/subtasks/1/figures/checkpointedSizeBytes").asLong())
                .isEqualTo(11);
    }

    @Test
    void seriesPointsRenderAsTimestampValuePairs() throws Exception {
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        SeriesKey key = new SeriesKey("m", List.of("host"), List.of("a"));
        stores.series().record(key, 1_999_000, 1.5);
        stores.series().record(key, 1_999_500, Double.NaN);

        JsonNode series = render(stores, "/api/v1/series", "metric", "m").at("/series/0");

        assertThat(series.get("name").asText()).isEqualTo("m");
        assertThat(series.at("/labels/host").asText()).isEqualTo("a");
        assertThat(series.get("points").toString()).isEqualTo("[[1999000,1.5],[1999500,\"NaN\"]]");
    }

    @Test
    void jobsAndClientRenderTheirDocumentedFields() throws Exception {
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1_000_000));
        stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "FINISHED", 1_000_250));

        JsonNode job = render(stores, "/api/v1/jobs").at("/jobs/0");
        assertThat(job.get("jobId").asText()).isEqualTo(JOB_ID);
        assertThat(job.get("clusterLatencyMs").asLong()).isEqualTo(250);
        assertThat(job.at("/transitions/1/status").asText()).isEqualTo("FINISHED");

        JsonNode client = render(stores, "/api/v1/client");
        assertThat(client.get("available").asBoolean()).isFalse();
        assertThat(client.at("/pool/hitRate").isNull()).isTrue();
        assertThat(client.at("/queries/resultFetchMs").has("p50")).isTrue();
    }
}
