package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.api.CompareEndpoint.ChartPoint;
import io.flinkinsight.plugin.api.CompareEndpoint.Column;
import io.flinkinsight.plugin.api.CompareQuery.Range;
import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.hub.HubSeries;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a comparison: which job and window each one is ({@link #select}), and what the
 * stores hold of it there ({@link #figures}): its checkpoints, its settings and the hub's rate
 * series.
 */
final class CompareColumns {

    private static final String COMPLETED = "COMPLETED";
    private static final String FAILED = "FAILED";

    /** More than any checkpoint store keeps per job. */
    private static final int ALL = Integer.MAX_VALUE;

    /** A column to compute before it is computed: a job and its window. */
    record Selection(String jobId, long from, long to, String label) {}

    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final SeriesStore series;
    private final Clock clock;

    CompareColumns(CheckpointStore checkpoints, JobStore jobs, SeriesStore series, Clock clock) {
        this.checkpoints = checkpoints;
        this.jobs = jobs;
        this.series = series;
        this.clock = clock;
    }

    /** Throws, naming {@code parameter}, for a job the hub does not know. */
    void requireKnown(String jobId, String parameter) throws BadRequestException {
        if (jobs.get(jobId) == null && checkpoints.latest(jobId) == null) {
            throw new BadRequestException(
                    "parameter '"
                            + parameter
                            + "': job "
                            + jobId
                            + " is not known to the hub (never seen, or no longer kept)");
        }
    }

    /** One column per job, or per range of the one job. */
    List<Selection> select(CompareQuery query) {
        if ("jobs".equals(query.mode())) {
            return jobSelections(query.jobIds());
        }
        String jobId = query.jobIds().get(0);
        List<Selection> selections = new ArrayList<>();
        for (Range r : query.ranges()) {
            selections.add(
                    new Selection(
                            jobId,
                            r.from(),
                            r.to(),
                            Instant.ofEpochMilli(r.from()) + " – " + Instant.ofEpochMilli(r.to())));
        }
        return selections;
    }

    /**
     * Each job over its life: from its creation (else its first checkpoint) to its end (else now).
     */
    private List<Selection> jobSelections(List<String> ids) {
        long now = clock.millis();
        List<Selection> out = new ArrayList<>();
        for (String id : ids) {
            JobRecord record = jobs.get(id);
            List<CheckpointRecord> kept = checkpoints.newestFirst(id, ALL, Long.MIN_VALUE);
            Long from = record != null ? record.createdAt() : null;
            if (from == null) {
                from = kept.isEmpty() ? now : kept.get(kept.size() - 1).triggerTime();
            }
            long to = record != null && record.endedAt() != null ? record.endedAt() : now;
            String name =
                    record != null && record.jobName() != null
                            ? record.jobName()
                            : kept.isEmpty() ? null : kept.get(0).jobName();
            out.add(
                    new Selection(
                            id,
                            from,
                            Math.max(from, to),
                            (name != null ? name : id) + " (" + id.substring(0, 7) + ")"));
        }
        return out;
    }

    ColumnFigures figures(Selection s) {
        JobRecord record = jobs.get(s.jobId());
        List<CheckpointRecord> all = checkpoints.newestFirst(s.jobId(), ALL, Long.MIN_VALUE);
        Collections.reverse(all); // oldest first
        // Counts per hour rest on the time the job ran within the selection; when the store had to
        // drop the job's
        // oldest checkpoints, on the time since the oldest it keeps, so they are not diluted by
        // time whose
        // checkpoints are gone.
        long windowStart =
                record != null && record.createdAt() != null
                        ? Math.max(s.from(), record.createdAt())
                        : s.from();
        long windowEnd =
                record != null && record.endedAt() != null
                        ? Math.min(s.to(), record.endedAt())
                        : s.to();
        windowEnd = Math.min(windowEnd, clock.millis());
        if (!all.isEmpty()
                && checkpoints.droppedOldest(s.jobId())
                && all.get(0).triggerTime() > windowStart) {
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
                points.add(
                        new ChartPoint(
                                r.checkpointId(),
                                r.triggerTime(),
                                r.triggerTime() - s.from(),
                                duration(r),
                                r.checkpointedSize(),
                                r.fullSize()));
            } else if (FAILED.equals(r.status())) {
                failed++;
            }
        }
        String name =
                record != null ? record.jobName() : all.isEmpty() ? null : all.get(0).jobName();
        Column column =
                new Column(
                        s.label(),
                        s.jobId(),
                        name,
                        record != null ? record.status() : null,
                        s.from(),
                        s.to(),
                        withObservedIncremental(jobs.settings(s.jobId()), all),
                        points);
        return new ColumnFigures(
                column, Math.max(0, windowEnd - windowStart), completed, failed, rates(s));
    }

    /**
     * Flink's REST API reports no job's incremental setting; where neither the job's nor the
     * cluster's configuration told, the checkpoints do: most of them (after the first, which
     * uploads everything) uploaded less than their full size.
     */
    @VisibleForTesting
    static JobSettings withObservedIncremental(
            JobSettings settings, List<CheckpointRecord> oldestFirst) {
        if (settings == null || settings.incremental() != null) {
            return settings;
        }
        int known = 0;
        int smaller = 0;
        for (CheckpointRecord r :
                oldestFirst.subList(Math.min(1, oldestFirst.size()), oldestFirst.size())) {
            if (COMPLETED.equals(r.status())
                    && r.checkpointedSize() != null
                    && r.fullSize() != null
                    && r.fullSize() > 0) {
                known++;
                smaller += r.checkpointedSize() < r.fullSize() ? 1 : 0;
            }
        }
        return known < 2 ? settings : settings.withIncremental(smaller * 2 > known, "observed");
    }

    /**
     * The checkpoint's duration as reported, else as its trigger and end times tell; null when
     * neither does.
     */
    static Long duration(CheckpointRecord r) {
        if (r.durationMs() != null) {
            return r.durationMs();
        }
        return r.endTime() >= r.triggerTime() && r.endTime() > 0
                ? r.endTime() - r.triggerTime()
                : null;
    }

    /**
     * The hub's rate series of the job in the window: per statistic, the samples of the vertex it
     * is read from.
     */
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
     * The samples in the window of the job's vertex whose mean is highest: for a pipeline, the rate
     * it runs at (records), the vertex furthest from the sources (latency), the bottleneck (busy,
     * backpressured).
     */
    private double[] highestVertex(String metric, Selection s, String quantile) {
        double[] best = new double[0];
        double bestMean = Double.NEGATIVE_INFINITY;
        for (SeriesKey key :
                series.keys(
                        k ->
                                k.name().equals(metric)
                                        && s.jobId().equals(k.label("job_id"))
                                        && (quantile == null
                                                || quantile.equals(
                                                        k.label(SeriesKey.QUANTILE_LABEL))))) {
            List<Double> values = new ArrayList<>();
            series.read(
                    key,
                    s.from(),
                    s.to(),
                    (t, v) -> {
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
}
