package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.hub.RestPayloads.Vertex;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.job.JobStore;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Gathers from Flink's REST API into the stores, one {@link HubRound} at a time (see {@link HubSeries} for what is
 * written). Bounded: at most {@value #MAX_REQUESTS_PER_POLL} requests per round, {@value #MAX_JOBS_PER_POLL} running
 * jobs (rotating when there are more) and {@value #MAX_VERTICES_PER_JOB} vertices each. Runs on the hub's thread only.
 */
final class HubPoller {

    static final int MAX_REQUESTS_PER_POLL = 200;
    static final int MAX_JOBS_PER_POLL = 16;
    static final int MAX_VERTICES_PER_JOB = 32;
    static final int MAX_TASK_MANAGERS = 32;
    static final int MAX_OVERVIEW_JOBS = 1_000;
    static final int MAX_LATENCY_IDS_PER_VERTEX = 64;
    /** Latency histograms come and go with sources; their ids are re-listed every this many rounds. */
    static final int LATENCY_DISCOVERY_EVERY = 6;
    /** Flink's REST server refuses request lines over 4096 bytes; stay well below. */
    static final int MAX_QUERY_CHARS = 2_000;

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
    private final Map<String, LatencyIds> latencyIds = new HashMap<>();
    private final JobSettingsReader settingsReader;

    HubPoller(RestSource rest, SeriesStore series, JobStore jobs, Clock clock) {
        this.rest = rest;
        this.settingsReader = new JobSettingsReader(rest);
        this.series = series;
        this.jobs = jobs;
        this.clock = clock;
    }

    private record LatencyIds(long discoveredInRound, List<String> ids) {}

    /**
     * Polls Flink's REST API in {@code round}, spending its request budget, and records the round's outcome (its
     * duration, requests and failures) beside what it gathered; the round keeps its failures for the hub's log.
     */
    void poll(HubRound round) throws InterruptedException {
        long started = round.startedAt();
        try {
            List<JobOverview> running = pollOverview(round);
            List<String> taskManagers = pollTaskManagerList(round);
            for (JobOverview job : round.window(running, MAX_JOBS_PER_POLL)) {
                pollJob(job, round);
            }
            latencyIds.keySet().retainAll(round.polledVertices());
            for (String tm : taskManagers) {
                pollTaskManager(tm, round);
            }
        } catch (BudgetSpent e) {
            // the rest waits for the next round
        }
        series.record(HubSeries.of(HubSeries.POLL_DURATION), started, clock.millis() - started);
        series.record(HubSeries.of(HubSeries.POLL_REQUESTS), started, round.requests());
        series.record(HubSeries.of(HubSeries.POLL_FAILURES), started, round.failures());
    }

    private List<JobOverview> pollOverview(HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode root = fetch(round, "/jobs/overview");
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
                running.add(job);
            }
        }
        perState.forEach((state, n) -> series.record(HubSeries.of(HubSeries.CLUSTER_JOBS, "state", state), now, n));
        running.sort(Comparator.comparingLong(JobOverview::startTime).reversed());
        return running;
    }

    private void pollJob(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode details = fetch(round, "/jobs/" + job.jobId());
        if (details == null) {
            return;
        }
        List<Vertex> vertices = RestPayloads.vertices(details);
        Map<String, String> names = new LinkedHashMap<>();
        vertices.forEach(v -> names.put(v.id(), v.name()));
        jobs.onVertices(job.jobId(), names);
        if (jobs.settings(job.jobId()) == null) {
            // once per job: its configuration does not change while it runs
            int parallelism = vertices.stream().mapToInt(Vertex::parallelism).max().orElse(0);
            jobs.onSettings(job.jobId(), settingsReader.read(job.jobId(), parallelism, round));
        }
        for (Vertex v : vertices.subList(0, Math.min(vertices.size(), MAX_VERTICES_PER_JOB))) {
            String base = "/jobs/" + job.jobId() + "/vertices/" + v.id();
            JsonNode agg = fetch(round, base + "/subtasks/metrics?get=" + VERTEX_METRICS + "&agg=sum,max");
            if (agg != null) {
                Map<String, Map<String, Double>> values = RestPayloads.aggregated(agg);
                recordVertex(HubSeries.RECORDS_IN, values, "numRecordsInPerSecond", "sum", job, v, now);
                recordVertex(HubSeries.RECORDS_OUT, values, "numRecordsOutPerSecond", "sum", job, v, now);
                recordVertex(HubSeries.BUSY, values, "busyTimeMsPerSecond", "max", job, v, now);
                recordVertex(HubSeries.BACKPRESSURED, values, "backPressuredTimeMsPerSecond", "max", job, v, now);
            }
            String cacheKey = job.jobId() + "/" + v.id();
            round.vertexPolled(cacheKey);
            pollLatency(base, cacheKey, job, v, round);
        }
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
            JsonNode list = fetch(round, base + "/metrics");
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
            JsonNode values = fetch(round, base + "/metrics?get=" + batch);
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
            series.record(HubSeries.latency(job.jobId(), job.name(), v.id(), v.name(), "0.5"), now, median);
        }
        if (p99 != null) {
            series.record(HubSeries.latency(job.jobId(), job.name(), v.id(), v.name(), "0.99"), now, p99);
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
        JsonNode root = fetch(round, "/taskmanagers");
        if (root == null) {
            return List.of();
        }
        List<String> ids = RestPayloads.taskManagerIds(root);
        series.record(HubSeries.of(HubSeries.TM_COUNT), now, ids.size());
        return ids.subList(0, Math.min(ids.size(), MAX_TASK_MANAGERS));
    }

    private void pollTaskManager(String tmId, HubRound round) throws InterruptedException, BudgetSpent {
        long now = round.startedAt();
        JsonNode root = fetch(round, "/taskmanagers/" + pathSegment(tmId) + "/metrics?get=" + TM_METRICS);
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

    /** One request spent from the round's budget; a failure is counted in the round and answers null. */
    private JsonNode fetch(HubRound round, String pathAndQuery) throws InterruptedException, BudgetSpent {
        round.spendRequest();
        try {
            return rest.get(pathAndQuery);
        } catch (IOException | RuntimeException e) {
            round.requestFailed("GET " + pathAndQuery, e);
            return null;
        }
    }
}
