package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.checkpoint.SubtaskCheckpoint;
import io.flinkinsight.plugin.store.checkpoint.TaskCheckpoint;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.job.JobTransition;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The panel's generated REST models are those of the records the API serves: the committed files
 * equal what {@link PanelModels} writes ({@code -Dinsight.regenerate-panel-models=true} rewrites
 * them), and the fields it declares are the ones the endpoints write. The overview (a map) is typed
 * by hand; the client's figures come from client-figures.json.
 */
class PanelModelsTest {

    private static final String OTHER_JOB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

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
            } else if (!Files.exists(file)
                    || !Files.readString(file, StandardCharsets.UTF_8).equals(generated)) {
                stale.add(file.normalize().toString());
            }
        }
        assertThat(stale)
                .as(
                        "panel models out of date with the Java records; regenerate with: "
                                + PanelModels.REGENERATE)
                .isEmpty();
    }

    @Test
    void generatedFieldsAreTheOnesTheEndpointsWrite() throws Exception {
        TestingClock clock = new TestingClock(2_000_000);
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        stores.onSpan(FlinkTelemetry.checkpointSpan(JOB_ID, 8, 1_000_000, 1_000_400, 5, 2));
        stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1_000_000));

        JsonNode checkpoints =
                render(
                        new CheckpointsEndpoint(stores.checkpoints(), stores.jobs(), clock)
                                .handle(QueryParams.of("job", JOB_ID)));
        assertFields(checkpoints, CheckpointsEndpoint.Response.class);
        assertFields(checkpoints.at("/jobs/0"), CheckpointsEndpoint.JobCheckpoints.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0"), CheckpointRecord.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0/max"), PhaseFigures.class);
        assertFields(checkpoints.at("/jobs/0/checkpoints/0/tasks/0"), TaskCheckpoint.class);
        assertFields(
                checkpoints.at("/jobs/0/checkpoints/0/tasks/0/subtasks/0"),
                SubtaskCheckpoint.class);

        JsonNode jobs =
                render(
                        new JobsEndpoint(stores.jobs(), stores.checkpoints())
                                .handle(QueryParams.of()));
        assertFields(jobs, JobsEndpoint.Response.class);
        assertFields(jobs.at("/jobs/0"), JobRecord.class);
        assertFields(jobs.at("/jobs/0/transitions/0"), JobTransition.class);
    }

    @Test
    void compareAndSeriesFieldsAreTheOnesTheEndpointsWrite() throws Exception {
        long start = 1_800_000_000_000L;
        TestingClock clock = new TestingClock(start + 600_000);
        JobStore jobs = new JobStore(10, clock);
        CheckpointStore checkpoints = new CheckpointStore(100, 10);
        SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);
        for (String job : List.of(JOB_ID, OTHER_JOB)) {
            jobs.onRestOverview(job, "job", "RUNNING", start, -1);
            jobs.onSettings(
                    job,
                    new JobSettings(
                            true,
                            "EmbeddedRocksDBStateBackend",
                            "FileSystemCheckpointStorage",
                            true,
                            "job",
                            false,
                            null,
                            null,
                            2_000L,
                            "exactly_once",
                            false,
                            1));
            checkpoints.add(
                    new CheckpointRecord(
                            job,
                            "job",
                            1,
                            "COMPLETED",
                            "Checkpoint",
                            false,
                            start + 60_000,
                            start + 60_400,
                            400L,
                            1_000L,
                            100L,
                            10L,
                            PhaseFigures.NONE,
                            PhaseFigures.NONE,
                            List.of(),
                            "span"));
        }
        series.record(new SeriesKey("m", List.of("host"), List.of("a")), start + 1_000, 1.5);

        JsonNode compare =
                render(
                        new CompareEndpoint(checkpoints, jobs, series, clock)
                                .handle(QueryParams.of("jobs", JOB_ID + "," + OTHER_JOB)));
        assertFields(compare, CompareEndpoint.Response.class);
        assertFields(compare.at("/columns/0"), CompareEndpoint.Column.class);
        assertFields(compare.at("/columns/0/settings"), JobSettings.class);
        assertFields(compare.at("/columns/0/checkpoints/0"), CompareEndpoint.ChartPoint.class);
        assertFields(compare.at("/rows/0"), CompareEndpoint.Row.class);
        assertFields(compare.at("/rows/0/cells/0"), CompareEndpoint.Cell.class);

        JsonNode points = render(new SeriesEndpoint(series).handle(QueryParams.of("metric", "m")));
        assertFields(points, SeriesEndpoint.Response.class);
        assertFields(points.at("/series/0"), SeriesEndpoint.SeriesPoints.class);
        assertFields(
                render(new SeriesNamesEndpoint(series).handle(QueryParams.of())),
                SeriesNamesEndpoint.Response.class);
    }

    private static JsonNode render(Object answer) throws Exception {
        return Json.mapper().readTree(Json.toBytes(answer));
    }

    private static void assertFields(JsonNode written, Class<?> type) {
        List<String> names = new ArrayList<>();
        written.fieldNames().forEachRemaining(names::add);
        assertThat(names)
                .as(type.getName())
                .containsExactlyElementsOf(PanelModels.propertyNames(type));
    }
}
