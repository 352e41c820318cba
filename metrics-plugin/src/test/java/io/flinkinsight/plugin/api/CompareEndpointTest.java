package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.hub.HubSeries;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CompareEndpointTest {

    private static final String ROCKSDB = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String CHANGELOG = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    private static final String UNKNOWN = "cccccccccccccccccccccccccccccccc";
    private static final long START = 1_800_000_000_000L;
    private static final long MINUTE = 60_000;

    private final TestingClock clock = new TestingClock(START + 30 * MINUTE);
    private final CheckpointStore checkpoints = new CheckpointStore(1_000, 10);
    private final JobStore jobs = new JobStore(10, clock);
    private final SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);
    private final CompareEndpoint endpoint = new CompareEndpoint(checkpoints, jobs, series, clock);

    private static JobSettings settings(boolean changelog) {
        return new JobSettings(
                true,
                "EmbeddedRocksDBStateBackend",
                "FileSystemCheckpointStorage",
                true,
                "job",
                changelog,
                changelog ? 600_000L : 0L,
                changelog ? "filesystem" : null,
                2_000L,
                "exactly_once",
                false,
                1);
    }

    private void job(String id, String name, boolean changelog) {
        jobs.onRestOverview(id, name, "RUNNING", START, -1);
        jobs.onSettings(id, settings(changelog));
    }

    private void checkpoint(
            String job, long id, String status, long trigger, long duration, long checkpointed) {
        PhaseFigures max = new PhaseFigures(null, null, null, null, 5L, duration / 2, null, null);
        checkpoints.add(
                new CheckpointRecord(
                        job,
                        "name",
                        id,
                        status,
                        "Checkpoint",
                        false,
                        trigger,
                        trigger + duration,
                        duration,
                        1_000_000L + id,
                        checkpointed,
                        100L,
                        max,
                        max,
                        List.of(),
                        "span"));
    }

    /**
     * 30 minutes of a job: ten checkpoints with durations 100..1000 ms (and one failed when asked).
     */
    private void checkpoints(String job, long durationFactor, boolean withFailure) {
        for (int i = 1; i <= 10; i++) {
            checkpoint(
                    job, i, "COMPLETED", START + i * MINUTE, i * 100 * durationFactor, i * 1_000L);
        }
        if (withFailure) {
            checkpoint(job, 11, "FAILED", START + 11 * MINUTE, 50, 0);
        }
    }

    private static CompareEndpoint.Row row(CompareEndpoint.Response r, String key) {
        return r.rows().stream().filter(row -> row.key().equals(key)).findFirst().orElseThrow();
    }

    @Test
    void twoJobsSideBySideWithTheirDifferencesAndChangeAgainstTheFirst() throws Exception {
        job(ROCKSDB, "rocksdb", false);
        job(CHANGELOG, "changelog", true);
        checkpoints(ROCKSDB, 2, true);
        checkpoints(CHANGELOG, 1, false);
        SeriesKey in =
                new SeriesKey(
                        HubSeries.RECORDS_IN,
                        List.of("job_id", "job_name", "vertex_id", "vertex_name"),
                        List.of(CHANGELOG, "changelog", "v1", "agg"));
        series.record(in, START + MINUTE, 1_000);
        series.record(in, START + 2 * MINUTE, 3_000);

        CompareEndpoint.Response r =
                endpoint.handle(QueryParams.of("jobs", ROCKSDB + "," + CHANGELOG.toUpperCase()));

        assertThat(r.mode()).isEqualTo("jobs");
        assertThat(r.columns())
                .extracting(CompareEndpoint.Column::jobId)
                .containsExactly(ROCKSDB, CHANGELOG);
        assertThat(r.differences()).containsExactly("changelog", "materializationIntervalMs");
        assertThat(r.columns().get(1).settings().changelog()).isTrue();

        // 10 completed and 1 failed in the 30 minutes since the job started: 20 and 2 per hour
        assertThat(row(r, "completed_per_hour").cells().get(0).value())
                .isCloseTo(20.0, within(1e-9));
        assertThat(row(r, "completed_per_hour").cells().get(0).samples()).isEqualTo(10);
        assertThat(row(r, "failed_per_hour").cells().get(0).value()).isCloseTo(2.0, within(1e-9));
        assertThat(row(r, "failed_per_hour").cells().get(1).value()).isEqualTo(0.0);

        CompareEndpoint.Row p50 = row(r, "duration_p50");
        assertThat(p50.unit()).isEqualTo("ms");
        assertThat(p50.cells().get(0).value()).isEqualTo(1_000.0); // 200..2000 ms, rank 5
        assertThat(p50.cells().get(1).value()).isEqualTo(500.0);
        assertThat(p50.cells().get(0).changePercent()).isNull();
        assertThat(p50.cells().get(1).changePercent()).isCloseTo(-50.0, within(1e-9));
        assertThat(p50.cells().get(1).samples()).isEqualTo(10);
        assertThat(row(r, "duration_p999").cells().get(1).value())
                .isEqualTo(1_000.0); // the maximum of 10
        assertThat(row(r, "checkpointed_size_p99").cells().get(0).value()).isEqualTo(10_000.0);
        assertThat(row(r, "full_size_last").cells().get(0).value()).isEqualTo(1_000_010.0);
        assertThat(row(r, "async_p50").cells().get(1).value()).isEqualTo(250.0);
        assertThat(row(r, "sync_p99").cells().get(0).value()).isEqualTo(5.0);

        CompareEndpoint.Row recordsIn = row(r, "records_in");
        assertThat(recordsIn.unit()).isEqualTo("records/s");
        assertThat(recordsIn.cells().get(0).value()).isNull();
        assertThat(recordsIn.cells().get(0).samples()).isZero();
        assertThat(recordsIn.cells().get(1).value()).isEqualTo(2_000.0);
        assertThat(recordsIn.cells().get(1).samples()).isEqualTo(2);

        assertThat(r.columns().get(0).checkpoints()).hasSize(10);
        assertThat(r.columns().get(0).checkpoints().get(0).sinceStartMs()).isEqualTo(MINUTE);
        assertThat(r.columns().get(0).checkpoints().get(0).checkpointedSize()).isEqualTo(1_000L);
    }

    @Test
    void oneJobInTwoRanges() throws Exception {
        job(ROCKSDB, "rocksdb", false);
        checkpoints(ROCKSDB, 1, false);
        long mid = START + 5 * MINUTE + 30_000;

        CompareEndpoint.Response r =
                endpoint.handle(
                        QueryParams.of(
                                "job",
                                ROCKSDB,
                                "ranges",
                                START
                                        + "-"
                                        + mid
                                        + ","
                                        + mid
                                        + "-"
                                        + (START + 10 * MINUTE + 30_000)));

        assertThat(r.mode()).isEqualTo("ranges");
        assertThat(r.differences()).isEmpty();
        assertThat(row(r, "duration_p50").cells())
                .extracting(CompareEndpoint.Cell::samples)
                .containsExactly(5, 5);
        assertThat(row(r, "duration_p50").cells().get(0).value()).isEqualTo(300.0);
        assertThat(row(r, "duration_p50").cells().get(1).value()).isEqualTo(800.0);
        assertThat(row(r, "duration_p50").cells().get(1).changePercent())
                .isCloseTo(166.67, within(0.01));
        assertThat(r.columns().get(1).checkpoints().get(0).sinceStartMs()).isEqualTo(30_000);
    }

    @Test
    void whenOldCheckpointsWereDroppedTheRateCountsFromTheOldestKept() throws Exception {
        CheckpointStore keepsTen = new CheckpointStore(10, 10);
        CompareEndpoint small = new CompareEndpoint(keepsTen, jobs, series, clock);
        job(ROCKSDB, "rocksdb", false);
        for (int i = 1; i <= 20; i++) { // the store keeps ids 11..20
            keepsTen.add(
                    new CheckpointRecord(
                            ROCKSDB,
                            "name",
                            i,
                            "COMPLETED",
                            "Checkpoint",
                            false,
                            START + i * MINUTE,
                            START + i * MINUTE + 100,
                            100L,
                            1L,
                            1L,
                            100L,
                            null,
                            null,
                            List.of(),
                            "span"));
        }
        job(CHANGELOG, "changelog", true);

        CompareEndpoint.Response r =
                small.handle(QueryParams.of("jobs", ROCKSDB + "," + CHANGELOG));

        // 10 checkpoints from minute 11 to minute 30: 19 minutes
        assertThat(row(r, "completed_per_hour").cells().get(0).value())
                .isCloseTo(10 * 60 / 19.0, within(1e-9));
    }

    @Test
    void aRestoredJobsCheckpointIdsDoNotStartAtOneAndItsRateCountsFromItsStart() throws Exception {
        job(ROCKSDB, "rocksdb", false);
        for (int i = 1; i <= 10; i++) { // ids go on from the checkpoint it was restored from
            checkpoint(ROCKSDB, 56 + i, "COMPLETED", START + i * MINUTE, 100, 1);
        }
        job(CHANGELOG, "changelog", true);

        CompareEndpoint.Response r =
                endpoint.handle(QueryParams.of("jobs", ROCKSDB + "," + CHANGELOG));

        // 10 checkpoints in the 30 minutes since the job started
        assertThat(row(r, "completed_per_hour").cells().get(0).value())
                .isCloseTo(20.0, within(1e-9));
    }

    @Test
    void aRangeReachingPastNowCountsOnlyTheTimeUpToNow() throws Exception {
        job(ROCKSDB, "rocksdb", false);
        checkpoints(ROCKSDB, 1, false);

        long mid = START + 5 * MINUTE + 30_000;
        CompareEndpoint.Response r =
                endpoint.handle(
                        QueryParams.of(
                                "job",
                                ROCKSDB,
                                "ranges",
                                START + "-" + mid + "," + mid + "-999999999999999"));

        assertThat(row(r, "completed_per_hour").cells().get(0).value())
                .isCloseTo(5 * 60 / 5.5, within(1e-9));
        // the second range: checkpoints 6..10 in the 24.5 minutes up to now, not spread over 30
        // years
        assertThat(row(r, "completed_per_hour").cells().get(1).value())
                .isCloseTo(5 * 60 / 24.5, within(1e-9));
    }

    @Test
    void incrementalNoConfigurationReportsIsReadFromTheCheckpoints() {
        JobSettings unknown = settings(false).withIncremental(null, null);
        List<CheckpointRecord> incremental =
                List.of(record(1, 5_000, 5_000), record(2, 100, 5_100), record(3, 100, 5_200));
        List<CheckpointRecord> full =
                List.of(record(1, 5_000, 5_000), record(2, 5_100, 5_100), record(3, 5_200, 5_200));

        assertThat(CompareColumns.withObservedIncremental(unknown, incremental))
                .satisfies(s -> assertThat(s.incremental()).isTrue())
                .satisfies(s -> assertThat(s.incrementalSource()).isEqualTo("observed"));
        assertThat(CompareColumns.withObservedIncremental(unknown, full).incremental()).isFalse();
        // one checkpoint after the first is too few to tell; a configured value is never overridden
        assertThat(
                        CompareColumns.withObservedIncremental(unknown, incremental.subList(0, 2))
                                .incremental())
                .isNull();
        assertThat(CompareColumns.withObservedIncremental(settings(false), full).incremental())
                .isTrue();
    }

    private static CheckpointRecord record(long id, long checkpointed, long full) {
        return new CheckpointRecord(
                ROCKSDB,
                "name",
                id,
                "COMPLETED",
                "Checkpoint",
                false,
                id,
                id + 1,
                1L,
                full,
                checkpointed,
                100L,
                PhaseFigures.NONE,
                PhaseFigures.NONE,
                List.of(),
                "span");
    }

    @Test
    void badSelectionsNameTheParameterAndTheAcceptedForm() {
        job(ROCKSDB, "rocksdb", false);
        job(CHANGELOG, "changelog", true);
        assertBad(QueryParams.of(), "either 'jobs'");
        assertBad(
                QueryParams.of("jobs", ROCKSDB + "," + CHANGELOG, "job", ROCKSDB), "either 'jobs'");
        assertBad(QueryParams.of("jobs", ROCKSDB), "parameter 'jobs' must be 2 to 4");
        assertBad(QueryParams.of("jobs", ROCKSDB + "," + ROCKSDB), "distinct");
        assertBad(QueryParams.of("jobs", ROCKSDB + ",xyz"), "32 hex");
        assertBad(
                QueryParams.of(
                        "jobs",
                        String.join(
                                ",",
                                ROCKSDB,
                                CHANGELOG,
                                "1".repeat(32),
                                "2".repeat(32),
                                "3".repeat(32))),
                "2 to 4");
        assertBad(
                QueryParams.of("jobs", ROCKSDB + "," + UNKNOWN),
                "parameter 'jobs': job " + UNKNOWN);
        assertBad(QueryParams.of("job", ROCKSDB), "parameter 'ranges'");
        assertBad(
                QueryParams.of("job", ROCKSDB, "ranges", "5-10"),
                "parameter 'ranges' must be 2 to 4");
        assertBad(QueryParams.of("job", ROCKSDB, "ranges", "10-5,20-30"), "from < to");
        assertBad(QueryParams.of("job", ROCKSDB, "ranges", "-1h-now,1-2"), "epoch milliseconds");
        assertBad(
                QueryParams.of("job", "abc", "ranges", "1-2,3-4"),
                "parameter 'job' must be a job id");
        assertBad(
                QueryParams.of("job", UNKNOWN, "ranges", "1-2,3-4"),
                "parameter 'job': job " + UNKNOWN);
    }

    private void assertBad(io.flinkinsight.plugin.http.QueryParameters query, String message) {
        assertThatThrownBy(() -> endpoint.handle(query))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining(message);
    }
}
