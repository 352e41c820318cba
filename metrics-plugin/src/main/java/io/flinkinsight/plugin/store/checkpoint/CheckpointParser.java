package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.store.Attributes;

import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns Flink's {@code Checkpoint} span (with, since 2.2, {@code Checkpoint_Task} / {@code
 * Checkpoint_Subtask} children and phase figures) and {@code CheckpointEvent} into {@link
 * CheckpointRecord}s. Names and attribute keys are those of {@code
 * DefaultCheckpointStatsTracker.logCheckpointStatistics}; the job id comes from {@code
 * JobMetricGroup}. Before 2.2 a span has no {@code getChildren()}: it is only called when the
 * loaded Flink has it.
 */
public final class CheckpointParser {

    public static final String CHECKPOINT_SPAN = "Checkpoint";
    public static final String TASK_SPAN = "Checkpoint_Task";
    public static final String SUBTASK_SPAN = "Checkpoint_Subtask";
    public static final String CHECKPOINT_EVENT = "CheckpointEvent";

    /**
     * Flink emits one task span per vertex; this caps what one checkpoint may hold, whatever
     * arrives.
     */
    static final int MAX_TASKS = 256;

    /** Subtask details kept per checkpoint, over all its tasks; further subtasks are left out. */
    static final int MAX_SUBTASKS_PER_CHECKPOINT = 1024;

    private CheckpointParser() {}

    /**
     * As {@link #fromSpan(Span, boolean)}, reading children when the loaded Flink's spans have
     * them.
     */
    public static CheckpointRecord fromSpan(Span span) {
        return fromSpan(span, FlinkCapabilities.current().spanChildren());
    }

    /**
     * The record of a {@code Checkpoint} span, or null when it lacks a job id or checkpoint id.
     *
     * @param spansHaveChildren whether this Flink's {@code Span} has {@code getChildren()} (Flink
     *     2.2+)
     */
    public static CheckpointRecord fromSpan(Span span, boolean spansHaveChildren) {
        Map<String, Object> a = span.getAttributes();
        String jobId = Attributes.jobId(a);
        Long id = Attributes.asLong(a, "checkpointId");
        if (jobId == null || id == null) {
            return null;
        }
        Long fullSize = Attributes.asLong(a, "fullSize");
        Long checkpointedSize = Attributes.asLong(a, "checkpointedSize");
        List<TaskCheckpoint> tasks = new ArrayList<>();
        int[] subtaskBudget = {MAX_SUBTASKS_PER_CHECKPOINT};
        for (Span child : spansHaveChildren ? span.getChildren() : List.<Span>of()) {
            if (tasks.size() >= MAX_TASKS) {
                break;
            }
            if (TASK_SPAN.equals(child.getName())) {
                tasks.add(task(child, subtaskBudget));
            }
        }
        return new CheckpointRecord(
                jobId,
                Attributes.jobName(a),
                id,
                Attributes.asString(a, "checkpointStatus"),
                Attributes.asString(a, "checkpointType"),
                Attributes.asBoolean(a, "isUnaligned"),
                span.getStartTsMillis(),
                span.getEndTsMillis(),
                duration(span.getStartTsMillis(), span.getEndTsMillis()),
                fullSize,
                checkpointedSize,
                Attributes.asLong(a, "metadataSize"),
                PhaseFigures.read(a, "max"),
                // Flink leaves out sumStateSizeBytes / sumCheckpointedSizeBytes: they are fullSize
                // / checkpointedSize
                PhaseFigures.read(a, "sum").withSizes(fullSize, checkpointedSize),
                tasks,
                "span");
    }

    /**
     * The record of a {@code CheckpointEvent} (no phase figures), or null when it lacks the ids.
     */
    public static CheckpointRecord fromEvent(Event event) {
        Map<String, Object> a = event.getAttributes();
        String jobId = Attributes.jobId(a);
        Long id = Attributes.asLong(a, "checkpointId");
        if (jobId == null || id == null) {
            return null;
        }
        long end = event.getObservedTsMillis();
        return new CheckpointRecord(
                jobId,
                Attributes.jobName(a),
                id,
                Attributes.asString(a, "checkpointStatus"),
                Attributes.asString(a, "checkpointType"),
                Attributes.asBoolean(a, "isUnaligned"),
                0,
                end,
                null,
                Attributes.asLong(a, "fullSize"),
                Attributes.asLong(a, "checkpointedSize"),
                Attributes.asLong(a, "metadataSize"),
                PhaseFigures.NONE,
                PhaseFigures.NONE,
                List.of(),
                "event");
    }

    private static TaskCheckpoint task(Span span, int[] subtaskBudget) {
        Map<String, Object> a = span.getAttributes();
        List<SubtaskCheckpoint> subtasks = new ArrayList<>();
        for (Span child : span.getChildren()) {
            if (subtaskBudget[0] <= 0) {
                break;
            }
            if (SUBTASK_SPAN.equals(child.getName())) {
                subtaskBudget[0]--;
                Long index = Attributes.asLong(child.getAttributes(), "subtaskId");
                subtasks.add(
                        new SubtaskCheckpoint(
                                index == null ? -1 : index.intValue(),
                                child.getStartTsMillis(),
                                child.getEndTsMillis(),
                                PhaseFigures.read(child.getAttributes(), "")));
            }
        }
        return new TaskCheckpoint(
                Attributes.asString(a, "jobVertexId"),
                null,
                span.getStartTsMillis(),
                span.getEndTsMillis(),
                PhaseFigures.read(a, "max"),
                PhaseFigures.read(a, "sum"),
                subtasks);
    }

    private static Long duration(long start, long end) {
        return start > 0 && end >= start ? end - start : null;
    }
}
