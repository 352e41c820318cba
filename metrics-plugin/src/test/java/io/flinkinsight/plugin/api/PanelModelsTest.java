package io.flinkinsight.plugin.api;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.checkpoint.SubtaskCheckpoint;
import io.flinkinsight.plugin.store.checkpoint.TaskCheckpoint;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobTransition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The panel's generated REST models are those of the records the API serves: the committed files equal what
 * {@link PanelModels} writes ({@code -Dinsight.regenerate-panel-models=true} rewrites them), and the fields it
 * declares are the ones the endpoints write.
 */
class PanelModelsTest {

    /** Surefire runs in the module's directory. */
    private static final Path WEB_EXTENSION = Path.of("..", "web-extension");

    @Test
    void committedPanelModelsAreTheOnesTheRecordsGenerate() throws Exception {
        boolean regenerate = Boolean.getBoolean("insight.regenerate-panel-models");
        List<String> stale = new ArrayList<>();
        for (PanelModels.Area area : PanelModels.AREAS) {
            Path file = area.file(WEB_EXTENSION);
            String generated = PanelModels.typescript(area);
            if (regenerate) {
                Files.writeString(file, generated, StandardCharsets.UTF_8);
            } else if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(generated)) {
                stale.add(file.normalize().toString());
            }
        }
        assertThat(stale)
                .as("panel models out of date with the Java records; regenerate with: " + PanelModels.REGENERATE)
                .isEmpty();
    }

    @Test
    void generatedFieldsAreTheOnesTheEndpointsWrite() throws Exception {
        TestingClock clock = new TestingClock(2_000_000);
        InsightStores stores = new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        stores.onSpan(FlinkTelemetry.checkpointSpan(JOB_ID, 8, 1_000_000, 1_000_400, 5, 2));
        stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1_000_000));

        JsonNode checkpoints = render(new CheckpointsEndpoint(stores.checkpoints(), stores.jobs(), clock)
                .handle(QueryParams.of("job", JOB_ID)));
        assertFields(checkpoints, CheckpointsEndpoint.Response.class);
        assertFields(checkpoints.at("/jobs/0"), CheckpointsEndpoint.JobCheckpoints.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0"), CheckpointRecord.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0/max"), PhaseFigures.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0/tasks/0"), TaskCheckpoint.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0/tasks/0/subtasks/0"), SubtaskCheckpoint.class);

        JsonNode jobs = render(new JobsEndpoint(stores.jobs(), stores.checkpoints()).handle(QueryParams.of()));
        assertFields(jobs, JobsEndpoint.Response.class);
        assertFields(jobs.at("/jobs/0"), JobRecord.class);
        assertFields(jobs.at("/jobs/0/transitions/0"), JobTransition.class);
    }

    private static JsonNode render(Object answer) throws Exception {
        return Json.mapper().readTree(Json.toBytes(answer));
    }

    private static void assertFields(JsonNode written, Class<?> type) {
        List<String> names = new ArrayList<>();
        written.fieldNames().forEachRemaining(names::add);
        assertThat(names).as(type.getName()).containsExactlyElementsOf(PanelModels.propertyNames(type));
    }
}
