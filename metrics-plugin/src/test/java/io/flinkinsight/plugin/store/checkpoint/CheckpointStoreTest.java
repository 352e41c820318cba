package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.FlinkTelemetry;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointStoreTest {

    private static final String JOB_A = "0000000000000000000000000000000a";
    private static final String JOB_B = "0000000000000000000000000000000b";
    private static final String JOB_C = "0000000000000000000000000000000c";

    private static CheckpointRecord span(String job, long id) {
        return CheckpointParser.fromSpan(
                FlinkTelemetry.checkpointSpan(job, id, id * 1000, id * 1000 + 100, id, 0));
    }

    private static CheckpointRecord event(String job, long id) {
        return CheckpointParser.fromEvent(
                FlinkTelemetry.checkpointEvent(job, id, id * 1000 + 100, id));
    }

    @Test
    void keepsTheNewestCheckpointsPerJobNewestFirst() {
        CheckpointStore store = new CheckpointStore(3, 10);
        for (long id = 1; id <= 5; id++) {
            store.add(span(JOB_A, id));
        }

        assertThat(store.newestFirst(JOB_A, 10))
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(5L, 4L, 3L);
        assertThat(store.newestFirst(JOB_A, 2))
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(5L, 4L);
        assertThat(store.latest(JOB_A).checkpointId()).isEqualTo(5);
    }

    @Test
    void outOfOrderCompletionsAreKeptInIdOrder() {
        CheckpointStore store = new CheckpointStore(10, 10);
        store.add(span(JOB_A, 2));
        store.add(span(JOB_A, 1));
        store.add(span(JOB_A, 3));

        assertThat(store.newestFirst(JOB_A, 10))
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(3L, 2L, 1L);
    }

    @Test
    void spanReplacesTheEventOfTheSameCheckpointButNotTheOtherWayRound() {
        CheckpointStore store = new CheckpointStore(10, 10);
        store.addIfAbsent(event(JOB_A, 1));
        store.add(span(JOB_A, 1));
        store.addIfAbsent(event(JOB_A, 1));

        assertThat(store.newestFirst(JOB_A, 10))
                .singleElement()
                .satisfies(r -> assertThat(r.source()).isEqualTo("span"));
    }

    @Test
    void eventAloneIsKeptWhenNoSpanArrives() {
        CheckpointStore store = new CheckpointStore(10, 10);
        store.addIfAbsent(event(JOB_A, 4));

        assertThat(store.latest(JOB_A).source()).isEqualTo("event");
    }

    @Test
    void theJobWrittenLeastRecentlyIsEvictedBeyondMaxJobs() {
        CheckpointStore store = new CheckpointStore(10, 2);
        store.add(span(JOB_A, 1));
        store.add(span(JOB_B, 1));
        store.add(span(JOB_A, 2));
        store.newestFirst(JOB_B, 1); // reading does not count as activity
        store.add(span(JOB_C, 1));

        assertThat(store.jobIds()).containsExactly(JOB_A, JOB_C);
        assertThat(store.latest(JOB_B)).isNull();
    }

    @Test
    void onlyTheNewestCheckpointsKeepPerSubtaskDetail() {
        CheckpointStore store = new CheckpointStore(50, 10);
        int total = CheckpointStore.CHECKPOINTS_WITH_SUBTASK_DETAIL + 5;
        for (long id = 1; id <= total; id++) {
            store.add(
                    CheckpointParser.fromSpan(
                            FlinkTelemetry.checkpointSpan(
                                    JOB_A, id, id * 1000, id * 1000 + 1, id, 2)));
        }

        var all = store.newestFirst(JOB_A, 100);
        assertThat(all).hasSize(total);
        assertThat(all.subList(0, CheckpointStore.CHECKPOINTS_WITH_SUBTASK_DETAIL))
                .allSatisfy(r -> assertThat(r.hasSubtaskDetail()).isTrue());
        assertThat(all.subList(CheckpointStore.CHECKPOINTS_WITH_SUBTASK_DETAIL, total))
                .allSatisfy(
                        r -> {
                            assertThat(r.hasSubtaskDetail()).isFalse();
                            assertThat(r.tasks()).hasSize(2); // per-task figures stay
                        });
    }

    @Test
    void overItsBytesFinishedJobsGoFirstAndTheWrittenJobKeepsItsNewest() {
        String finished = "f0000000000000000000000000000000";
        String running = "b0000000000000000000000000000000";
        long budget = bytesOf(running, 10);
        CheckpointStore store = new CheckpointStore(1000, 100, budget, Set.of(finished)::contains);
        for (long id = 1; id <= 6; id++) {
            store.add(record(finished, id, 4));
        }
        for (long id = 1; id <= 6; id++) {
            store.add(record(running, id, 4));
        }

        assertThat(store.estimatedBytes()).isLessThanOrEqualTo(budget);
        assertThat(store.jobIds()).containsExactly(running);
        assertThat(store.newestFirst(running, 10)).hasSize(6);
        assertThat(store.evicted()).as("the finished job's checkpoints").isEqualTo(6);

        for (long id = 7; id <= 30; id++) {
            store.add(record(running, id, 4));
        }
        assertThat(store.estimatedBytes()).isLessThanOrEqualTo(budget);
        assertThat(store.latest(running).checkpointId()).as("the newest is kept").isEqualTo(30);
        assertThat(store.newestFirst(running, 100)).hasSizeBetween(8, 10);
        assertThat(store.droppedOldest(running)).isTrue();
    }

    @Test
    void overItsBytesRunningJobsLoseTheirOldestTheLargestFirstAndEachKeepsItsNewest() {
        String large = "a0000000000000000000000000000000";
        String small = "b0000000000000000000000000000000";
        String rare = "c0000000000000000000000000000000";
        long budget = bytesOf(large, 12);
        CheckpointStore store = new CheckpointStore(1000, 100, budget, job -> false);
        store.add(
                record(
                        rare, 1,
                        4)); // written least recently, yet running: keeps its only checkpoint
        for (long id = 1; id <= 3; id++) {
            store.add(record(small, id, 4));
        }
        for (long id = 1; id <= 40; id++) {
            store.add(record(large, id, 4));
        }

        assertThat(store.estimatedBytes()).isLessThanOrEqualTo(budget);
        assertThat(store.newestFirst(rare, 10)).hasSize(1);
        assertThat(store.newestFirst(small, 10)).hasSize(3);
        assertThat(store.latest(large).checkpointId()).isEqualTo(40);

        long freed = store.trimOldest(Long.MAX_VALUE);
        assertThat(freed).isPositive();
        assertThat(store.jobIds())
                .allSatisfy(job -> assertThat(store.newestFirst(job, 10)).hasSize(1));
        assertThat(store.latest(large).checkpointId()).isEqualTo(40);
        assertThat(store.latest(small).checkpointId()).isEqualTo(3);
    }

    @Test
    void readsGiveBackWhatWasStoredFigureForFigure() {
        CheckpointStore store = new CheckpointStore(1000, 100);
        CheckpointRecord withSubtasks = record(JOB_A, 1, 3);
        CheckpointRecord event = event(JOB_B, 2);
        store.add(withSubtasks);
        store.add(event);

        assertThat(store.latest(JOB_A)).isEqualTo(withSubtasks);
        assertThat(store.latest(JOB_A).tasks().get(1).subtasks()).hasSize(3);
        assertThat(store.latest(JOB_B)).isEqualTo(event);
        assertThat(store.latest(JOB_B).max()).isSameAs(PhaseFigures.NONE);
    }

    @Test
    void estimatesGrowWithTasksAndSubtasksAndRemovingAJobFreesWhatItHeld() {
        long bare = bytesOf(JOB_A, 1, 0);
        long four = bytesOf(JOB_A, 1, 4);
        assertThat(four).isGreaterThan(bare);

        CheckpointStore store = new CheckpointStore(1000, 100);
        long empty = store.estimatedBytes();
        for (long id = 1; id <= 20; id++) {
            store.add(record(JOB_A, id, 4));
        }
        long held = store.estimatedBytes();

        assertThat(store.removeJob(JOB_A)).isEqualTo(held - empty);
        assertThat(store.estimatedBytes()).isEqualTo(empty);
    }

    /**
     * What a store holding {@code checkpoints} checkpoints of one job with 4 subtasks a task takes.
     */
    private static long bytesOf(String job, int checkpoints) {
        return bytesOf(job, checkpoints, 4);
    }

    private static long bytesOf(String job, int checkpoints, int subtasks) {
        CheckpointStore store = new CheckpointStore(1000, 100);
        for (long id = 1; id <= checkpoints; id++) {
            store.add(record(job, id, subtasks));
        }
        return store.estimatedBytes();
    }

    /**
     * A checkpoint with {@code subtasks} subtasks per task, parsed from a span as Flink reports it.
     */
    private static CheckpointRecord record(String job, long id, int subtasks) {
        return CheckpointParser.fromSpan(
                FlinkTelemetry.checkpointSpan(job, id, id * 1_000, id * 1_000 + 300, id, subtasks));
    }
}
