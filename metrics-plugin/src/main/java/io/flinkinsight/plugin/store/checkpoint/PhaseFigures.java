package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.Attributes;

import java.util.Map;

/**
 * The per-phase figures Flink reports for a checkpoint (as max or sum over subtasks, or one
 * subtask's own values). A null field was not reported. {@code checkpointedSizeBytes} is what the
 * async phase uploaded.
 */
public record PhaseFigures(
        Long stateSizeBytes,
        Long checkpointedSizeBytes,
        Long startDelayMs,
        Long alignmentDurationMs,
        Long syncDurationMs,
        Long asyncDurationMs,
        Long processedDataBytes,
        Long persistedDataBytes) {

    public static final PhaseFigures NONE =
            new PhaseFigures(null, null, null, null, null, null, null, null);

    /**
     * Reads {@code <prefix>StateSizeBytes}, {@code <prefix>CheckpointedSizeBytes}, ... as named by
     * Flink 2.2's {@code DefaultCheckpointStatsTracker.CHECKPOINT_SPAN_METRICS}; prefix is "max",
     * "sum" or "" (subtask spans).
     */
    public static PhaseFigures read(Map<String, Object> attributes, String prefix) {
        return new PhaseFigures(
                Attributes.asLong(attributes, prefix + "StateSizeBytes"),
                Attributes.asLong(attributes, prefix + "CheckpointedSizeBytes"),
                Attributes.asLong(attributes, prefix + "CheckpointStartDelayMs"),
                Attributes.asLong(attributes, prefix + "AlignmentDurationMs"),
                Attributes.asLong(attributes, prefix + "SyncCheckpointDurationMs"),
                Attributes.asLong(attributes, prefix + "AsyncCheckpointDurationMs"),
                Attributes.asLong(attributes, prefix + "ProcessedDataBytes"),
                Attributes.asLong(attributes, prefix + "PersistedDataBytes"));
    }

    /**
     * These figures with the two sizes replaced where given (Flink reports the checkpoint sums
     * under other names).
     */
    public PhaseFigures withSizes(Long stateSize, Long checkpointedSize) {
        return new PhaseFigures(
                stateSize != null ? stateSize : stateSizeBytes,
                checkpointedSize != null ? checkpointedSize : checkpointedSizeBytes,
                startDelayMs,
                alignmentDurationMs,
                syncDurationMs,
                asyncDurationMs,
                processedDataBytes,
                persistedDataBytes);
    }

    /** These figures, each one not reported taken from {@code other}. */
    public PhaseFigures orElse(PhaseFigures other) {
        return new PhaseFigures(
                first(stateSizeBytes, other.stateSizeBytes),
                first(checkpointedSizeBytes, other.checkpointedSizeBytes),
                first(startDelayMs, other.startDelayMs),
                first(alignmentDurationMs, other.alignmentDurationMs),
                first(syncDurationMs, other.syncDurationMs),
                first(asyncDurationMs, other.asyncDurationMs),
                first(processedDataBytes, other.processedDataBytes),
                first(persistedDataBytes, other.persistedDataBytes));
    }

    static <T> T first(T value, T otherwise) {
        return value != null ? value : otherwise;
    }
}
