package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.FlinkTelemetry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointStoreTest {

    private static final String JOB_A = "0000000000000000000000000000000a";
    private static final String JOB_B = "0000000000000000000000000000000b";
    private static final String JOB_C = "0000000000000000000000000000000c";

    private static CheckpointRecord span(String job, long id) {
        return CheckpointParser.fromSpan(FlinkTelemetry.checkpointSpan(job, id, id * 1000, id * 1000 + 100, id, 0));
    }

    private static CheckpointRecord event(String job, long id) {
        return CheckpointParser.fromEvent(FlinkTelemetry.checkpointEvent(job, id, id * 1000 + 100, id));
    }

    @Test
    void keepsTheNewestCheckpointsPerJobNewestFirst() {
        CheckpointStore store = new CheckpointStore(3, 10);
        for (long id = 1; id <= 5; id++) {
            store.add(span(JOB_A, id));
        }

        assertThat(store.newestFirst(JOB_A, 10)).extracting(CheckpointRecord::checkpointId).containsExactly(5L, 4L, 3L);
        assertThat(store.newestFirst(JOB_A, 2)).extracting(CheckpointRecord::checkpointId).containsExactly(5L, 4L);
        assertThat(store.latest(JOB_A).checkpointId()).isEqualTo(5);
    }

    @Test
    void outOfOrderCompletionsAreKeptInIdOrder() {
        CheckpointStore store = new CheckpointStore(10, 10);
        store.add(span(JOB_A, 2));
        store.add(span(JOB_A, 1));
        store.add(span(JOB_A, 3));

        assertThat(store.newestFirst(JOB_A, 10)).extracting(CheckpointRecord::checkpointId).containsExactly(3L, 2L, 1L);
    }

    @Test
    void spanReplacesTheEventOfTheSameCheckpointButNotTheOtherWayRound() {
        CheckpointStore store = new CheckpointStore(10, 10);
        store.addIfAbsent(event(JOB_A, 1));
        store.add(span(JOB_A, 1));
        store.addIfAbsent(event(JOB_A, 1));

        assertThat(store.newestFirst(JOB_A, 10)).singleElement()
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
            store.add(CheckpointParser.fromSpan(FlinkTelemetry.checkpointSpan(JOB_A, id, id * 1000, id * 1000 + 1, id, 2)));
        }

        var all = store.newestFirst(JOB_A, 100);
        assertThat(all).hasSize(total);
        assertThat(all.subList(0, CheckpointStore.CHECKPOINTS_WITH_SUBTASK_DETAIL))
                .allSatisfy(r -> assertThat(r.hasSubtaskDetail()).isTrue());
        assertThat(all.subList(CheckpointStore.CHECKPOINTS_WITH_SUBTASK_DETAIL, total)).allSatisfy(r -> {
            assertThat(r.hasSubtaskDetail()).isFalse();
            assertThat(r.tasks()).hasSize(2); // per-task figures stay
        });
    }

    @Test
    void overItsByteBudgetTheJobWrittenLeastRecentlyGoesFirstAndTheWrittenJobKeepsItsNewest() {
        CheckpointRecord probe = record("a0000000000000000000000000000000", 1, 4);
        long one = probe.estimatedBytes();
        CheckpointStore store = new CheckpointStore(1000, 100, 10 * one);
        String finished = "f0000000000000000000000000000000";
        String running = "b0000000000000000000000000000000";
        for (long id = 1; id <= 6; id++) {
            store.add(record(finished, id, 4));
        }
        for (long id = 1; id <= 6; id++) {
            store.add(record(running, id, 4));
        }

        assertThat(store.estimatedBytes()).isLessThanOrEqualTo(10 * one);
        assertThat(store.jobIds()).containsExactly(running).doesNotContain(finished);
        assertThat(store.newestFirst(running, 10)).hasSize(6);
        assertThat(store.evicted()).isEqualTo(1);

        for (long id = 7; id <= 30; id++) {
            store.add(record(running, id, 4));
        }
        assertThat(store.estimatedBytes()).isLessThanOrEqualTo(10 * one);
        assertThat(store.latest(running).checkpointId()).as("the newest is kept").isEqualTo(30);
        assertThat(store.newestFirst(running, 100)).hasSize(10);
    }

    @Test
    void estimatesGrowWithTasksAndSubtasks() {
        long bare = record("a0000000000000000000000000000000", 1, 0).estimatedBytes();
        long four = record("a0000000000000000000000000000000", 1, 4).estimatedBytes();

        assertThat(four).isGreaterThan(bare);
    }

    /** A checkpoint with {@code subtasks} subtasks per task, parsed from a span as Flink reports it. */
    private static CheckpointRecord record(String job, long id, int subtasks) {
        return CheckpointParser.fromSpan(FlinkTelemetry.checkpointSpan(job, id, id * 1_000, id * 1_000 + 300, id,
                subtasks));
    }
}
