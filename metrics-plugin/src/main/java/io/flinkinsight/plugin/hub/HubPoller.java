package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.HubRound.NotFound;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.hub.RestPayloads.Vertex;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobStore;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Gathers from Flink's REST API into the stores, one {@link HubRound} at a time (see {@link HubSeries} for what is
 * written). Bounded: at most {@value #MAX_REQUESTS_PER_POLL} requests per round and {@value #MAX_VERTICES_PER_JOB}
 * vertices per job. When a round's budget does not reach everything, TaskManagers and jobs each take their turn in a
 * {@link Rotation} kept across rounds: the TaskManagers (one request each) are given half of what the two lists
 * leave of the budget, the jobs the rest, and what the jobs leave goes to more TaskManagers; so with {@code B}
 * requests per round every TaskManager is read within {@code ceil(TaskManagers / ((B - 2) / 2))} rounds, and at
 * least one job per round takes its turn. Runs on the hub's thread only.
 *
 * <p>On a Flink that reports less by span and event (before 2.2, see {@link FlinkCapabilities}) it also fills in
 * what REST gives: each running job's checkpoints ({@code /jobs/:jid/checkpoints}, the newest few per round with
 * their tasks from {@code .../details/:cid}) and its status times ({@code timestamps} of {@code /jobs/:jid}); a job
 * seen ended is read once more ({@value #MAX_ENDED_JOBS_PER_POLL} per round), so a job shorter than the poll interval
 * still gets its transitions and last checkpoints.
 */
final class HubPoller {

    static final int MAX_REQUESTS_PER_POLL = 200;
    static final int MAX_VERTICES_PER_JOB = 32;
    /** TaskManagers in the rotation; a longer list is cut (each costs one request per turn). */
    static final int MAX_TASK_MANAGERS = 10_000;
    static final int MAX_OVERVIEW_JOBS = 1_000;
    static final int MAX_LATENCY_IDS_PER_VERTEX = 64;
    /** Latency histograms come and go with sources; their ids are re-listed every this many rounds. */
    static final int LATENCY_DISCOVERY_EVERY = 6;
    /** Ended jobs waiting for a last read at a time, newest first; the rest wait for later rounds. */
    static final int MAX_ENDED_JOBS_PER_POLL = 8;
    /** Checkpoints per job and round whose task details are read ({@code /checkpoints/details/:cid}). */
    static final int MAX_CHECKPOINT_DETAILS_PER_JOB = 4;
    /** Checkpoint ids per job remembered as read in full, so a history entry is read once. */
    static final int MAX_READ_CHECKPOINTS_PER_JOB = 64;
    /** Jobs whose read checkpoint ids are remembered, the most recently read kept. */
    static final int MAX_CHECKPOINT_READ_JOBS = 256;
    /** Vertices whose latency ids are remembered, the most recently polled kept (about 10 KB each at most). */
    static final int MAX_LATENCY_VERTICES = 512;
    /** Flink's REST server refuses request lines over 4096 bytes; stay well below. */
    static final int MAX_QUERY_CHARS = 2_000;

    private static final Set<String> ENDED = Set.of("FINISHED", "FAILED", "CANCELED");

    static final String VERTEX_METRICS =
            "numRecordsInPerSecond,numRecordsOutPerSecond,busyTimeMsPerSecond,backPressuredTimeMsPerSecond";
    static final String TM_METRICS = "Status.JVM.CPU.Load,Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Max";

    /**
     * Latency-marker histograms in a vertex's metric list (Flink 2.2 registers them on the task group as {@code
     * latency[.source_id.<id>[.source_subtask_index.<n>]].operator_id.<id>.operator_subtask_index.<n>.latency};
     * the REST listing prefixes the subtask index and suffixes the statistic: {@code _median}, {@code _p99}, ...).
     */
    static final Pattern LATENCY_ID = Pattern.compile("\\d+\\.latency\\..+\\.latency_(median|p99)");

    private final RestSource rest;
    private final SeriesStore series;
    private final JobStore jobs;
    private final Clock clock;
    private final CheckpointStore checkpoints;
    private final boolean fillCheckpoints;
    private final boolean fillJobStatus;
    /** Per {@code jobId/vertexId} of a running job, its latency ids; bounded in vertices. */
    private final Map<String, LatencyIds> latencyIds = boundedMap(MAX_LATENCY_VERTICES);
    /** Running jobs, and ended ones waiting for their last read, in turn. */
    private final Rotation jobTurns = new Rotation();
    private final Rotation taskManagerTurns = new Rotation();
    /** Ended jobs read a last time (or never needing it), oldest first; bounded like the overview. */
    private final Set<String> endedJobsRead = boundedSet(MAX_OVERVIEW_JOBS);
    /** Jobs whose checkpoints REST answered 404 for: they do not checkpoint; bounded like the overview. */
    private final Set<String> notCheckpointing = boundedSet(MAX_OVERVIEW_JOBS);
    /** Per job, the checkpoint ids read in full from REST; bounded in jobs and ids. */
    private final Map<String, Set<Long>> checkpointsRead = boundedMap(MAX_CHECKPOINT_READ_JOBS);
    private final JobSettingsReader settingsReader;

    /**
     * @param flink what Flink reports by itself: REST fills in checkpoints when its {@code Checkpoint} spans lack
     *     phase detail, and job status times when it has no built-in job events
     */
    HubPoller(RestSource rest, SeriesStore series, JobStore jobs, CheckpointStore checkpoints,
            FlinkCapabilities flink, Clock clock) {
        this.rest = rest;
        this.settingsReader = new JobSettingsReader(rest);
        this.series = series;
        this.jobs = jobs;
        this.checkpoints = checkpoints;
        this.fillCheckpoints = !flink.checkpointSpanDetail();
        this.fillJobStatus = !flink.builtInEvents();
        this.clock = clock;
    }

    private static <T> Set<T> boundedSet(int max) {
        return Collections.newSetFromMap(new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<T, Boolean> eldest) {
                return size() > max;
            }
        });
    }

    /** A map that keeps its {@code max} entries used most recently. */
    private static <K, V> Map<K, V> boundedMap(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > max;
            }
        };
    }

    private record LatencyIds(long discoveredInRound, List<String> ids) {}

    /**
     * Polls Flink's REST API in {@code round}, spending its request budget, and records the round's outcome (its
     * duration, requests and failures) beside what it gathered; the round keeps its failures for the hub's log.
     */
    void poll(HubRound round) throws InterruptedException {
        long started = round.startedAt();
        try {
            List<JobOverview> ended = new ArrayList<>();
            List<JobOverview> running = pollOverview(round, ended);
            List<String> taskManagers = taskManagerTurns.turnOrder(pollTaskManagerList(round), id -> id);
            Set<String> runningIds = new HashSet<>();
            running.forEach(job -> runningIds.add(job.jobId()));
            latencyIds.keySet().removeIf(key -> !runningIds.contains(key.substring(0, key.indexOf('/'))));
            List<JobOverview> jobsInTurn = new ArrayList<>(running);
            jobsInTurn.addAll(ended);
            jobsInTurn = jobTurns.turnOrder(jobsInTurn, JobOverview::jobId);
            // One request per TaskManager, so half of what is left reaches them all within a bounded number of
            // rounds, however many requests the jobs need; the jobs take the rest, and what they leave goes to more
            // TaskManagers.
            int taskManagerShare = jobsInTurn.isEmpty() ? round.remaining() : Math.max(1, round.remaining() / 2);
            int nextTaskManager = pollTaskManagers(taskManagers, 0, taskManagerShare, round);
            for (JobOverview job : jobsInTurn) {
                if (round.remaining() == 0) {
                    break;
                }
                jobTurns.visited(job.jobId()); // its turn, also when the budget runs out within it
                if (runningIds.contains(job.jobId())) {
                    pollJob(job, round);
                } else {
                    readEndedJob(job, round);
                }
            }
            pollTaskManagers(taskManagers, nextTaskManager, round.remaining(), round);
        } catch (BudgetSpent e) {
            // the rest waits for the next round
        }
        series.record(HubSeries.of(HubSeries.POLL_DURATION), started, clock.millis() - started);
        series.record(HubSeries.of(HubSeries.POLL_REQUESTS), started, round.requests());
        series.record(HubSeries.of(HubSeries.POLL_FAILURES), started, round.failures());
    }

    /** Polls the overview; returns the running jobs, newest first, and adds to {@code ended} those to read once. */
    private List<JobOverview> pollOverview(HubRound round, List<JobOverview> ended)
            throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode root = round.get(rest, "/jobs/overview");
        if (root == null) {
            return List.of();
        }
        List<JobOverview> all = new ArrayList<>(RestPayloads.jobsOverview(root));
        // Newest first, and no more than the job store keeps, so old jobs do not evict each other every round.
        all.sort(Comparator.comparingLong(JobOverview::startTime).reversed());
        int keep = Math.min(MAX_OVERVIEW_JOBS, jobs.capacity());
        Map<String, Integer> perState = new TreeMap<>();
        List<JobOverview> running = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            JobOverview job = all.get(i);
            if (i < keep) {
                jobs.onRestOverview(job.jobId(), job.name(), job.state(), job.startTime(), job.endTime());
            }
            if (job.state() != null) {
                perState.merge(job.state(), 1, Integer::sum);
            }
            if ("RUNNING".equals(job.state())) {
                if (running.size() < MAX_OVERVIEW_JOBS) {
                    running.add(job);
                }
            } else if (i < keep && ENDED.contains(job.state()) && (fillCheckpoints || fillJobStatus)
                    && ended.size() < MAX_ENDED_JOBS_PER_POLL && !endedJobsRead.contains(job.jobId())) {
                ended.add(job);
            }
        }
        perState.forEach((state, n) -> series.record(HubSeries.of(HubSeries.CLUSTER_JOBS, "state", state), now, n));
        running.sort(Comparator.comparingLong(JobOverview::startTime).reversed());
        return running;
    }

    private void pollJob(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
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
            pollCheckpoints(job, round);
        }
        if (jobs.settings(job.jobId()) == null) {
            // once per job: its configuration does not change while it runs
            int parallelism = vertices.stream().mapToInt(Vertex::parallelism).max().orElse(0);
            jobs.onSettings(job.jobId(), settingsReader.read(job.jobId(), parallelism, round));
        }
        for (Vertex v : vertices.subList(0, Math.min(vertices.size(), MAX_VERTICES_PER_JOB))) {
            String base = "/jobs/" + job.jobId() + "/vertices/" + v.id();
            JsonNode agg = round.get(rest, base + "/subtasks/metrics?get=" + VERTEX_METRICS + "&agg=sum,max");
            if (agg != null) {
                Map<String, Map<String, Double>> values = RestPayloads.aggregated(agg);
                recordVertex(HubSeries.RECORDS_IN, values, "numRecordsInPerSecond", "sum", job, v, now);
                recordVertex(HubSeries.RECORDS_OUT, values, "numRecordsOutPerSecond", "sum", job, v, now);
                recordVertex(HubSeries.BUSY, values, "busyTimeMsPerSecond", "max", job, v, now);
                recordVertex(HubSeries.BACKPRESSURED, values, "backPressuredTimeMsPerSecond", "max", job, v, now);
            }
            String cacheKey = job.jobId() + "/" + v.id();
            pollLatency(base, cacheKey, job, v, round);
        }
    }

    /** The last read of a job that ended: its status times and its last checkpoints, once. */
    private void readEndedJob(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        boolean read = true;
        if (fillJobStatus) {
            JsonNode details = round.get(rest, "/jobs/" + job.jobId());
            if (details != null) {
                jobs.onRestStatusTimes(job.jobId(), RestPayloads.statusTimestamps(details));
            }
            read = details != null;
        }
        if (fillCheckpoints) {
            read &= pollCheckpoints(job, round);
        }
        if (read) {
            endedJobsRead.add(job.jobId());
        }
    }

    /**
     * Reads a job's finished checkpoints from {@code /jobs/:jid/checkpoints} into the checkpoint store (which keeps
     * a span's figures over these), the newest few not read before with their tasks; false when the request failed.
     */
    private boolean pollCheckpoints(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        if (notCheckpointing.contains(job.jobId())) {
            return true;
        }
        String base = "/jobs/" + job.jobId() + "/checkpoints";
        JsonNode root = round.get(rest, base, NotFound.ANSWER);
        if (root == null) {
            return false;
        }
        if (root.isMissingNode()) {
            notCheckpointing.add(job.jobId()); // Flink: "Checkpointing was not enabled"
            return true;
        }
        Set<Long> read = checkpointsRead.computeIfAbsent(job.jobId(), id -> boundedSet(MAX_READ_CHECKPOINTS_PER_JOB));
        int details = 0;
        for (CheckpointRecord c : RestPayloads.checkpointHistory(root, job.jobId(), job.name())) {
            if (read.contains(c.checkpointId())) {
                continue;
            }
            CheckpointRecord full = c;
            if (details < MAX_CHECKPOINT_DETAILS_PER_JOB) {
                details++;
                JsonNode d = round.get(rest, base + "/details/" + c.checkpointId());
                CheckpointRecord withTasks = d == null ? null : RestPayloads.checkpoint(d, job.jobId(), job.name());
                if (withTasks != null && withTasks.checkpointId() == c.checkpointId()) {
                    full = withTasks;
                    read.add(c.checkpointId());
                }
            }
            checkpoints.addFromRest(full);
        }
        return true;
    }

    private void recordVertex(String name, Map<String, Map<String, Double>> values, String metric, String agg,
            JobOverview job, Vertex v, long now) {
        Double value = values.getOrDefault(metric, Map.of()).get(agg);
        if (value != null) {
            series.record(HubSeries.vertex(name, job.jobId(), job.name(), v.id(), v.name()), now, value);
        }
    }

    private void pollLatency(String base, String cacheKey, JobOverview job, Vertex v, HubRound round)
            throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        LatencyIds known = latencyIds.get(cacheKey);
        if (known == null || round.roundsSince(known.discoveredInRound()) >= LATENCY_DISCOVERY_EVERY) {
            JsonNode list = round.get(rest, base + "/metrics");
            if (list == null) {
                return;
            }
            List<String> ids = new ArrayList<>();
            for (String id : RestPayloads.metricIds(list)) {
                if (ids.size() < MAX_LATENCY_IDS_PER_VERTEX && LATENCY_ID.matcher(id).matches()) {
                    ids.add(id);
                }
            }
            known = new LatencyIds(round.number(), ids);
            latencyIds.put(cacheKey, known);
        }
        if (known.ids().isEmpty()) {
            return;
        }
        Double median = null;
        Double p99 = null;
        for (String batch : batches(known.ids())) {
            JsonNode values = round.get(rest, base + "/metrics?get=" + batch);
            if (values == null) {
                continue;
            }
            for (Map.Entry<String, Double> e : RestPayloads.values(values).entrySet()) {
                double value = e.getValue();
                if (!Double.isFinite(value)) {
                    continue;
                }
                if (e.getKey().endsWith("_median")) {
                    median = median == null ? value : Math.max(median, value);
                } else {
                    p99 = p99 == null ? value : Math.max(p99, value);
                }
            }
        }
        if (median != null) {
            series.record(HubSeries.latency(job.jobId(), job.name(), v.id(), v.name(), RegisteredMetric.HISTORY_P50),
                    now, median);
        }
        if (p99 != null) {
            series.record(HubSeries.latency(job.jobId(), job.name(), v.id(), v.name(), RegisteredMetric.HISTORY_P99),
                    now, p99);
        }
    }

    /** Comma-joined ids, cut so no request line grows past {@link #MAX_QUERY_CHARS}. */
    static List<String> batches(List<String> ids) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String id : ids) {
            if (current.length() > 0 && current.length() + 1 + id.length() > MAX_QUERY_CHARS) {
                out.add(current.toString());
                current.setLength(0);
            }
            if (current.length() > 0) {
                current.append(',');
            }
            current.append(id);
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    private List<String> pollTaskManagerList(HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode root = round.get(rest, "/taskmanagers");
        if (root == null) {
            return List.of();
        }
        List<String> ids = RestPayloads.taskManagerIds(root);
        series.record(HubSeries.of(HubSeries.TM_COUNT), now, ids.size());
        return ids.subList(0, Math.min(ids.size(), MAX_TASK_MANAGERS));
    }

    /**
     * Polls up to {@code count} TaskManagers of {@code inTurn} from index {@code from}, each then going to the back
     * of the line; returns the index after the last one polled.
     */
    private int pollTaskManagers(List<String> inTurn, int from, int count, HubRound round)
            throws InterruptedException, BudgetSpent {
        int i = from;
        for (int end = Math.min(inTurn.size(), from + count); i < end; i++) {
            taskManagerTurns.visited(inTurn.get(i));
            pollTaskManager(inTurn.get(i), round);
        }
        return i;
    }

    private void pollTaskManager(String tmId, HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode root = round.get(rest, "/taskmanagers/" + pathSegment(tmId) + "/metrics?get=" + TM_METRICS);
        if (root == null) {
            return;
        }
        Map<String, Double> values = RestPayloads.values(root);
        recordTm(HubSeries.TM_CPU, values.get("Status.JVM.CPU.Load"), tmId, now);
        recordTm(HubSeries.TM_HEAP_USED, values.get("Status.JVM.Memory.Heap.Used"), tmId, now);
        recordTm(HubSeries.TM_HEAP_MAX, values.get("Status.JVM.Memory.Heap.Max"), tmId, now);
    }

    private void recordTm(String name, Double value, String tmId, long now) {
        if (value != null) {
            series.record(HubSeries.of(name, "tm_id", tmId), now, value);
        }
    }

    /** TaskManager ids look like {@code 127.0.0.1:35827-4d5e1a}; anything outside a safe set is escaped. */
    static String pathSegment(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '-' || c == '_' || c == ':') {
                out.append(c);
            } else {
                for (byte b : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    out.append('%').append(String.format("%02X", b & 0xff));
                }
            }
        }
        return out.toString();
    }
}
