package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobEventParser;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobStore;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointsAndJobsEndpointTest {

    private static final String OTHER_JOB = "ffffffffffffffffffffffffffffffff";

    private final TestingClock clock = new TestingClock(10_000);
    private final CheckpointStore checkpoints = new CheckpointStore(100, 10);
    private final JobStore jobs = new JobStore(10, clock);
    private final CheckpointsEndpoint checkpointsEndpoint =
            new CheckpointsEndpoint(checkpoints, jobs, clock);
    private final JobsEndpoint jobsEndpoint = new JobsEndpoint(jobs, checkpoints);

    private void checkpoint(String job, long id, int subtasks) {
        checkpoints.add(
                CheckpointParser.fromSpan(
                        FlinkTelemetry.checkpointSpan(
                                job, id, id * 1_000, id * 1_000 + 300, id, subtasks)));
    }

    @Test
    void checkpointsOfOneJobAreNewestFirstWithVertexNames() throws Exception {
        for (int id = 1; id <= 5; id++) {
            checkpoint(JOB_ID, id, 2);
        }
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 500), jobs);
        jobs.onVertices(JOB_ID, Map.of(FlinkTelemetry.SOURCE_VERTEX, "Source: words"));

        CheckpointsEndpoint.Response r =
                checkpointsEndpoint.handle(QueryParams.of("job", JOB_ID, "limit", "3"));

        assertThat(r.jobs())
                .singleElement()
                .satisfies(
                        j -> {
                            assertThat(j.jobName()).isEqualTo(FlinkTelemetry.JOB_NAME);
                            assertThat(j.checkpoints())
                                    .extracting(CheckpointRecord::checkpointId)
                                    .containsExactly(5L, 4L, 3L);
                            assertThat(j.checkpoints().get(0).tasks().get(0).vertexName())
                                    .isEqualTo("Source: words");
                            assertThat(j.checkpoints().get(0).tasks().get(1).vertexName()).isNull();
                            assertThat(j.checkpoints().get(0).tasks().get(0).subtasks()).hasSize(2);
                        });
    }

    @Test
    void withoutAJobEveryJobWithCheckpointsIsListedMostRecentFirst() throws Exception {
        checkpoint(JOB_ID, 1, 0);
        checkpoint(OTHER_JOB, 1, 0);

        assertThat(checkpointsEndpoint.handle(QueryParams.of()).jobs())
                .extracting(CheckpointsEndpoint.JobCheckpoints::jobId)
                .containsExactly(OTHER_JOB, JOB_ID);
    }

    @Test
    void unknownButWellFormedJobIsAnEmptyList() throws Exception {
        assertThat(
                        checkpointsEndpoint
                                .handle(QueryParams.of("job", OTHER_JOB.toUpperCase()))
                                .jobs())
                .singleElement()
                .satisfies(j -> assertThat(j.checkpoints()).isEmpty());
    }

    @Test
    void malformedJobIdOrLimitIsABadRequest() {
        assertThatThrownBy(() -> checkpointsEndpoint.handle(QueryParams.of("job", "abc")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("32 hex");
        assertThatThrownBy(
                        () ->
                                checkpointsEndpoint.handle(
                                        QueryParams.of("job", JOB_ID.replace('a', 'x'))))
                .isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> checkpointsEndpoint.handle(QueryParams.of("limit", "0")))
                .isInstanceOf(BadRequestException.class);
    }

    @Test
    void fromKeepsOnlyCheckpointsTriggeredSinceThen() throws Exception {
        for (int id = 1; id <= 5; id++) {
            checkpoint(JOB_ID, id, 0); // triggered at id * 1000
        }
        checkpoint(OTHER_JOB, 1, 0);

        CheckpointsEndpoint.Response absolute =
                checkpointsEndpoint.handle(QueryParams.of("from", "3000"));
        assertThat(absolute.jobs())
                .singleElement()
                .satisfies(
                        j -> {
                            assertThat(j.jobId()).isEqualTo(JOB_ID);
                            assertThat(j.checkpoints())
                                    .extracting(CheckpointRecord::checkpointId)
                                    .containsExactly(5L, 4L, 3L);
                        });
        clock.set(6_000);
        assertThat(
                        checkpointsEndpoint
                                .handle(QueryParams.of("job", JOB_ID, "from", "-2s"))
                                .jobs()
                                .get(0)
                                .checkpoints())
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(5L, 4L);
        assertThat(
                        checkpointsEndpoint
                                .handle(QueryParams.of("job", JOB_ID, "from", "-2s", "limit", "1"))
                                .jobs()
                                .get(0)
                                .checkpoints())
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(5L);
    }

    @Test
    void theListOfAllJobsLeavesPerTaskDetailsOutUnlessAskedAndOneJobKeepsThem() throws Exception {
        checkpoint(JOB_ID, 1, 2);

        assertThat(
                        checkpointsEndpoint
                                .handle(QueryParams.of())
                                .jobs()
                                .get(0)
                                .checkpoints()
                                .get(0)
                                .tasks())
                .isEmpty();
        assertThat(
                        checkpointsEndpoint
                                .handle(QueryParams.of("job", JOB_ID))
                                .jobs()
                                .get(0)
                                .checkpoints()
                                .get(0)
                                .tasks())
                .isNotEmpty();
    }

    @Test
    void tasksFalseLeavesOutPerTaskDetailsButKeepsTheFigures() throws Exception {
        checkpoint(JOB_ID, 1, 2);

        CheckpointRecord lean =
                checkpointsEndpoint
                        .handle(QueryParams.of("tasks", "false"))
                        .jobs()
                        .get(0)
                        .checkpoints()
                        .get(0);
        CheckpointRecord full =
                checkpointsEndpoint
                        .handle(QueryParams.of("tasks", "true"))
                        .jobs()
                        .get(0)
                        .checkpoints()
                        .get(0);

        assertThat(lean.tasks()).isEmpty();
        assertThat(full.tasks()).isNotEmpty();
        assertThat(lean.checkpointedSize()).isEqualTo(full.checkpointedSize()).isNotNull();
        assertThat(lean.max()).isEqualTo(full.max());
    }

    @Test
    void malformedFromOrTasksIsABadRequest() {
        assertThatThrownBy(() -> checkpointsEndpoint.handle(QueryParams.of("from", "yesterday")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("'from'");
        assertThatThrownBy(() -> checkpointsEndpoint.handle(QueryParams.of("tasks", "no")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("'tasks'");
    }

    @Test
    void jobParameterNarrowsTheJobsToThatOne() throws Exception {
        jobs.onStatus(JOB_ID, "a", "RUNNING", 1_000);
        jobs.onStatus(OTHER_JOB, "b", "FINISHED", 2_000);

        JobsEndpoint.Response one =
                jobsEndpoint.handle(QueryParams.of("job", JOB_ID.toUpperCase()));
        assertThat(one.jobs()).extracting(JobRecord::jobId).containsExactly(JOB_ID);
        assertThat(one.matched()).isEqualTo(1);
        assertThat(one.total()).isEqualTo(2);
        assertThat(jobsEndpoint.handle(QueryParams.of("job", JOB_ID, "status", "FINISHED")).jobs())
                .isEmpty();
    }

    @Test
    void unknownJobIsAnEmptyListAndMalformedJobIdABadRequest() throws Exception {
        jobs.onStatus(JOB_ID, "a", "RUNNING", 1_000);

        assertThat(jobsEndpoint.handle(QueryParams.of("job", OTHER_JOB)).jobs()).isEmpty();
        assertThatThrownBy(() -> jobsEndpoint.handle(QueryParams.of("job", "not-a-job")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("32 hex");
    }

    @Test
    void jobsCarryLatencyTransitionsAndTheLastCheckpoint() throws Exception {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1_000), jobs);
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 1_100), jobs);
        checkpoint(JOB_ID, 3, 0);
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "CANCELED", 4_000), jobs);

        JobsEndpoint.Response r = jobsEndpoint.handle(QueryParams.of());

        assertThat(r.total()).isEqualTo(1);
        JobRecord job = r.jobs().get(0);
        assertThat(job.clusterLatencyMs()).isEqualTo(3_000);
        assertThat(job.transitions()).hasSize(3);
        assertThat(job.lastCheckpoint().id()).isEqualTo(3);
        assertThat(job.lastCheckpoint().checkpointedSize()).isEqualTo(60);
    }

    @Test
    void jobsAreFilteredByStatusAndLimited() throws Exception {
        jobs.onStatus(JOB_ID, "a", "RUNNING", 1_000);
        jobs.onStatus(OTHER_JOB, "b", "FINISHED", 2_000);
        jobs.onStatus("00000000000000000000000000000001", "c", "FAILED", 3_000);

        assertThat(jobsEndpoint.handle(QueryParams.of("status", "running")).jobs())
                .extracting(JobRecord::jobId)
                .containsExactly(JOB_ID);
        assertThat(
                        jobsEndpoint
                                .handle(QueryParams.of("status", "FINISHED,FAILED,FAILED"))
                                .matched())
                .isEqualTo(2);
        JobsEndpoint.Response limited = jobsEndpoint.handle(QueryParams.of("limit", "1"));
        assertThat(limited.jobs())
                .extracting(JobRecord::jobId)
                .containsExactly("00000000000000000000000000000001");
        assertThat(limited.matched()).isEqualTo(3);
    }

    @Test
    void malformedStatusOrLimitIsABadRequest() {
        assertThatThrownBy(() -> jobsEndpoint.handle(QueryParams.of("status", "RUNNING;DROP")))
                .isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> jobsEndpoint.handle(QueryParams.of("limit", "-1")))
                .isInstanceOf(BadRequestException.class);
    }
}
