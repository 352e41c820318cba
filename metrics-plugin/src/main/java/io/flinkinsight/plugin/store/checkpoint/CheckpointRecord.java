package io.flinkinsight.plugin.store.checkpoint;

import java.util.List;
import java.util.function.Function;

/**
 * One checkpoint of one job as Flink's JobManager reported it at completion or failure.
 *
 * @param status Flink's {@code CheckpointStatsStatus}: COMPLETED or FAILED
 * @param type Flink's checkpoint type name: "Checkpoint", "Full Checkpoint", "Savepoint",
 *     "Terminate Savepoint", ...
 * @param triggerTime when the checkpoint was triggered (span start)
 * @param endTime the latest acknowledgement (span end)
 * @param fullSize the full state size in bytes
 * @param checkpointedSize the bytes this checkpoint uploaded (the async phase's upload; incremental
 *     size)
 * @param max the maximum over all subtasks of each phase figure
 * @param sum the sum over all subtasks of each phase figure
 * @param tasks per task details when the span detail level gives them, else empty
 * @param source "span" when the trace reporter delivered it, "event" when only the CheckpointEvent
 *     did, "rest" when only the hub read it from Flink's REST API (a Flink before 2.2, whose span
 *     carries fewer figures); a span's record keeps "span" when REST filled in what it lacked
 */
public record CheckpointRecord(
        String jobId,
        String jobName,
        long checkpointId,
        String status,
        String type,
        Boolean unaligned,
        long triggerTime,
        long endTime,
        Long durationMs,
        Long fullSize,
        Long checkpointedSize,
        Long metadataSize,
        PhaseFigures max,
        PhaseFigures sum,
        List<TaskCheckpoint> tasks,
        String source) {

    public CheckpointRecord {
        // A stored checkpoint's tasks are an immutable view built when read; any other list is
        // copied
        tasks = tasks instanceof StoredCheckpoint.Tasks ? tasks : List.copyOf(tasks);
    }

    public boolean isSavepoint() {
        return type != null && type.contains("Savepoint");
    }

    public boolean hasSubtaskDetail() {
        return tasks.stream().anyMatch(t -> !t.subtasks().isEmpty());
    }

    /**
     * One report of this checkpoint from two sources: every figure this one gives, the others from
     * {@code other} (the same checkpoint, e.g. from Flink's REST API); its tasks when it has any.
     */
    public CheckpointRecord orElse(CheckpointRecord other) {
        return new CheckpointRecord(
                jobId,
                PhaseFigures.first(jobName, other.jobName),
                checkpointId,
                PhaseFigures.first(status, other.status),
                PhaseFigures.first(type, other.type),
                PhaseFigures.first(unaligned, other.unaligned),
                triggerTime > 0 ? triggerTime : other.triggerTime,
                endTime > 0 ? endTime : other.endTime,
                PhaseFigures.first(durationMs, other.durationMs),
                PhaseFigures.first(fullSize, other.fullSize),
                PhaseFigures.first(checkpointedSize, other.checkpointedSize),
                PhaseFigures.first(metadataSize, other.metadataSize),
                max.orElse(other.max),
                sum.orElse(other.sum),
                tasks.isEmpty() ? other.tasks : tasks,
                source);
    }

    /**
     * A copy without per-subtask details (per-task figures stay), to bound the memory of old
     * checkpoints.
     */
    public CheckpointRecord withoutSubtaskDetail() {
        List<TaskCheckpoint> lean =
                tasks.stream()
                        .map(
                                t ->
                                        new TaskCheckpoint(
                                                t.vertexId(),
                                                t.vertexName(),
                                                t.startTime(),
                                                t.endTime(),
                                                t.max(),
                                                t.sum(),
                                                List.of()))
                        .toList();
        return new CheckpointRecord(
                jobId,
                jobName,
                checkpointId,
                status,
                type,
                unaligned,
                triggerTime,
                endTime,
                durationMs,
                fullSize,
                checkpointedSize,
                metadataSize,
                max,
                sum,
                lean,
                source);
    }

    /** A copy without per-task details, for answers that only need the checkpoint's own figures. */
    public CheckpointRecord withoutTasks() {
        if (tasks.isEmpty()) {
            return this;
        }
        return new CheckpointRecord(
                jobId,
                jobName,
                checkpointId,
                status,
                type,
                unaligned,
                triggerTime,
                endTime,
                durationMs,
                fullSize,
                checkpointedSize,
                metadataSize,
                max,
                sum,
                List.of(),
                source);
    }

    /**
     * A copy with vertex names filled in from {@code names} (vertex id to name; null when unknown).
     */
    public CheckpointRecord withVertexNames(Function<String, String> names) {
        if (tasks.isEmpty()) {
            return this;
        }
        List<TaskCheckpoint> named =
                tasks.stream().map(t -> t.withVertexName(names.apply(t.vertexId()))).toList();
        return new CheckpointRecord(
                jobId,
                jobName,
                checkpointId,
                status,
                type,
                unaligned,
                triggerTime,
                endTime,
                durationMs,
                fullSize,
                checkpointedSize,
                metadataSize,
                max,
                sum,
                named,
                source);
    }
}
