package io.flinkinsight.plugin.store.job;

import io.flinkinsight.plugin.store.HeapSizes;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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

    private static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED");
    private static final Set<String> START = Set.of("INITIALIZING", "CREATED");

    private final Clock clock;
    private final int maxJobs;
    private final Map<String, Entry> jobs = new HashMap<>();

    /**
     * Finished jobs forgotten for the stores' budget, the most recent {@code maxJobs}: Flink's REST
     * overview lists a finished job for an hour more, and the hub's report of it must not bring it
     * back at every poll.
     */
    private final LinkedHashSet<String> forgotten = new LinkedHashSet<>();

    private long evictedCount;

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

    public synchronized void onInitialization(
            String jobId, String jobName, JobInitialization initialization) {
        Entry e = entry(jobId, jobName);
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
        Entry e = entry(jobId, jobName);
        if (startTime > 0) {
            e.restStartTime = startTime;
        }
        if (!e.fromEvents && state != null && !state.equals(e.status)) {
            e.addTransition(
                    state, endTime > 0 && TERMINAL.contains(state) ? endTime : clock.millis());
        }
        e.touch();
    }

    /**
     * The {@code timestamps} of Flink's REST {@code /jobs/:jid} (from the hub, on a Flink without
     * built-in job events): status to when the job last entered it. They become the job's
     * transitions, in time order, unless events reported the job.
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

    /**
     * The job's checkpoint-relevant configuration, read once by the hub; ignored for a job not (or
     * no longer) kept.
     */
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
        out.sort(
                Comparator.comparing(
                                (JobRecord r) ->
                                        r.createdAt() == null ? r.updatedAt() : r.createdAt())
                        .reversed());
        return out;
    }

    /** Whether the job is kept and FINISHED, FAILED or CANCELED. */
    public synchronized boolean isFinished(String jobId) {
        Entry e = jobs.get(jobId);
        return e != null && e.terminal();
    }

    /**
     * The kept jobs that are FINISHED, FAILED or CANCELED, the one that ended longest ago first.
     */
    public synchronized List<String> finishedOldestFirst() {
        List<Entry> ended = new ArrayList<>();
        for (Entry e : jobs.values()) {
            if (e.terminal()) {
                ended.add(e);
            }
        }
        ended.sort(Comparator.comparingLong((Entry e) -> e.endedAt));
        List<String> out = new ArrayList<>(ended.size());
        for (Entry e : ended) {
            out.add(e.jobId);
        }
        return out;
    }

    /**
     * Forgets a job (for the stores' budget); returns the estimated bytes freed, 0 when it was not
     * kept.
     */
    public synchronized long remove(String jobId) {
        Entry e = jobs.remove(jobId);
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
        for (Entry e : jobs.values()) {
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
            evictedCount++;
        }
    }

    /**
     * An immutable map as {@code Map.copyOf} makes it: an object and an array of keys and values,
     * half full.
     */
    private static long mapBytes(int entries) {
        return entries == 0 ? 0 : HeapSizes.object(2 * 4) + HeapSizes.referenceArray(4 * entries);
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
                // keep the very first transition (where the job started) and drop the oldest after
                // it
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
            if (START.contains(newStatus)
                    && (firstStartTime == null || timestamp < firstStartTime)) {
                firstStartTime = timestamp;
            }
            if (TERMINAL.contains(newStatus)) {
                endedAt = timestamp;
            } else {
                endedAt =
                        null; // a job may leave a locally terminal state only by being restarted as
                // new
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

        /**
         * This entry with what it holds. Strings count whole: the job id and name, vertex ids and
         * names and the settings' names come from events and REST answers, which Flink does not
         * keep.
         */
        long estimatedBytes() {
            long bytes =
                    HeapSizes.object(16 * HeapSizes.REFERENCE + 2 * 8 + 3 * 4 + 2)
                            + HeapSizes.string(jobId)
                            + HeapSizes.string(jobName)
                            + 2 * HeapSizes.object(4 * HeapSizes.REFERENCE)
                            + HeapSizes.referenceArray(17) // the deques
                            + HeapSizes.referenceArray(
                                    Math.max(17, transitions.size() + transitions.size() / 2))
                            + transitions.size() * (HeapSizes.object(HeapSizes.REFERENCE + 8) + 16L)
                            + 4 * 16L; // boxed times
            for (JobFailure f : failures) {
                bytes +=
                        HeapSizes.object(2 * HeapSizes.REFERENCE + 8)
                                + 2 * 16L
                                + mapBytes(f.labels().size());
                for (Map.Entry<String, String> l : f.labels().entrySet()) {
                    bytes += HeapSizes.string(l.getKey()) + HeapSizes.string(l.getValue());
                }
            }
            if (initialization != null) {
                bytes +=
                        HeapSizes.object(4 * HeapSizes.REFERENCE + 2 * 8)
                                + 2 * 16L
                                + mapBytes(initialization.figures().size())
                                + initialization.figures().size() * (16L + 48);
            }
            bytes += mapBytes(vertices.size());
            for (Map.Entry<String, String> v : vertices.entrySet()) {
                bytes += HeapSizes.string(v.getKey()) + HeapSizes.string(v.getValue());
            }
            if (settings != null) {
                bytes +=
                        HeapSizes.object(12 * HeapSizes.REFERENCE + 1)
                                + 6 * 16L
                                + HeapSizes.string(settings.stateBackend())
                                + HeapSizes.string(settings.checkpointStorage())
                                + HeapSizes.string(settings.changelogStorage());
            }
            return bytes;
        }

        JobRecord snapshot(long now) {
            Long created = createdAt();
            Long latency =
                    created == null
                            ? null
                            : Math.max(0, (endedAt != null ? endedAt : now) - created);
            return new JobRecord(
                    jobId,
                    jobName,
                    status,
                    terminal(),
                    created,
                    endedAt,
                    latency,
                    allSubtasksRunningAt,
                    List.copyOf(transitions),
                    failureCount,
                    List.copyOf(failures),
                    initialization,
                    null,
                    vertices,
                    updatedAt);
        }
    }
}
