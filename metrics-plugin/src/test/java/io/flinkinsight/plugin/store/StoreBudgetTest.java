package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.FlinkCapabilities;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stores' one budget: what a pass evicts, in which order, and what it never takes from a
 * running job.
 */
class StoreBudgetTest {

    private static final String FIRST_FINISHED = "a0000000000000000000000000000001";
    private static final String LATER_FINISHED = "a0000000000000000000000000000002";
    private static final String RUNNING = "a0000000000000000000000000000003";
    private static final String OTHER_RUNNING = "a0000000000000000000000000000004";
    private static final long STEP = 5_000;

    private final TestingClock clock = new TestingClock(1_700_000_000_000L);

    /** Stores whose checkpoints may take the whole budget. */
    private InsightStores stores(long maxBytes) {
        StoreSettings settings =
                new StoreSettings(Duration.ofHours(1), Duration.ofMillis(STEP), 10_000, 1_000, 100)
                        .withBytes(Long.MAX_VALUE, maxBytes);
        return new InsightStores(settings, clock, FlinkCapabilities.current());
    }

    private static SeriesKey series(String job, int i) {
        return new SeriesKey(
                "flink_taskmanager_job_task_numRecordsIn",
                List.of("job_id", "subtask_index"),
                List.of(job, String.valueOf(i)));
    }

