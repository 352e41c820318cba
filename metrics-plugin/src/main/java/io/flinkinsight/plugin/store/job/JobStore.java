package io.flinkinsight.plugin.store.job;

import io.flinkinsight.plugin.store.HeapSizes;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Jobs seen through Flink's job events (and the hub's REST overview): status transitions,
 * cluster-side latency, failures, state restore. At most {@code maxJobs}; the oldest terminal jobs
 * are evicted first. Writes come from reporter callbacks under Flink's registry lock and only touch
 * small bounded objects.
 */
public final class JobStore {

    static final int MAX_TRANSITIONS = 64;
    static final int MAX_FAILURES = 10;
    static final int MAX_VERTICES = 256;

    private final Clock clock;
    private final int maxJobs;
    private final Map<String, JobEntry> jobs = new HashMap<>();

    /**
     * Finished jobs forgotten for the stores' budget, the most recent {@code maxJobs}: Flink's REST
     * overview lists a finished job for an hour more, and the hub's report of it must not bring it
     * back at every poll.
     */
    private final LinkedHashSet<String> forgotten = new LinkedHashSet<>();

    private long evictedCount;

    /** Jobs read back from disk as still going, until Flink's REST overview says if it has them. */
    private final Set<String> restoredGoing = new HashSet<>();

    public JobStore(int maxJobs, Clock clock) {
        this.maxJobs = maxJobs;
        this.clock = clock;
    }

    /** A {@code JobStatusChangeEvent}: the job moved to {@code status} at {@code timestamp}. */
    public synchronized void onStatus(String jobId, String jobName, String status, long timestamp) {
        JobEntry e = entry(jobId, jobName);
        e.fromEvents = true;
        e.addTransition(status, timestamp);
    }

    public synchronized void onFailure(String jobId, String jobName, JobFailure failure) {
        JobEntry e = entry(jobId, jobName);
        e.failureCount++;
        e.failures.addLast(failure);
        while (e.failures.size() > MAX_FAILURES) {
            e.failures.pollFirst();
        }
        e.touch();
    }

    /** An {@code AllSubtasksStatusChangeEvent} with status ALL_RUNNING_OR_FINISHED. */
    public synchronized void onAllSubtasksRunning(String jobId, String jobName, long timestamp) {
        JobEntry e = entry(jobId, jobName);
        e.allSubtasksRunningAt = timestamp;
        e.touch();
    }

    public synchronized void onInitialization(
            String jobId, String jobName, JobInitialization initialization) {
        JobEntry e = entry(jobId, jobName);
        e.initialization = initialization;
        e.touch();
    }

    /**
     * What Flink's REST {@code /jobs/overview} says of a job (from the hub). It fills the name and
     * start time; the status only counts for jobs no event reported (no event reporter configured).
     */
    public synchronized void onRestOverview(
            String jobId, String jobName, String state, long startTime, long endTime) {
        if (forgotten.contains(jobId)) {
            return;
        }
        JobEntry e = entry(jobId, jobName);
        if (startTime > 0) {
            e.restStartTime = startTime;
        }
        if (!e.fromEvents && state != null && !state.equals(e.status)) {
            e.addTransition(
                    state,
                    endTime > 0 && JobEntry.TERMINAL.contains(state) ? endTime : clock.millis());
        }
        e.touch();
    }

