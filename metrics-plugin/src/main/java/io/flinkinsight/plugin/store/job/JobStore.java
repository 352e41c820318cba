package io.flinkinsight.plugin.store.job;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Jobs seen through Flink's job events (and the hub's REST overview): status transitions, cluster-side latency,
 * failures, state restore. At most {@code maxJobs}; the oldest terminal jobs are evicted first. Writes come from
 * reporter callbacks under Flink's registry lock and only touch small bounded objects.
 */
public final class JobStore {

    static final int MAX_TRANSITIONS = 64;
    static final int MAX_FAILURES = 10;
    static final int MAX_VERTICES = 256;

    private static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED");
    private static final Set<String> START = Set.of("INITIALIZING", "CREATED");

    private final Clock clock;
    private final int maxJobs;
    private final Map<String, Entry> jobs = new HashMap<>();

    public JobStore(int maxJobs, Clock clock) {
        this.maxJobs = maxJobs;
        this.clock = clock;
    }

    /** A {@code JobStatusChangeEvent}: the job moved to {@code status} at {@code timestamp}. */
    public synchronized void onStatus(String jobId, String jobName, String status, long timestamp) {
        Entry e = entry(jobId, jobName);
        e.fromEvents = true;
        e.addTransition(status, timestamp);
    }

    public synchronized void onFailure(String jobId, String jobName, JobFailure failure) {
        Entry e = entry(jobId, jobName);
        e.failureCount++;
        e.failures.addLast(failure);
        while (e.failures.size() > MAX_FAILURES) {
            e.failures.pollFirst();
        }
        e.touch();
    }

    /** An {@code AllSubtasksStatusChangeEvent} with status ALL_RUNNING_OR_FINISHED. */
    public synchronized void onAllSubtasksRunning(String jobId, String jobName, long timestamp) {
        Entry e = entry(jobId, jobName);
        e.allSubtasksRunningAt = timestamp;
        e.touch();
    }

    public synchronized void onInitialization(String jobId, String jobName, JobInitialization initialization) {
        Entry e = entry(jobId, jobName);
        e.initialization = initialization;
        e.touch();
    }

    /**
     * What Flink's REST {@code /jobs/overview} says of a job (from the hub). It fills the name and start time;
     * the status only counts for jobs no event reported (no event reporter configured).
     */
    public synchronized void onRestOverview(String jobId, String jobName, String state, long startTime, long endTime) {
        Entry e = entry(jobId, jobName);
        if (startTime > 0) {
            e.restStartTime = startTime;
        }
        if (!e.fromEvents && state != null && !state.equals(e.status)) {
            e.addTransition(state, endTime > 0 && TERMINAL.contains(state) ? endTime : clock.millis());
        }
        e.touch();
    }

