package io.flinkinsight.plugin.store.checkpoint;

import java.util.List;

/**
 * One task's (job vertex's) part of a checkpoint, from a {@code Checkpoint_Task} span; subtasks are
 * present when {@code traces.checkpoint.span-detail-level} is {@code CHILDREN_SPANS_PER_SUBTASK}.
 *
 * @param vertexName the vertex name when known (the hub learns it from Flink's REST API), else null
 * @param startTime trigger time plus the smallest start delay among the task's subtasks
 * @param endTime the task's latest acknowledgement
 */
public record TaskCheckpoint(
        String vertexId,
        String vertexName,
        long startTime,
        long endTime,
        PhaseFigures max,
        PhaseFigures sum,
        List<SubtaskCheckpoint> subtasks) {

    public TaskCheckpoint {
        subtasks = List.copyOf(subtasks);
    }

    public TaskCheckpoint withVertexName(String name) {
        return new TaskCheckpoint(vertexId, name, startTime, endTime, max, sum, subtasks);
    }
}
