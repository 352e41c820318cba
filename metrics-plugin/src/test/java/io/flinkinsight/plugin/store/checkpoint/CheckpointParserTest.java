package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.FlinkTelemetry;

import org.apache.flink.traces.Span;

import org.junit.jupiter.api.Test;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

class CheckpointParserTest {

    @Test
    void checkpointSpanYieldsSizesPhaseFiguresAndTimes() {
        CheckpointRecord r =
                CheckpointParser.fromSpan(
                        FlinkTelemetry.checkpointSpan(JOB_ID, 42, 1_000, 1_750, 3, 0));

        assertThat(r.jobId()).isEqualTo(JOB_ID);
        assertThat(r.jobName()).isEqualTo(FlinkTelemetry.JOB_NAME);
        assertThat(r.checkpointId()).isEqualTo(42);
        assertThat(r.status()).isEqualTo("COMPLETED");
        assertThat(r.type()).isEqualTo("Checkpoint");
        assertThat(r.unaligned()).isFalse();
        assertThat(r.triggerTime()).isEqualTo(1_000);
        assertThat(r.endTime()).isEqualTo(1_750);
        assertThat(r.durationMs()).isEqualTo(750);
        assertThat(r.fullSize()).isEqualTo(300);
        assertThat(r.checkpointedSize()).isEqualTo(60);
        assertThat(r.metadataSize()).isEqualTo(1234);
        assertThat(r.max()).isEqualTo(new PhaseFigures(3L, 6L, 9L, 12L, 15L, 18L, 21L, 24L));
        // sums of the sizes are Flink's fullSize / checkpointedSize
        assertThat(r.sum())
                .isEqualTo(new PhaseFigures(300L, 60L, 90L, 120L, 150L, 180L, 210L, 240L));
        assertThat(r.tasks()).isEmpty();
        assertThat(r.source()).isEqualTo("span");
    }

    @Test
    void childSpansYieldPerTaskAndPerSubtaskFigures() {
        CheckpointRecord r =
                CheckpointParser.fromSpan(
                        FlinkTelemetry.checkpointSpan(JOB_ID, 5, 1_000, 2_000, 2, 3));

        assertThat(r.tasks())
                .extracting(TaskCheckpoint::vertexId)
                .containsExactly(FlinkTelemetry.SOURCE_VERTEX, FlinkTelemetry.MAP_VERTEX);
        TaskCheckpoint task = r.tasks().get(0);
        assertThat(task.max().asyncDurationMs()).isEqualTo(12);
        assertThat(task.sum().asyncDurationMs()).isEqualTo(36);
        assertThat(task.subtasks()).hasSize(3);
        SubtaskCheckpoint last = task.subtasks().get(2);
        assertThat(last.subtaskIndex()).isEqualTo(2);
        assertThat(last.figures().checkpointedSizeBytes()).isEqualTo(6);
        assertThat(last.startTime()).isEqualTo(1_003);
        assertThat(last.endTime()).isEqualTo(1_998);
    }

    @Test
    void spanWithoutJobIdIsIgnored() {
        Span span =
                Span.builder(CheckpointParserTest.class, "Checkpoint")
                        .setAttribute("checkpointId", 1L)
                        .build();
        assertThat(CheckpointParser.fromSpan(span)).isNull();
    }

    @Test
    void attributesOfUnexpectedTypesDoNotThrow() {
        Span span =
                Span.builder(CheckpointParserTest.class, "Checkpoint")
                        .setAttribute("jobId", JOB_ID)
                        .setAttribute("checkpointId", "17")
                        .setAttribute("fullSize", "not a number")
                        .setAttribute("maxAsyncCheckpointDurationMs", 2.5)
                        .setAttribute("isUnaligned", true)
                        .build();

        CheckpointRecord r = CheckpointParser.fromSpan(span);

        assertThat(r.checkpointId()).isEqualTo(17);
        assertThat(r.fullSize()).isNull();
        assertThat(r.max().asyncDurationMs()).isEqualTo(2);
        assertThat(r.unaligned()).isTrue();
    }

    @Test
    void checkpointEventYieldsARecordWithoutPhaseFigures() {
        CheckpointRecord r =
                CheckpointParser.fromEvent(FlinkTelemetry.checkpointEvent(JOB_ID, 9, 5_000, 4));

        assertThat(r.checkpointId()).isEqualTo(9);
        assertThat(r.endTime()).isEqualTo(5_000);
        assertThat(r.checkpointedSize()).isEqualTo(80);
        assertThat(r.max()).isEqualTo(PhaseFigures.NONE);
        assertThat(r.source()).isEqualTo("event");
    }

    @Test
    void subtaskDetailsPerCheckpointAreCapped() {
        int perTask =
                CheckpointParser
                        .MAX_SUBTASKS_PER_CHECKPOINT; // two tasks of this many subtasks each
        CheckpointRecord r =
                CheckpointParser.fromSpan(
                        FlinkTelemetry.checkpointSpan(JOB_ID, 1, 1_000, 2_000, 1, perTask));

        int kept = r.tasks().stream().mapToInt(t -> t.subtasks().size()).sum();
        assertThat(kept).isEqualTo(CheckpointParser.MAX_SUBTASKS_PER_CHECKPOINT);
        assertThat(r.tasks()).hasSize(2);
    }
}