    /**
     * The {@code timestamps} of Flink's REST {@code /jobs/:jid} (from the hub, on a Flink without
     * built-in job events): status to when the job last entered it. They become the job's
     * transitions, in time order, unless events reported the job.
     */
    public synchronized void onRestStatusTimes(String jobId, Map<String, Long> statusTimes) {
        JobEntry e = jobs.get(jobId);
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
        JobEntry e = jobs.get(jobId);
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

    /**
     * The job's checkpoint-relevant configuration, read once by the hub; ignored for a job not (or
     * no longer) kept.
     */
    public synchronized void onSettings(String jobId, JobSettings settings) {
        JobEntry e = jobs.get(jobId);
        if (e != null) {
            e.settings = settings;
        }
    }

    /**
     * A job read back from disk (the durable stores), unless it is kept already or was forgotten:
     * its transitions, failures, restore, vertex names and settings. From then on its status
     * follows Flink's events, else Flink's REST API, as for any job.
     *
     * @return whether it was taken
     */
    public synchronized boolean restore(JobRecord record, JobSettings settings) {
        if (jobs.containsKey(record.jobId()) || forgotten.contains(record.jobId())) {
            return false;
        }
        JobEntry e = entry(record.jobId(), record.jobName());
        List<JobTransition> transitions = record.transitions();
        for (JobTransition t :
                transitions.subList(
                        Math.max(0, transitions.size() - MAX_TRANSITIONS), transitions.size())) {
            e.addTransition(t.status(), t.timestamp());
        }
        if (record.createdAt() != null) {
            e.restStartTime = record.createdAt();
        }
        e.failureCount = record.failureCount();
        List<JobFailure> failures = record.failures();
        e.failures.addAll(
                failures.subList(Math.max(0, failures.size() - MAX_FAILURES), failures.size()));
        e.allSubtasksRunningAt = record.allSubtasksRunningAt();
        e.initialization = record.initialization();
        e.vertices =
                record.vertices().size() <= MAX_VERTICES ? Map.copyOf(record.vertices()) : Map.of();
        e.settings = settings;
        if (!e.terminal()) {
            restoredGoing.add(record.jobId());
        }
        return true;
    }

    /**
     * Flink's REST overview answered, listing {@code listed}: a job read back from disk as still
     * going that Flink does not list went with the JobManager that ran it, SUSPENDED as Flink names
     * it (without high availability it is gone; with it, a new leader that recovers it reports it
     * again). Once, after a read back.
     */
    public synchronized void onRestJobsListed(Set<String> listed, long now) {
        for (String jobId : restoredGoing) {
            JobEntry e = jobs.get(jobId);
            if (e != null && !e.terminal() && !listed.contains(jobId)) {
                e.addTransition("SUSPENDED", now);
            }
        }
        restoredGoing.clear();
    }

    /** The job's configuration as the hub read it, or null when not read (yet). */
    public synchronized JobSettings settings(String jobId) {
        JobEntry e = jobs.get(jobId);
        return e == null ? null : e.settings;
    }

    /** The vertex name of a job's vertex, or null. */
    public synchronized String vertexName(String jobId, String vertexId) {
        JobEntry e = jobs.get(jobId);
        return e == null ? null : e.vertices.get(vertexId);
    }

    public synchronized JobRecord get(String jobId) {
        JobEntry e = jobs.get(jobId);
        return e == null ? null : e.snapshot(clock.millis());
    }

    /** Jobs, newest (by creation, else first report) first. */
    public synchronized List<JobRecord> newestFirst() {
        long now = clock.millis();
        List<JobRecord> out = new ArrayList<>(jobs.size());
        for (JobEntry e : jobs.values()) {
            out.add(e.snapshot(now));
        }
        out.sort(
                Comparator.comparing(
                                (JobRecord r) ->
                                        r.createdAt() == null ? r.updatedAt() : r.createdAt())
                        .reversed());
        return out;
    }

    /** Whether the job is kept and FINISHED, FAILED or CANCELED. */
    public synchronized boolean isFinished(String jobId) {
        JobEntry e = jobs.get(jobId);
        return e != null && e.terminal();
    }

    /**
     * The kept jobs that are FINISHED, FAILED or CANCELED, the one that ended longest ago first.
     */
    public synchronized List<String> finishedOldestFirst() {
        List<JobEntry> ended = new ArrayList<>();
        for (JobEntry e : jobs.values()) {
            if (e.terminal()) {
                ended.add(e);
            }
        }
        ended.sort(Comparator.comparingLong((JobEntry e) -> e.endedAt));
        List<String> out = new ArrayList<>(ended.size());
        for (JobEntry e : ended) {
            out.add(e.jobId);
        }
        return out;
    }

    /**
     * Forgets a job (for the stores' budget); returns the estimated bytes freed, 0 when it was not
     * kept.
     */
    public synchronized long remove(String jobId) {
        JobEntry e = jobs.remove(jobId);
        if (e == null) {
            return 0;
        }
        evictedCount++;
        if (e.terminal()) {
            forgotten.add(jobId);
            if (forgotten.size() > maxJobs) {
                forgotten.remove(forgotten.iterator().next());
            }
        }
        return e.estimatedBytes();
    }

    /** Jobs forgotten to keep within {@code jobs.max} or the stores' budget. */
    public synchronized long evicted() {
        return evictedCount;
    }

    /**
     * Estimated heap bytes of the kept jobs: their records, transitions, failures, vertex names and
     * settings.
     */
    public synchronized long estimatedBytes() {
        long bytes =
                HeapSizes.object(6 * HeapSizes.REFERENCE)
                        + HeapSizes.referenceArray(2 * jobs.size())
                        + forgotten.size()
                                * (HeapSizes.HASH_ENTRY
                                        + 8L
                                        + 72); // linked entries and their 32-hex ids
        for (JobEntry e : jobs.values()) {
            bytes += HeapSizes.HASH_ENTRY + e.estimatedBytes();
        }
        return bytes;
    }

    /** The most jobs this store keeps. */
    public int capacity() {
        return maxJobs;
    }

    public synchronized int size() {
        return jobs.size();
    }

    private JobEntry entry(String jobId, String jobName) {
        JobEntry e = jobs.get(jobId);
        if (e == null) {
            if (jobs.size() >= maxJobs) {
                evictOne();
            }
            e = new JobEntry(jobId, clock);
            jobs.put(jobId, e);
        }
        if (jobName != null && !jobName.isEmpty()) {
            e.jobName = jobName;
        }
        return e;
    }

    private void evictOne() {
        JobEntry victim = null;
        for (JobEntry e : jobs.values()) {
            if (victim == null || e.evictsBefore(victim)) {
                victim = e;
            }
        }
        if (victim != null) {
            jobs.remove(victim.jobId);
            evictedCount++;
        }
    }
}
