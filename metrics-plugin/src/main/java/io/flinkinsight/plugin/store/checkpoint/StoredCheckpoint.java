package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A checkpoint as the store holds it: every figure in primitive arrays ({@link #ABSENT} where Flink
 * reported none), its strings shared per job. A 30-task checkpoint is a handful of arrays instead
 * of thousands of boxed figures. {@link #toRecord()} gives the {@link CheckpointRecord} the API
 * serves; its tasks are built only when read. Immutable.
 */
final class StoredCheckpoint {

    /**
     * Stands for a figure Flink did not report (null in the record); no real figure is {@code
     * Long.MIN_VALUE}.
     */
    static final long ABSENT = Long.MIN_VALUE;

    private static final int FIGURES = 8;

    /** Per task: start, end, the max figures, the sum figures. */
    private static final int TASK_STRIDE = 2 + 2 * FIGURES;

    /** Per subtask: start, end, its figures. */
    private static final int SUBTASK_STRIDE = 2 + FIGURES;

    /** This object: eight longs, one byte, twelve references. */
    private static final long OBJECT_BYTES = HeapSizes.object(8 * 8 + 1 + 12 * HeapSizes.REFERENCE);

    private final String jobId;
    private final String jobName;
    private final long checkpointId;
    private final String status;
    private final String type;
    private final byte unaligned;
    private final long triggerTime;
    private final long endTime;
    private final long durationMs;
    private final long fullSize;
    private final long checkpointedSize;
    private final long metadataSize;
    private final String source;

    /** The checkpoint's max figures, then its sum figures. */
    private final long[] figures;

    /** Per task, or null when the checkpoint has no task details. */
    private final String[] vertexIds;

    /** Per task, or null when no task has a name. */
    private final String[] vertexNames;

    private final long[] taskFigures;

    /** Per task, where its subtasks end in the subtask arrays; null without per-subtask details. */
    private final int[] subtaskEnds;

    private final int[] subtaskIndexes;
    private final long[] subtaskFigures;

    /** Strings this checkpoint holds that its job's {@link SharedStrings} does not. */
    private final long unsharedStringBytes;

    private StoredCheckpoint(
            CheckpointRecord r,
            SharedStrings strings,
            long[] figures,
            String[] vertexIds,
            String[] vertexNames,
            long[] taskFigures,
            int[] subtaskEnds,
            int[] subtaskIndexes,
            long[] subtaskFigures) {
        this.jobId = strings.share(r.jobId());
        this.jobName = strings.share(r.jobName());
        this.checkpointId = r.checkpointId();
        this.status = strings.share(r.status());
        this.type = strings.share(r.type());
        this.unaligned = r.unaligned() == null ? (byte) -1 : r.unaligned() ? (byte) 1 : (byte) 0;
        this.triggerTime = r.triggerTime();
        this.endTime = r.endTime();
        this.durationMs = orAbsent(r.durationMs());
        this.fullSize = orAbsent(r.fullSize());
        this.checkpointedSize = orAbsent(r.checkpointedSize());
        this.metadataSize = orAbsent(r.metadataSize());
        this.source = strings.share(r.source());
        this.figures = figures;
        this.vertexIds = vertexIds;
        this.vertexNames = vertexNames;
        this.taskFigures = taskFigures;
        this.subtaskEnds = subtaskEnds;
        this.subtaskIndexes = subtaskIndexes;
        this.subtaskFigures = subtaskFigures;
        long unshared =
                strings.unsharedBytes(jobId)
                        + strings.unsharedBytes(jobName)
                        + strings.unsharedBytes(status)
                        + strings.unsharedBytes(type)
                        + strings.unsharedBytes(source);
        for (int i = 0; vertexIds != null && i < vertexIds.length; i++) {
            unshared +=
                    strings.unsharedBytes(vertexIds[i])
                            + (vertexNames == null ? 0 : strings.unsharedBytes(vertexNames[i]));
        }
        this.unsharedStringBytes = unshared;
    }

    /** The compact form of {@code r}, its strings shared through {@code strings} (its job's). */
    static StoredCheckpoint of(CheckpointRecord r, SharedStrings strings) {
        long[] figures = new long[2 * FIGURES];
        put(figures, 0, r.max());
        put(figures, FIGURES, r.sum());
        List<TaskCheckpoint> tasks = r.tasks();
        if (tasks.isEmpty()) {
            return new StoredCheckpoint(r, strings, figures, null, null, null, null, null, null);
        }
        int n = tasks.size();
        String[] vertexIds = new String[n];
        String[] vertexNames = null;
        long[] taskFigures = new long[n * TASK_STRIDE];
        int subtasks = 0;
        for (int i = 0; i < n; i++) {
            TaskCheckpoint t = tasks.get(i);
            vertexIds[i] = strings.share(t.vertexId());
            if (t.vertexName() != null) {
                if (vertexNames == null) {
                    vertexNames = new String[n];
                }
                vertexNames[i] = strings.share(t.vertexName());
            }
            int at = i * TASK_STRIDE;
            taskFigures[at] = t.startTime();
            taskFigures[at + 1] = t.endTime();
            put(taskFigures, at + 2, t.max());
            put(taskFigures, at + 2 + FIGURES, t.sum());
            subtasks += t.subtasks().size();
        }
        if (subtasks == 0) {
            return new StoredCheckpoint(
                    r, strings, figures, vertexIds, vertexNames, taskFigures, null, null, null);
        }
        int[] ends = new int[n];
        int[] indexes = new int[subtasks];
        long[] subtaskFigures = new long[subtasks * SUBTASK_STRIDE];
        int s = 0;
        for (int i = 0; i < n; i++) {
            for (SubtaskCheckpoint sub : tasks.get(i).subtasks()) {
                indexes[s] = sub.subtaskIndex();
                int at = s * SUBTASK_STRIDE;
                subtaskFigures[at] = sub.startTime();
                subtaskFigures[at + 1] = sub.endTime();
                put(subtaskFigures, at + 2, sub.figures());
                s++;
            }
            ends[i] = s;
        }
        return new StoredCheckpoint(
                r,
                strings,
                figures,
                vertexIds,
                vertexNames,
                taskFigures,
                ends,
                indexes,
                subtaskFigures);
    }

    private StoredCheckpoint(StoredCheckpoint c) {
        this.jobId = c.jobId;
        this.jobName = c.jobName;
        this.checkpointId = c.checkpointId;
        this.status = c.status;
        this.type = c.type;
        this.unaligned = c.unaligned;
        this.triggerTime = c.triggerTime;
        this.endTime = c.endTime;
        this.durationMs = c.durationMs;
        this.fullSize = c.fullSize;
        this.checkpointedSize = c.checkpointedSize;
        this.metadataSize = c.metadataSize;
        this.source = c.source;
        this.figures = c.figures;
        this.vertexIds = c.vertexIds;
        this.vertexNames = c.vertexNames;
        this.taskFigures = c.taskFigures;
        this.subtaskEnds = null;
        this.subtaskIndexes = null;
        this.subtaskFigures = null;
        this.unsharedStringBytes = c.unsharedStringBytes;
    }

    /** This checkpoint without per-subtask details (per-task figures stay). */
    StoredCheckpoint withoutSubtaskDetail() {
        return subtaskEnds == null ? this : new StoredCheckpoint(this);
    }

    boolean hasSubtaskDetail() {
        return subtaskEnds != null;
    }

    long checkpointId() {
        return checkpointId;
    }

    long triggerTime() {
        return triggerTime;
    }

    /**
     * Estimated heap bytes: this object, its arrays by their lengths, the strings not shared with
     * its job.
     */
    long estimatedBytes() {
        long bytes = OBJECT_BYTES + HeapSizes.longArray(figures.length) + unsharedStringBytes;
        if (vertexIds != null) {
            bytes +=
                    HeapSizes.referenceArray(vertexIds.length)
                            + HeapSizes.longArray(taskFigures.length);
        }
        if (vertexNames != null) {
            bytes += HeapSizes.referenceArray(vertexNames.length);
        }
        if (subtaskEnds != null) {
            bytes +=
                    HeapSizes.intArray(subtaskEnds.length)
                            + HeapSizes.intArray(subtaskIndexes.length)
                            + HeapSizes.longArray(subtaskFigures.length);
        }
        return bytes;
    }

    /** The record the API serves; its tasks are a view built task by task when read. */
    CheckpointRecord toRecord() {
        return new CheckpointRecord(
                jobId,
                jobName,
                checkpointId,
                status,
                type,
                unaligned < 0 ? null : unaligned == 1,
                triggerTime,
                endTime,
                box(durationMs),
                box(fullSize),
                box(checkpointedSize),
                box(metadataSize),
                figures(figures, 0),
                figures(figures, FIGURES),
                vertexIds == null ? List.of() : new Tasks(),
                source);
    }

    /** The tasks of a stored checkpoint, built when read; immutable. */
    final class Tasks extends AbstractList<TaskCheckpoint> implements RandomAccess {

        @Override
        public TaskCheckpoint get(int i) {
            int at = i * TASK_STRIDE;
            return new TaskCheckpoint(
                    vertexIds[i],
                    vertexNames == null ? null : vertexNames[i],
                    taskFigures[at],
                    taskFigures[at + 1],
                    figures(taskFigures, at + 2),
                    figures(taskFigures, at + 2 + FIGURES),
                    subtasks(i));
        }

        @Override
        public int size() {
            return vertexIds.length;
        }

        private List<SubtaskCheckpoint> subtasks(int task) {
            if (subtaskEnds == null) {
                return List.of();
            }
            int from = task == 0 ? 0 : subtaskEnds[task - 1];
            List<SubtaskCheckpoint> out = new ArrayList<>(subtaskEnds[task] - from);
            for (int s = from; s < subtaskEnds[task]; s++) {
                int at = s * SUBTASK_STRIDE;
                out.add(
                        new SubtaskCheckpoint(
                                subtaskIndexes[s],
                                subtaskFigures[at],
                                subtaskFigures[at + 1],
                                figures(subtaskFigures, at + 2)));
            }
            return out;
        }
    }

    private static void put(long[] into, int at, PhaseFigures figures) {
        PhaseFigures f = figures == null ? PhaseFigures.NONE : figures;
        into[at] = orAbsent(f.stateSizeBytes());
        into[at + 1] = orAbsent(f.checkpointedSizeBytes());
        into[at + 2] = orAbsent(f.startDelayMs());
        into[at + 3] = orAbsent(f.alignmentDurationMs());
        into[at + 4] = orAbsent(f.syncDurationMs());
        into[at + 5] = orAbsent(f.asyncDurationMs());
        into[at + 6] = orAbsent(f.processedDataBytes());
        into[at + 7] = orAbsent(f.persistedDataBytes());
    }

    private static PhaseFigures figures(long[] from, int at) {
        boolean any = false;
        for (int k = 0; k < FIGURES; k++) {
            any |= from[at + k] != ABSENT;
        }
        if (!any) {
            return PhaseFigures.NONE;
        }
        return new PhaseFigures(
                box(from[at]),
                box(from[at + 1]),
                box(from[at + 2]),
                box(from[at + 3]),
                box(from[at + 4]),
                box(from[at + 5]),
                box(from[at + 6]),
                box(from[at + 7]));
    }

    private static long orAbsent(Long value) {
        return value == null ? ABSENT : value;
    }

    private static Long box(long value) {
        return value == ABSENT ? null : value;
    }
}
