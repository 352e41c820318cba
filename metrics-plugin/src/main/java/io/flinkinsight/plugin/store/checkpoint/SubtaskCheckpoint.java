package io.flinkinsight.plugin.store.checkpoint;

/**
 * One subtask's part of a checkpoint, from a {@code Checkpoint_Subtask} span.
 *
 * @param startTime trigger time plus this subtask's start delay
 * @param endTime when this subtask acknowledged
 */
public record SubtaskCheckpoint(
        int subtaskIndex, long startTime, long endTime, PhaseFigures figures) {}
