package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.api.CompareEndpoint.Cell;
import io.flinkinsight.plugin.api.CompareEndpoint.Column;
import io.flinkinsight.plugin.api.CompareEndpoint.Row;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.job.JobSettings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the comparison shows across its columns: the rows of statistics, each cell with its change
 * against the first column, and the settings that differ between the columns. Pure functions of the
 * columns' figures.
 */
final class CompareRows {

    private CompareRows() {}

    /**
     * The names of the settings whose values differ between the columns (unknown counts as a
     * value).
     */
    static List<String> differences(List<Column> columns) {
        Map<String, Function<JobSettings, Object>> fields = new LinkedHashMap<>();
        fields.put("stateBackend", JobSettings::stateBackend);
        fields.put("incremental", JobSettings::incremental);
        fields.put("changelog", JobSettings::changelog);
        // the interval only matters where the changelog is on
        fields.put(
                "materializationIntervalMs",
                js -> Boolean.TRUE.equals(js.changelog()) ? js.materializationIntervalMs() : null);
        fields.put("checkpointIntervalMs", JobSettings::checkpointIntervalMs);
        fields.put("checkpointMode", JobSettings::checkpointMode);
        fields.put("unaligned", JobSettings::unaligned);
        fields.put("parallelism", JobSettings::parallelism);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Function<JobSettings, Object>> f : fields.entrySet()) {
            Object first = value(columns.get(0).settings(), f.getValue());
            for (Column c : columns.subList(1, columns.size())) {
                if (!Objects.equals(first, value(c.settings(), f.getValue()))) {
                    out.add(f.getKey());
                    break;
                }
            }
        }
        return out;
    }

    private static Object value(JobSettings settings, Function<JobSettings, Object> field) {
        return settings == null ? null : field.apply(settings);
    }

    static List<Row> rows(List<ColumnFigures> columns) {
        List<Row> rows = new ArrayList<>();
        rows.add(
                row(
                        "completed_per_hour",
                        "Checkpoints completed per hour",
                        "1/h",
                        columns,
                        c -> perHour(c.completed().size(), c.windowMillis())));
        rows.add(
                row(
                        "failed_per_hour",
                        "Checkpoints failed per hour",
                        "1/h",
                        columns,
                        c -> perHour(c.failed(), c.windowMillis())));
        rows.add(
                percentileRow(
                        "duration_p50",
                        "Checkpoint duration P50",
                        "ms",
                        columns,
                        50,
                        CompareColumns::duration));
        rows.add(
                percentileRow(
                        "duration_p99",
                        "Checkpoint duration P99",
                        "ms",
                        columns,
                        99,
                        CompareColumns::duration));
        rows.add(
                percentileRow(
                        "duration_p999",
                        "Checkpoint duration P99.9",
                        "ms",
                        columns,
                        99.9,
                        CompareColumns::duration));
        rows.add(
                percentileRow(
                        "checkpointed_size_p50",
                        "Checkpointed (async-phase) size P50",
                        "bytes",
                        columns,
                        50,
                        CheckpointRecord::checkpointedSize));
        rows.add(
                percentileRow(
                        "checkpointed_size_p99",
                        "Checkpointed (async-phase) size P99",
                        "bytes",
                        columns,
                        99,
                        CheckpointRecord::checkpointedSize));
        rows.add(
                percentileRow(
                        "full_size_p50",
                        "Full size P50",
                        "bytes",
                        columns,
                        50,
                        CheckpointRecord::fullSize));
        rows.add(
                row(
                        "full_size_last",
                        "Full size, last checkpoint",
                        "bytes",
                        columns,
                        CompareRows::lastFullSize));
        rows.add(
                percentileRow(
                        "async_p50",
                        "Async phase P50 (slowest subtask)",
                        "ms",
                        columns,
                        50,
                        r -> phase(r, PhaseFigures::asyncDurationMs)));
        rows.add(
                percentileRow(
                        "async_p99",
                        "Async phase P99 (slowest subtask)",
                        "ms",
                        columns,
                        99,
                        r -> phase(r, PhaseFigures::asyncDurationMs)));
        rows.add(
                percentileRow(
                        "sync_p50",
                        "Sync phase P50 (slowest subtask)",
                        "ms",
                        columns,
                        50,
                        r -> phase(r, PhaseFigures::syncDurationMs)));
        rows.add(
                percentileRow(
                        "sync_p99",
                        "Sync phase P99 (slowest subtask)",
                        "ms",
                        columns,
                        99,
                        r -> phase(r, PhaseFigures::syncDurationMs)));
        rows.add(
                meanRow(
                        "records_in",
                        "Records in per second (mean, busiest vertex)",
                        "records/s",
                        columns));
        rows.add(
                meanRow(
                        "records_out",
                        "Records out per second (mean, busiest vertex)",
                        "records/s",
                        columns));
        rows.add(
                meanRow(
                        "latency_p50",
                        "Latency-marker p50 (mean, furthest vertex)",
                        "ms",
                        columns));
        rows.add(
                meanRow(
                        "latency_p99",
                        "Latency-marker p99 (mean, furthest vertex)",
                        "ms",
                        columns));
        rows.add(meanRow("busy", "Busy time (mean, busiest vertex)", "ms/s", columns));
        rows.add(
                meanRow(
                        "backpressured",
                        "Backpressured time (mean, most backpressured vertex)",
                        "ms/s",
                        columns));
        return rows;
    }

    private static Cell lastFullSize(ColumnFigures c) {
        for (int i = c.completed().size() - 1; i >= 0; i--) {
            if (c.completed().get(i).fullSize() != null) {
                return new Cell(c.completed().get(i).fullSize().doubleValue(), 1, null);
            }
        }
        return new Cell(null, 0, null);
    }

    private static Long phase(CheckpointRecord r, Function<PhaseFigures, Long> field) {
        return r.max() == null ? null : field.apply(r.max());
    }

    private static Cell perHour(long count, long windowMillis) {
        return new Cell(SampleStatistics.perHour(count, windowMillis), (int) count, null);
    }

    private static Row percentileRow(
            String key,
            String label,
            String unit,
            List<ColumnFigures> columns,
            double p,
            Function<CheckpointRecord, Long> field) {
        return row(
                key,
                label,
                unit,
                columns,
                c -> {
                    double[] values =
                            c.completed().stream()
                                    .map(field)
                                    .filter(Objects::nonNull)
                                    .mapToDouble(Long::doubleValue)
                                    .toArray();
                    return new Cell(SampleStatistics.percentile(values, p), values.length, null);
                });
    }

    private static Row meanRow(String key, String label, String unit, List<ColumnFigures> columns) {
        return row(
                key,
                label,
                unit,
                columns,
                c -> {
                    double[] values = c.rates().get(key);
                    return new Cell(SampleStatistics.mean(values), values.length, null);
                });
    }

    /** A row of per-column cells, each with its change against the first column. */
    private static Row row(
            String key,
            String label,
            String unit,
            List<ColumnFigures> columns,
            Function<ColumnFigures, Cell> cell) {
        List<Cell> cells = new ArrayList<>();
        Double base = null;
        for (int i = 0; i < columns.size(); i++) {
            Cell c = cell.apply(columns.get(i));
            if (i == 0) {
                base = c.value();
                cells.add(c);
            } else {
                cells.add(
                        new Cell(
                                c.value(),
                                c.samples(),
                                SampleStatistics.changePercent(c.value(), base)));
            }
        }
        return new Row(key, label, unit, cells);
    }
}
