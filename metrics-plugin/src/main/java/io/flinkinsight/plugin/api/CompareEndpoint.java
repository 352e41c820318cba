package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.hub.HubSeries;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.Attributes;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/compare}: two to four columns side by side, each headed by the job's checkpoint-relevant
 * configuration (and which of it differs), with the statistics of the checkpoint-evaluation tables (checkpoints per
 * hour, duration, async-phase and full size, phase durations, throughput, latency, busy and backpressured time),
 * each with its unit, the number of samples it rests on and its change in % against the first column; and per
 * column the completed checkpoints for charts, aligned by time since the column's start. Two forms:
 * <ul>
 *   <li>{@code jobs=<id>,<id>[,<id>[,<id>]]}: 2–4 jobs, each over its whole life as far as the hub keeps it;</li>
 *   <li>{@code job=<id>&ranges=<from>-<to>,<from>-<to>[,...]}: one job in 2–4 time ranges, in epoch milliseconds
 *       (e.g. before and after a change).</li>
 * </ul>
 */
public final class CompareEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/compare";

    static final int MIN_COLUMNS = 2;
    static final int MAX_COLUMNS = 4;

    static final String JOBS_FORM = "parameter 'jobs' must be 2 to 4 distinct job ids (32 hex characters each)"
            + " separated by commas, e.g. jobs=<id>,<id>";
    static final String RANGES_FORM = "parameter 'ranges' must be 2 to 4 ranges <from>-<to> in epoch milliseconds"
            + " with from < to, separated by commas, e.g. ranges=1700000000000-1700000600000,"
            + "1700000600000-1700001200000";
    static final String EITHER_FORM = "give either 'jobs' (2 to 4 job ids separated by commas) or 'job' (one job id)"
            + " with 'ranges' (2 to 4 ranges <from>-<to> in epoch milliseconds)";

    private static final Pattern RANGE = Pattern.compile("(\\d{1,15})-(\\d{1,15})");
    private static final String COMPLETED = "COMPLETED";
    private static final String FAILED = "FAILED";
    /** More than any checkpoint store keeps per job. */
    private static final int ALL = Integer.MAX_VALUE;

    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final SeriesStore series;
    private final Clock clock;

    public CompareEndpoint(CheckpointStore checkpoints, JobStore jobs, SeriesStore series, Clock clock) {
        this.checkpoints = checkpoints;
        this.jobs = jobs;
        this.series = series;
        this.clock = clock;
    }

    /**
     * @param mode {@code jobs} or {@code ranges}
     * @param differences the settings (names of {@link JobSettings}' fields) whose values differ between columns
     */
    public record Response(String mode, List<Column> columns, List<String> differences, List<Row> rows) {}

    /**
     * One column: a job over a window ({@code from}..{@code to}, epoch ms), its settings (null when the hub has not
     * read them), and its completed checkpoints oldest first.
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

    /** A completed checkpoint for the charts; {@code sinceStartMs} is its trigger time after the column's start. */
    public record ChartPoint(
            long id, long triggerTime, long sinceStartMs, Long durationMs, Long checkpointedSize, Long fullSize) {}

    /** One statistic across the columns. */
    public record Row(String key, String label, String unit, List<Cell> cells) {}

    /**
     * One statistic of one column: null when there were no samples; {@code changePercent} against the first
     * column's value (null in the first column and where either is missing or the first is 0).
     */
    public record Cell(Double value, int samples, Double changePercent) {}

    /** A column to compute before it is computed: a job and its window. */
    private record Selection(String jobId, long from, long to, String label) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("jobs or ranges (fewer columns)", "ranges (shorter ranges)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        Optional<String> jobList = query.get("jobs");
        Optional<String> job = query.get("job");
        Optional<String> ranges = query.get("ranges");
        if (jobList.isPresent() == job.isPresent() || jobList.isPresent() && ranges.isPresent()) {
            throw new BadRequestException(EITHER_FORM);
        }
        List<Selection> selections;
        String mode;
        if (jobList.isPresent()) {
            mode = "jobs";
            selections = jobSelections(parseJobs(jobList.get()));
        } else {
            mode = "ranges";
            String jobId = parseJob(job.get());
            if (ranges.isEmpty()) {
                throw new BadRequestException(RANGES_FORM);
            }
            requireKnown(jobId, "job");
            selections = new ArrayList<>();
            for (long[] r : parseRanges(ranges.get())) {
                selections.add(new Selection(jobId, r[0], r[1],
                        Instant.ofEpochMilli(r[0]) + " – " + Instant.ofEpochMilli(r[1])));
            }
        }
        List<Column> columns = new ArrayList<>();
        List<ColumnFigures> figures = new ArrayList<>();
        for (Selection s : selections) {
            ColumnFigures f = figures(s);
            figures.add(f);
            columns.add(f.column);
        }
        return new Response(mode, columns, differences(columns), rows(figures));
    }

    // ---- parameters

    static List<String> parseJobs(String raw) throws BadRequestException {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        for (String part : raw.split(",", -1)) {
            String id = part.trim();
            if (!Attributes.isJobId(id) || !ids.add(id.toLowerCase(Locale.ROOT))) {
                throw new BadRequestException(JOBS_FORM);
            }
        }
        if (ids.size() < MIN_COLUMNS || ids.size() > MAX_COLUMNS) {
            throw new BadRequestException(JOBS_FORM);
        }
        return List.copyOf(ids);
    }

    private static String parseJob(String raw) throws BadRequestException {
        String id = raw.trim();
        if (!Attributes.isJobId(id)) {
            throw new BadRequestException("parameter 'job' must be a job id of 32 hex characters");
        }
        return id.toLowerCase(Locale.ROOT);
    }

    static List<long[]> parseRanges(String raw) throws BadRequestException {
        List<long[]> out = new ArrayList<>();
        for (String part : raw.split(",", -1)) {
            Matcher m = RANGE.matcher(part.trim());
            if (!m.matches()) {
                throw new BadRequestException(RANGES_FORM);
            }
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            if (from >= to) {
                throw new BadRequestException(RANGES_FORM);
            }
            out.add(new long[] {from, to});
        }
        if (out.size() < MIN_COLUMNS || out.size() > MAX_COLUMNS) {
            throw new BadRequestException(RANGES_FORM);
        }
        return out;
    }

    private void requireKnown(String jobId, String parameter) throws BadRequestException {
        if (jobs.get(jobId) == null && checkpoints.latest(jobId) == null) {
            throw new BadRequestException("parameter '" + parameter + "': job " + jobId
                    + " is not known to the hub (never seen, or no longer kept)");
        }
    }

    /** Each job over its life: from its creation (else its first checkpoint) to its end (else now). */
    private List<Selection> jobSelections(List<String> ids) throws BadRequestException {
        long now = clock.millis();
        List<Selection> out = new ArrayList<>();
        for (String id : ids) {
            requireKnown(id, "jobs");
            JobRecord record = jobs.get(id);
            List<CheckpointRecord> kept = checkpoints.newestFirst(id, ALL, Long.MIN_VALUE);
            Long from = record != null ? record.createdAt() : null;
            if (from == null) {
                from = kept.isEmpty() ? now : kept.get(kept.size() - 1).triggerTime();
            }
            long to = record != null && record.endedAt() != null ? record.endedAt() : now;
            String name = record != null && record.jobName() != null ? record.jobName()
                    : kept.isEmpty() ? null : kept.get(0).jobName();
            out.add(new Selection(id, from, Math.max(from, to), (name != null ? name : id) + " (" + id.substring(0, 7)
                    + ")"));
        }
        return out;
    }

    // ---- one column

    /** A column with the samples its statistics are computed from. */
    private record ColumnFigures(
            Column column, long windowMillis, List<CheckpointRecord> completed, int failed, Map<String, double[]> rates) {}

    private ColumnFigures figures(Selection s) {
        JobRecord record = jobs.get(s.jobId());
        List<CheckpointRecord> all = checkpoints.newestFirst(s.jobId(), ALL, Long.MIN_VALUE);
        Collections.reverse(all); // oldest first
        // Counts per hour rest on the time the job ran within the selection; when the store had to drop the job's
        // oldest checkpoints, on the time since the oldest it keeps, so they are not diluted by time whose
        // checkpoints are gone.
        long windowStart = record != null && record.createdAt() != null ? Math.max(s.from(), record.createdAt())
                : s.from();
        long windowEnd = record != null && record.endedAt() != null ? Math.min(s.to(), record.endedAt()) : s.to();
        windowEnd = Math.min(windowEnd, clock.millis());
        if (!all.isEmpty() && checkpoints.droppedOldest(s.jobId()) && all.get(0).triggerTime() > windowStart) {
            windowStart = all.get(0).triggerTime();
        }
        List<CheckpointRecord> completed = new ArrayList<>();
        int failed = 0;
        List<ChartPoint> points = new ArrayList<>();
        for (CheckpointRecord r : all) {
            if (r.isSavepoint() || r.triggerTime() < s.from() || r.triggerTime() > s.to()) {
                continue;
            }
            if (COMPLETED.equals(r.status())) {
                completed.add(r);
                points.add(new ChartPoint(r.checkpointId(), r.triggerTime(), r.triggerTime() - s.from(), duration(r),
                        r.checkpointedSize(), r.fullSize()));
            } else if (FAILED.equals(r.status())) {
                failed++;
            }
        }
        String name = record != null ? record.jobName() : all.isEmpty() ? null : all.get(0).jobName();
        Column column = new Column(s.label(), s.jobId(), name, record != null ? record.status() : null, s.from(),
                s.to(), withObservedIncremental(jobs.settings(s.jobId()), all), points);
        return new ColumnFigures(column, Math.max(0, windowEnd - windowStart), completed, failed, rates(s));
    }

    /**
     * Flink's REST API reports no job's incremental setting; where neither the job's nor the cluster's configuration
     * told, the checkpoints do: most of them (after the first, which uploads everything) uploaded less than their
     * full size.
     */
    static JobSettings withObservedIncremental(JobSettings settings, List<CheckpointRecord> oldestFirst) {
        if (settings == null || settings.incremental() != null) {
            return settings;
        }
        int known = 0;
        int smaller = 0;
        for (CheckpointRecord r : oldestFirst.subList(Math.min(1, oldestFirst.size()), oldestFirst.size())) {
            if (COMPLETED.equals(r.status()) && r.checkpointedSize() != null && r.fullSize() != null
                    && r.fullSize() > 0) {
                known++;
                smaller += r.checkpointedSize() < r.fullSize() ? 1 : 0;
            }
        }
        return known < 2 ? settings : settings.withIncremental(smaller * 2 > known, "observed");
    }

    private static Long duration(CheckpointRecord r) {
        if (r.durationMs() != null) {
            return r.durationMs();
        }
        return r.endTime() >= r.triggerTime() && r.endTime() > 0 ? r.endTime() - r.triggerTime() : null;
    }

    /** The hub's rate series of the job in the window: per statistic, the samples of the vertex it is read from. */
    private Map<String, double[]> rates(Selection s) {
        Map<String, double[]> out = new LinkedHashMap<>();
        out.put("records_in", highestVertex(HubSeries.RECORDS_IN, s, null));
        out.put("records_out", highestVertex(HubSeries.RECORDS_OUT, s, null));
        out.put("latency_p50", highestVertex(HubSeries.LATENCY, s, RegisteredMetric.HISTORY_P50));
        out.put("latency_p99", highestVertex(HubSeries.LATENCY, s, RegisteredMetric.HISTORY_P99));
        out.put("busy", highestVertex(HubSeries.BUSY, s, null));
        out.put("backpressured", highestVertex(HubSeries.BACKPRESSURED, s, null));
        return out;
    }

    /**
     * The samples in the window of the job's vertex whose mean is highest: for a pipeline, the rate it runs at
     * (records), the vertex furthest from the sources (latency), the bottleneck (busy, backpressured).
     */
    private double[] highestVertex(String metric, Selection s, String quantile) {
        double[] best = new double[0];
        double bestMean = Double.NEGATIVE_INFINITY;
        for (SeriesKey key : series.keys(k -> k.name().equals(metric) && s.jobId().equals(k.label("job_id"))
                && (quantile == null || quantile.equals(k.label(SeriesKey.QUANTILE_LABEL))))) {
            List<Double> values = new ArrayList<>();
            series.read(key, s.from(), s.to(), (t, v) -> {
                if (Double.isFinite(v)) {
                    values.add(v);
                }
            });
            double[] samples = values.stream().mapToDouble(Double::doubleValue).toArray();
            Double mean = SampleStatistics.mean(samples);
            if (mean != null && mean > bestMean) {
                bestMean = mean;
                best = samples;
            }
        }
        return best;
    }

    // ---- across columns

    /** The names of the settings whose values differ between the columns (unknown counts as a value). */
    static List<String> differences(List<Column> columns) {
        Map<String, Function<JobSettings, Object>> fields = new LinkedHashMap<>();
        fields.put("stateBackend", JobSettings::stateBackend);
        fields.put("incremental", JobSettings::incremental);
        fields.put("changelog", JobSettings::changelog);
        // the interval only matters where the changelog is on
        fields.put("materializationIntervalMs",
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

    private static List<Row> rows(List<ColumnFigures> columns) {
        List<Row> rows = new ArrayList<>();
        rows.add(row("completed_per_hour", "Checkpoints completed per hour", "1/h", columns,
                c -> perHour(c.completed.size(), c.windowMillis)));
        rows.add(row("failed_per_hour", "Checkpoints failed per hour", "1/h", columns,
                c -> perHour(c.failed, c.windowMillis)));
        rows.add(percentileRow("duration_p50", "Checkpoint duration P50", "ms", columns, 50, CompareEndpoint::duration));
        rows.add(percentileRow("duration_p99", "Checkpoint duration P99", "ms", columns, 99, CompareEndpoint::duration));
        rows.add(percentileRow("duration_p999", "Checkpoint duration P99.9", "ms", columns, 99.9,
                CompareEndpoint::duration));
        rows.add(percentileRow("checkpointed_size_p50", "Checkpointed (async-phase) size P50", "bytes", columns, 50,
                CheckpointRecord::checkpointedSize));
        rows.add(percentileRow("checkpointed_size_p99", "Checkpointed (async-phase) size P99", "bytes", columns, 99,
                CheckpointRecord::checkpointedSize));
        rows.add(percentileRow("full_size_p50", "Full size P50", "bytes", columns, 50, CheckpointRecord::fullSize));
        rows.add(row("full_size_last", "Full size, last checkpoint", "bytes", columns, c -> {
            for (int i = c.completed.size() - 1; i >= 0; i--) {
                if (c.completed.get(i).fullSize() != null) {
                    return new Cell(c.completed.get(i).fullSize().doubleValue(), 1, null);
                }
            }
            return new Cell(null, 0, null);
        }));
        rows.add(percentileRow("async_p50", "Async phase P50 (slowest subtask)", "ms", columns, 50,
                r -> phase(r, PhaseFigures::asyncDurationMs)));
        rows.add(percentileRow("async_p99", "Async phase P99 (slowest subtask)", "ms", columns, 99,
                r -> phase(r, PhaseFigures::asyncDurationMs)));
        rows.add(percentileRow("sync_p50", "Sync phase P50 (slowest subtask)", "ms", columns, 50,
                r -> phase(r, PhaseFigures::syncDurationMs)));
        rows.add(percentileRow("sync_p99", "Sync phase P99 (slowest subtask)", "ms", columns, 99,
                r -> phase(r, PhaseFigures::syncDurationMs)));
        rows.add(meanRow("records_in", "Records in per second (mean, busiest vertex)", "records/s", columns));
        rows.add(meanRow("records_out", "Records out per second (mean, busiest vertex)", "records/s", columns));
        rows.add(meanRow("latency_p50", "Latency-marker p50 (mean, furthest vertex)", "ms", columns));
        rows.add(meanRow("latency_p99", "Latency-marker p99 (mean, furthest vertex)", "ms", columns));
        rows.add(meanRow("busy", "Busy time (mean, busiest vertex)", "ms/s", columns));
        rows.add(meanRow("backpressured", "Backpressured time (mean, most backpressured vertex)", "ms/s", columns));
        return rows;
    }

    private static Long phase(CheckpointRecord r, Function<PhaseFigures, Long> field) {
        return r.max() == null ? null : field.apply(r.max());
    }

    private static Cell perHour(long count, long windowMillis) {
        return new Cell(SampleStatistics.perHour(count, windowMillis), (int) count, null);
    }

    private static Row percentileRow(String key, String label, String unit, List<ColumnFigures> columns, double p,
            Function<CheckpointRecord, Long> field) {
        return row(key, label, unit, columns, c -> {
            double[] values = c.completed.stream().map(field).filter(Objects::nonNull).mapToDouble(Long::doubleValue)
                    .toArray();
            return new Cell(SampleStatistics.percentile(values, p), values.length, null);
        });
    }

    private static Row meanRow(String key, String label, String unit, List<ColumnFigures> columns) {
        return row(key, label, unit, columns, c -> {
            double[] values = c.rates.get(key);
            return new Cell(SampleStatistics.mean(values), values.length, null);
        });
    }

    /** A row of per-column cells, each with its change against the first column. */
    private static Row row(String key, String label, String unit, List<ColumnFigures> columns,
            Function<ColumnFigures, Cell> cell) {
        List<Cell> cells = new ArrayList<>();
        Double base = null;
        for (int i = 0; i < columns.size(); i++) {
            Cell c = cell.apply(columns.get(i));
            if (i == 0) {
                base = c.value();
                cells.add(c);
            } else {
                cells.add(new Cell(c.value(), c.samples(), SampleStatistics.changePercent(c.value(), base)));
            }
        }
        return new Row(key, label, unit, cells);
    }
}
