package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.hub.RestPayloads.Vertex;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobStore;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one job's turn from Flink's REST API: for a running job its details ({@code /jobs/:jid}:
 * vertex names), its settings once, and per vertex (at most {@value #MAX_VERTICES_PER_JOB}) its
 * rates ({@code .../subtasks/metrics}) and latency; for a job seen ended, one last read. On a Flink
 * that reports less by span and event (before 2.2, see {@link FlinkCapabilities}) it also fills in
 * what REST gives: the job's checkpoints and its status times ({@code timestamps} of {@code
 * /jobs/:jid}), so a job shorter than the poll interval still gets its transitions and last
 * checkpoints. Runs on the hub's thread only.
 */
final class JobReader {

    static final int MAX_VERTICES_PER_JOB = 32;
    static final String VERTEX_METRICS =
            "numRecordsInPerSecond,numRecordsOutPerSecond,busyTimeMsPerSecond,backPressuredTimeMsPerSecond";

    private final RestSource rest;
    private final SeriesStore series;
    private final JobStore jobs;
    private final boolean fillCheckpoints;
    private final boolean fillJobStatus;
    private final JobSettingsReader settingsReader;
    private final LatencyReader latency;
    private final CheckpointReader checkpointReader;

    /**
     * Ended jobs read a last time (or never needing it), oldest first; bounded like the overview.
     */
    private final Set<String> endedJobsRead =
            BoundedCollections.newestSet(JobOverviewReader.MAX_OVERVIEW_JOBS);

    /**
     * @param flink what Flink reports by itself: REST fills in checkpoints when its {@code
     *     Checkpoint} spans lack phase detail, and job status times when it has no built-in job
     *     events
     */
    JobReader(
            RestSource rest,
            SeriesStore series,
            JobStore jobs,
            CheckpointStore checkpoints,
            FlinkCapabilities flink) {
        this.rest = rest;
        this.series = series;
        this.jobs = jobs;
        this.fillCheckpoints = !flink.checkpointSpanDetail();
        this.fillJobStatus = !flink.builtInEvents();
        this.settingsReader = new JobSettingsReader(rest);
        this.latency = new LatencyReader(rest, series);
        this.checkpointReader = new CheckpointReader(rest, checkpoints);
    }

    /**
     * Whether the ended job still waits for its last read (never, where REST has nothing to fill
     * in).
     */
    boolean awaitsLastRead(String jobId) {
        return (fillCheckpoints || fillJobStatus) && !endedJobsRead.contains(jobId);
    }

    /** Forgets what it remembers of the jobs no longer running. */
    void retainRunning(Set<String> runningJobIds) {
        latency.retainJobs(runningJobIds);
    }

    /** A running job's turn. */
    void readRunning(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        JsonNode details = round.get(rest, "/jobs/" + job.jobId());
        if (details == null) {
            return;
        }
        List<Vertex> vertices = RestPayloads.vertices(details);
        Map<String, String> names = new LinkedHashMap<>();
        vertices.forEach(v -> names.put(v.id(), v.name()));
        jobs.onVertices(job.jobId(), names);
        if (fillJobStatus) {
            jobs.onRestStatusTimes(job.jobId(), RestPayloads.statusTimestamps(details));
        }
        if (fillCheckpoints) {
            checkpointReader.read(job, round);
        }
        if (jobs.settings(job.jobId()) == null) {
            // once per job: its configuration does not change while it runs
            int parallelism = vertices.stream().mapToInt(Vertex::parallelism).max().orElse(0);
            jobs.onSettings(job.jobId(), settingsReader.read(job.jobId(), parallelism, round));
        }
        for (Vertex v : vertices.subList(0, Math.min(vertices.size(), MAX_VERTICES_PER_JOB))) {
            readVertexRates(job, v, round);
            latency.read(job, v, round);
        }
    }

    /** The last read of a job that ended: its status times and its last checkpoints, once. */
    void readEnded(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        boolean read = true;
        if (fillJobStatus) {
            JsonNode details = round.get(rest, "/jobs/" + job.jobId());
            if (details != null) {
                jobs.onRestStatusTimes(job.jobId(), RestPayloads.statusTimestamps(details));
            }
            read = details != null;
        }
        if (fillCheckpoints) {
            read &= checkpointReader.read(job, round);
        }
        if (read) {
            endedJobsRead.add(job.jobId());
        }
    }

    private void readVertexRates(JobOverview job, Vertex v, HubRound round)
            throws InterruptedException, BudgetSpent {
        String path =
                "/jobs/"
                        + job.jobId()
                        + "/vertices/"
                        + v.id()
                        + "/subtasks/metrics?get="
                        + VERTEX_METRICS
                        + "&agg=sum,max";
        JsonNode agg = round.get(rest, path);
        if (agg == null) {
            return;
        }
        long now = round.startedAt();
        Map<String, Map<String, Double>> values = RestPayloads.aggregated(agg);
        recordVertex(HubSeries.RECORDS_IN, values, "numRecordsInPerSecond", "sum", job, v, now);
        recordVertex(HubSeries.RECORDS_OUT, values, "numRecordsOutPerSecond", "sum", job, v, now);
        recordVertex(HubSeries.BUSY, values, "busyTimeMsPerSecond", "max", job, v, now);
        recordVertex(
                HubSeries.BACKPRESSURED,
                values,
                "backPressuredTimeMsPerSecond",
                "max",
                job,
                v,
                now);
    }

    private void recordVertex(
            String name,
            Map<String, Map<String, Double>> values,
            String metric,
            String agg,
            JobOverview job,
            Vertex v,
            long now) {
        Double value = values.getOrDefault(metric, Map.of()).get(agg);
        if (value != null) {
            series.record(
                    HubSeries.vertex(name, job.jobId(), job.name(), v.id(), v.name()), now, value);
        }
    }
}
