package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.api.CompareEndpoint.Column;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;

import java.util.List;
import java.util.Map;

/**
 * A column of the comparison with the samples its statistics are computed from.
 *
 * @param windowMillis the time the job ran within the column's window, which counts per hour rest
 *     on
 * @param completed the completed checkpoints in the window, oldest first
 * @param failed the failed checkpoints in the window
 * @param rates per rate statistic ({@code records_in}, {@code latency_p99}, ...), its samples in
 *     the window
 */
record ColumnFigures(
        Column column,
        long windowMillis,
        List<CheckpointRecord> completed,
        int failed,
        Map<String, double[]> rates) {}