    /**
     * A job's life: RUNNING, {@code checkpoints} spans of 2 tasks x 4 subtasks, 40 series written
     * 10 rounds.
     */
    private void run(InsightStores stores, String job, int checkpoints) {
        long t = clock.millis();
        stores.onEvent(FlinkTelemetry.jobStatus(job, "RUNNING", t));
        for (int id = 1; id <= checkpoints; id++) {
            stores.onSpan(FlinkTelemetry.checkpointSpan(job, id, t + id, t + id + 100, id, 4));
        }
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 40; i++) {
                stores.series().record(series(job, i), clock.millis(), round * i);
            }
            clock.advance(STEP);
        }
    }

    private void finish(InsightStores stores, String job) {
        stores.onEvent(FlinkTelemetry.jobStatus(job, "FINISHED", clock.millis()));
        clock.advance(STEP);
    }

    private static int seriesOf(InsightStores stores, String job) {
        return stores.series().keys(k -> job.equals(k.label("job_id"))).size();
    }

    /**
     * The three jobs of the first test, in a store that holds them all, and the bytes the first one
     * holds.
     */
    private long[] unboundedBytes() {
        InsightStores all = stores(Long.MAX_VALUE);
        run(all, FIRST_FINISHED, 30);
        finish(all, FIRST_FINISHED);
        long oneJob = all.estimatedBytes();
        run(all, LATER_FINISHED, 30);
        finish(all, LATER_FINISHED);
        run(all, RUNNING, 30);
        return new long[] {all.estimatedBytes(), oneJob};
    }

    @Test
    void theJobThatFinishedFirstLosesItsDataFirstCheckpointsBeforeHistoryBeforeItsRecord() {
        long[] unbounded = unboundedBytes();
        // Over by about half a job: the pass (which frees down to 15/16 of the budget) takes the
        // first job only.
        long budget = unbounded[0] - unbounded[1] / 2;
        InsightStores stores = stores(budget);
        run(stores, FIRST_FINISHED, 30);
        finish(stores, FIRST_FINISHED);
        run(stores, LATER_FINISHED, 30);
        finish(stores, LATER_FINISHED);
        run(stores, RUNNING, 30);
        assertThat(stores.estimatedBytes()).isGreaterThan(budget);

        stores.keepWithinBudget();

        assertThat(stores.estimatedBytes()).isLessThanOrEqualTo(budget);
        assertThat(stores.checkpoints().latest(FIRST_FINISHED))
                .as("its checkpoints went first")
                .isNull();
        assertThat(stores.checkpoints().newestFirst(LATER_FINISHED, 100)).hasSize(30);
        assertThat(stores.checkpoints().newestFirst(RUNNING, 100)).hasSize(30);
        assertThat(seriesOf(stores, LATER_FINISHED)).isEqualTo(40);
        assertThat(seriesOf(stores, RUNNING)).isEqualTo(40);
        assertThat(stores.jobs().get(LATER_FINISHED)).isNotNull();
        assertThat(stores.jobs().get(RUNNING)).isNotNull();
        assertThat(stores.checkpoints().evicted()).isEqualTo(30);
        if (stores.jobs().get(FIRST_FINISHED) == null) {
            assertThat(seriesOf(stores, FIRST_FINISHED))
                    .as("history goes before the record")
                    .isZero();
        }
        assertThat(stores.budgetPasses()).isEqualTo(1);
    }

    @Test
    void
            withOnlyRunningJobsLeftSeriesNoLongerWrittenGoThenOldestCheckpointsAndEachJobKeepsItsNewest() {
        InsightStores stores = stores(1);
        for (int i = 0; i < 20; i++) { // a TaskManager gone long ago
            stores.series()
                    .record(
                            new SeriesKey(
                                    "flink_taskmanager_Status_JVM_CPU_Load",
                                    List.of("tm_id"),
                                    List.of("gone-" + i)),
                            clock.millis(),
                            i);
        }
        clock.advance(10 * STEP);
        run(stores, RUNNING, 30);
        run(stores, OTHER_RUNNING, 5);
        // both write their series again in the round before the pass, as a running job's metrics
        // are sampled
        for (int i = 0; i < 40; i++) {
            stores.series().record(series(RUNNING, i), clock.millis(), i);
            stores.series().record(series(OTHER_RUNNING, i), clock.millis(), i);
        }

        stores.keepWithinBudget();

        assertThat(stores.series().keys(k -> k.name().contains("CPU_Load"))).isEmpty();
        assertThat(stores.checkpoints().newestFirst(RUNNING, 100))
                .singleElement()
                .satisfies(c -> assertThat(c.checkpointId()).isEqualTo(30));
        assertThat(stores.checkpoints().newestFirst(OTHER_RUNNING, 100))
                .singleElement()
                .satisfies(c -> assertThat(c.checkpointId()).isEqualTo(5));
        assertThat(seriesOf(stores, RUNNING)).isEqualTo(40);
        assertThat(seriesOf(stores, OTHER_RUNNING)).isEqualTo(40);
        assertThat(stores.jobs().get(RUNNING).status()).isEqualTo("RUNNING");
        assertThat(stores.series().evictedSeries()).isEqualTo(20);
    }

    @Test
    void aNewJobGetsHistoryWhenTheStoresAreFull() {
        InsightStores stores = stores(1);
        run(stores, RUNNING, 10);
        stores.keepWithinBudget();
        assertThat(stores.estimatedBytes()).isGreaterThan(1);

        run(stores, OTHER_RUNNING, 3);
        stores.keepWithinBudget();

        assertThat(seriesOf(stores, OTHER_RUNNING)).isEqualTo(40);
        assertThat(stores.checkpoints().latest(OTHER_RUNNING).checkpointId()).isEqualTo(3);
    }

    @Test
    void aFinishedJobLosesEverythingBeforeARunningJobLosesAnything() {
        InsightStores stores = stores(1);
        run(stores, FIRST_FINISHED, 10);
        finish(stores, FIRST_FINISHED);
        run(stores, RUNNING, 10);
        stores.keepWithinBudget();

        assertThat(stores.checkpoints().latest(FIRST_FINISHED)).isNull();
        assertThat(seriesOf(stores, FIRST_FINISHED)).isZero();
        assertThat(stores.jobs().get(FIRST_FINISHED)).isNull();
        assertThat(stores.jobs().evicted()).isEqualTo(1);
        assertThat(stores.checkpoints().latest(RUNNING).checkpointId()).isEqualTo(10);
        // the checkpoints' own cap (never above the budget) already acted as they were written, in
        // the same order
        assertThat(stores.checkpoints().evicted())
                .as("10 of the finished job, 9 of the running one")
                .isEqualTo(19);

        // Flink's REST overview lists the finished job for an hour more: the hub's report does not
        // bring it back
        stores.jobs()
                .onRestOverview(
                        FIRST_FINISHED,
                        "wordcount",
                        "FINISHED",
                        clock.millis() - 60_000,
                        clock.millis());
        assertThat(stores.jobs().get(FIRST_FINISHED)).isNull();
        stores.keepWithinBudget();
        assertThat(stores.jobs().evicted()).isEqualTo(1);
    }

    @Test
    void betweenPassesTheCheckpointsTakeOnlyWhatTheBudgetLeavesThem() {
        long budget = 2L << 20;
        InsightStores stores = stores(budget);
        run(stores, RUNNING, 1);
        stores.keepWithinBudget();

        for (int id = 2; id <= 3_000; id++) {
            stores.onSpan(
                    FlinkTelemetry.checkpointSpan(
                            RUNNING, id, id * 1_000L, id * 1_000L + 10, id, 4));
            if (id % 100 == 0) {
                assertThat(stores.estimatedBytes()).isLessThanOrEqualTo(budget);
            }
        }

        assertThat(stores.checkpoints().latest(RUNNING).checkpointId()).isEqualTo(3_000);
        assertThat(stores.checkpoints().droppedOldest(RUNNING)).isTrue();
        assertThat(seriesOf(stores, RUNNING)).isEqualTo(40);
    }
}