    /**
     * The {@code timestamps} of Flink's REST {@code /jobs/:jid} (from the hub, on a Flink without built-in job
     * events): status to when the job last entered it. They become the job's transitions, in time order, unless
     * events reported the job.
     */
    public synchronized void onRestStatusTimes(String jobId, Map<String, Long> statusTimes) {
        Entry e = jobs.get(jobId);
        if (e == null || e.fromEvents || statusTimes.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Long>> inOrder = new ArrayList<>(statusTimes.entrySet());
        inOrder.sort(Map.Entry.comparingByValue());
        e.transitions.clear();
        e.droppedTransitions = 0;
        e.firstStartTime = null;
        e.firstSeenTime = null;
        for (Map.Entry<String, Long> t : inOrder) {
            e.addTransition(t.getKey(), t.getValue());
        }
    }

    /** Vertex names of a job, as the hub read them from {@code /jobs/:jid}. */
    public synchronized void onVertices(String jobId, Map<String, String> vertexNames) {
        Entry e = jobs.get(jobId);
        if (e == null) {
            return;
        }
        LinkedHashMap<String, String> bounded = new LinkedHashMap<>();
        for (Map.Entry<String, String> v : vertexNames.entrySet()) {
            if (bounded.size() >= MAX_VERTICES) {
                break;
            }
            bounded.put(v.getKey(), v.getValue());
        }
        e.vertices = Map.copyOf(bounded);
    }

    /** The job's checkpoint-relevant configuration, read once by the hub; ignored for a job not (or no longer) kept. */
    public synchronized void onSettings(String jobId, JobSettings settings) {
        Entry e = jobs.get(jobId);
        if (e != null) {
            e.settings = settings;
        }
    }

    /** The job's configuration as the hub read it, or null when not read (yet). */
    public synchronized JobSettings settings(String jobId) {
        Entry e = jobs.get(jobId);
        return e == null ? null : e.settings;
    }

    /** The vertex name of a job's vertex, or null. */
    public synchronized String vertexName(String jobId, String vertexId) {
        Entry e = jobs.get(jobId);
        return e == null ? null : e.vertices.get(vertexId);
    }

    public synchronized JobRecord get(String jobId) {
        Entry e = jobs.get(jobId);
        return e == null ? null : e.snapshot(clock.millis());
    }

    /** Jobs, newest (by creation, else first report) first. */
    public synchronized List<JobRecord> newestFirst() {
        long now = clock.millis();
        List<JobRecord> out = new ArrayList<>(jobs.size());
        for (Entry e : jobs.values()) {
            out.add(e.snapshot(now));
        }
        out.sort(Comparator.comparing((JobRecord r) -> r.createdAt() == null ? r.updatedAt() : r.createdAt())
                .reversed());
        return out;
    }

    /** The most jobs this store keeps. */
    public int capacity() {
        return maxJobs;
    }

    public synchronized int size() {
        return jobs.size();
    }

    private Entry entry(String jobId, String jobName) {
        Entry e = jobs.get(jobId);
        if (e == null) {
            if (jobs.size() >= maxJobs) {
                evictOne();
            }
            e = new Entry(jobId);
            jobs.put(jobId, e);
        }
        if (jobName != null && !jobName.isEmpty()) {
            e.jobName = jobName;
        }
        return e;
    }

    private void evictOne() {
        Entry victim = null;
        for (Entry e : jobs.values()) {
            if (victim == null || e.evictsBefore(victim)) {
                victim = e;
            }
        }
        if (victim != null) {
            jobs.remove(victim.jobId);
        }
    }

    /** Mutable state of one job; guarded by the store's lock. */
    private final class Entry {
        final String jobId;
        String jobName;
        String status;
        Long firstStartTime;
        Long firstSeenTime;
        long restStartTime;
        Long endedAt;
        Long allSubtasksRunningAt;
        boolean fromEvents;
        final ArrayDeque<JobTransition> transitions = new ArrayDeque<>();
        int droppedTransitions;
        int failureCount;
        final ArrayDeque<JobFailure> failures = new ArrayDeque<>();
        JobInitialization initialization;
        Map<String, String> vertices = Map.of();
        JobSettings settings;
        long updatedAt;

        Entry(String jobId) {
            this.jobId = jobId;
            touch();
        }

        void touch() {
            updatedAt = clock.millis();
        }

        void addTransition(String newStatus, long timestamp) {
            if (transitions.size() >= MAX_TRANSITIONS) {
                // keep the very first transition (where the job started) and drop the oldest after it
                JobTransition first = transitions.pollFirst();
                transitions.pollFirst();
                transitions.addFirst(first);
                droppedTransitions++;
            }
            transitions.addLast(new JobTransition(newStatus, timestamp));
            status = newStatus;
            if (firstSeenTime == null) {
                firstSeenTime = timestamp;
            }
            if (START.contains(newStatus) && (firstStartTime == null || timestamp < firstStartTime)) {
                firstStartTime = timestamp;
            }
            if (TERMINAL.contains(newStatus)) {
                endedAt = timestamp;
            } else {
                endedAt = null; // a job may leave a locally terminal state only by being restarted as new
            }
            touch();
        }

        Long createdAt() {
            Long created = firstStartTime;
            if (restStartTime > 0 && (created == null || restStartTime < created)) {
                created = restStartTime;
            }
            return created != null ? created : firstSeenTime;
        }

        boolean terminal() {
            return status != null && TERMINAL.contains(status);
        }

        /** Terminal jobs go first, the longest ended first; then the least recently updated. */
        boolean evictsBefore(Entry other) {
            if (terminal() != other.terminal()) {
                return terminal();
            }
            if (terminal()) {
                return endedAt < other.endedAt;
            }
            return updatedAt < other.updatedAt;
        }

        JobRecord snapshot(long now) {
            Long created = createdAt();
            Long latency = created == null ? null : Math.max(0, (endedAt != null ? endedAt : now) - created);
            return new JobRecord(jobId, jobName, status, terminal(), created, endedAt, latency, allSubtasksRunningAt,
                    List.copyOf(transitions), failureCount, List.copyOf(failures), initialization, null, vertices,
                    updatedAt);
        }
    }
}
