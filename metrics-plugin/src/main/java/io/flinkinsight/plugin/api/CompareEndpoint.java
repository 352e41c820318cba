package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/v1/compare}: two to four columns side by side, each headed by the job's
 * checkpoint-relevant configuration (and which of it differs), with the statistics of the
 * checkpoint-evaluation tables (checkpoints per hour, duration, async-phase and full size, phase
 * durations, throughput, latency, busy and backpressured time), each with its unit, the number of
 * samples it rests on and its change in % against the first column; and per column the completed
 * checkpoints for charts, aligned by time since the column's start. Two forms:
 *
 * <ul>
 *   <li>{@code jobs=<id>,<id>[,<id>[,<id>]]}: 2–4 jobs, each over its whole life as far as the hub
 *       keeps it;
 *   <li>{@code job=<id>&ranges=<from>-<to>,<from>-<to>[,...]}: one job in 2–4 time ranges, in epoch
 *       milliseconds (e.g. before and after a change).
 * </ul>
 *
 * The parameters are read by {@link CompareQuery}, the columns by {@link CompareColumns}, the rows
 * by {@link CompareRows}.
 */
public final class CompareEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/compare";

    private final CompareColumns columns;

    public CompareEndpoint(
            CheckpointStore checkpoints, JobStore jobs, SeriesStore series, Clock clock) {
        this.columns = new CompareColumns(checkpoints, jobs, series, clock);
    }

    /**
     * @param mode {@code jobs} or {@code ranges}
     * @param differences the settings (names of {@link JobSettings}' fields) whose values differ
     *     between columns
     */
    public record Response(
            String mode, List<Column> columns, List<String> differences, List<Row> rows) {}

    /**
     * One column: a job over a window ({@code from}..{@code to}, epoch ms), its settings (null when
     * the hub has not read them), and its completed checkpoints oldest first.
     */
    public record Column(
            String label,
            String jobId,
            String jobName,
            String status,
            long from,
            long to,
            JobSettings settings,
            List<ChartPoint> checkpoints) {}

    /**
     * A completed checkpoint for the charts; {@code sinceStartMs} is its trigger time after the
     * column's start.
     */
    public record ChartPoint(
            long id,
            long triggerTime,
            long sinceStartMs,
            Long durationMs,
            Long checkpointedSize,
            Long fullSize) {}

    /** One statistic across the columns. */
    public record Row(String key, String label, String unit, List<Cell> cells) {}

    /**
     * One statistic of one column: null when there were no samples; {@code changePercent} against
     * the first column's value (null in the first column and where either is missing or the first
     * is 0).
     */
    public record Cell(Double value, int samples, Double changePercent) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("jobs or ranges (fewer columns)", "ranges (shorter ranges)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        CompareQuery compared = CompareQuery.parse(query, columns::requireKnown);
        List<Column> shown = new ArrayList<>();
        List<ColumnFigures> figures = new ArrayList<>();
        for (CompareColumns.Selection s : columns.select(compared)) {
            ColumnFigures f = columns.figures(s);
            figures.add(f);
            shown.add(f.column());
        }
        return new Response(
                compared.mode(), shown, CompareRows.differences(shown), CompareRows.rows(figures));
    }
}
