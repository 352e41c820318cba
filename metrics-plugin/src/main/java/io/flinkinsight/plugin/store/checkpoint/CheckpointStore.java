package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The last {@code maxCheckpointsPerJob} checkpoints of at most {@code maxJobs} jobs (per-subtask
 * details only on the newest {@value #CHECKPOINTS_WITH_SUBTASK_DETAIL}), in compact form ({@link
 * StoredCheckpoint}), within {@code maxBytes} of estimated heap. When over its bytes, finished jobs
 * go first (the one written least recently first), then running jobs lose their oldest checkpoints
 * (the job holding most first), each keeping its newest. Written from Flink's reporter callbacks
 * under the registry lock, so a write converts one record and evicts what it must, nothing more;
 * reads build records from the compact form.
 */
public final class CheckpointStore {

    /**
     * Only the newest checkpoints of a job keep per-subtask details; older ones keep per-task
     * figures.
     */
    static final int CHECKPOINTS_WITH_SUBTASK_DETAIL = 10;

    /** A job's holder, its list, the list's object and the map entry that holds it. */
    private static final long JOB_BYTES =
            HeapSizes.object(3 * HeapSizes.REFERENCE + 2 * 8 + 4 + 1)
                    + HeapSizes.object(3 * 4 + HeapSizes.REFERENCE)
                    + 40
                    + 2 * HeapSizes.REFERENCE;

    private final int maxPerJob;
    private final int maxJobs;
    private final long maxBytes;

    /** {@code maxBytes}, or less while the other stores take part of the budget they share. */
    private long limitBytes;

    private final Predicate<String> finished;

    /**
     * In write order (a write moves its job last): among equals, the job written least recently
     * goes first.
     */
    private final LinkedHashMap<String, JobCheckpoints> byJob = new LinkedHashMap<>();

    private long heldBytes = HeapSizes.object(6 * HeapSizes.REFERENCE);

    /**
     * The checkpoints added or changed since {@link #takeChanged} took them, oldest change first:
     * what the durable stores write next, so a write builds no record of an unchanged checkpoint
     * under this store's lock. At most {@value #MAX_CHANGED} (past that, {@link #allChanged}).
     */
    private final LinkedHashSet<ChangedCheckpoint> changed = new LinkedHashSet<>();

    private boolean allChanged;

    /** Whether changes are followed at all: only for the durable stores, which ask for it. */
    private boolean trackingChanges;

    private static final int MAX_CHANGED = 20_000;

    /** A checkpoint that changed, by job and id. */
    private record ChangedCheckpoint(String jobId, long checkpointId) {}

    private long evictedCount;

    /** A store without a byte budget beyond its counts, that knows no job as finished. */
    public CheckpointStore(int maxCheckpointsPerJob, int maxJobs) {
        this(maxCheckpointsPerJob, maxJobs, Long.MAX_VALUE, jobId -> false);
    }

    /**
     * @param finished whether a job is known to have finished (FINISHED, FAILED or CANCELED): its
     *     checkpoints go first when the store is over a bound
     */
    public CheckpointStore(
            int maxCheckpointsPerJob, int maxJobs, long maxBytes, Predicate<String> finished) {
        this.maxPerJob = maxCheckpointsPerJob;
        this.maxJobs = maxJobs;
        this.maxBytes = maxBytes;
        this.limitBytes = maxBytes;
        this.finished = finished;
    }

    /**
     * Lets the checkpoints take at most {@code bytes} (never more than their own {@code maxBytes}):
     * what the stores' budget leaves them. Evicts now what is over it, as a write would.
     */
    public synchronized void limitBytes(long bytes) {
        limitBytes = Math.min(maxBytes, bytes);
        keepWithinBytes(null);
    }

    /** One job's checkpoints, oldest (lowest id) first, and the strings they share. */
    private static final class JobCheckpoints {
        final ArrayList<StoredCheckpoint> checkpoints = new ArrayList<>();
        final SharedStrings strings = new SharedStrings();
        long checkpointBytes;
        int peakSize;
        boolean trimmed;

        /**
         * Everything this job's checkpoints take, the list's backing array sized by its largest
         * size so far.
         */
        long bytes() {
            int capacity = Math.max(10, peakSize + peakSize / 4);
            return JOB_BYTES
                    + HeapSizes.referenceArray(capacity)
                    + strings.bytes()
                    + checkpointBytes;
        }
    }

    /**
     * Keeps a checkpoint reported by span; replaces an event-only or earlier report of the same
     * checkpoint, keeping what only the earlier report gave (figures Flink's REST API filled in on
     * a Flink before 2.2).
     */
    public synchronized void add(CheckpointRecord record) {
        JobCheckpoints job = byJob.remove(record.jobId());
        if (job == null) {
            if (byJob.size() >= maxJobs) {
                String victim = leastRecentlyWrittenFinished(null);
                removeJobInternal(victim != null ? victim : byJob.keySet().iterator().next());
            }
            job = new JobCheckpoints();
            heldBytes += job.bytes();
        }
        byJob.put(record.jobId(), job);
        long before = job.bytes();
        int at = indexOf(job, record.checkpointId());
        if (at >= 0) {
            StoredCheckpoint old = job.checkpoints.get(at);
            StoredCheckpoint merged =
                    StoredCheckpoint.of(record.orElse(old.toRecord()), job.strings);
            job.checkpoints.set(at, merged);
            job.checkpointBytes += merged.estimatedBytes() - old.estimatedBytes();
        } else {
            insert(job, StoredCheckpoint.of(record, job.strings));
        }
        dropOldSubtaskDetail(job);
        heldBytes += job.bytes() - before;
        keepWithinBytes(record.jobId());
        if (trackingChanges && !allChanged) {
            ChangedCheckpoint key = new ChangedCheckpoint(record.jobId(), record.checkpointId());
            changed.remove(key); // moves it last
            changed.add(key);
            if (changed.size() > MAX_CHANGED) {
                changed.clear();
                allChanged = true;
            }
        }
    }

    /**
     * Counts every kept checkpoint as changed, so {@link #takeChanged} hands them all out again
     * (the durable stores write everything anew every half retention).
     */
    public synchronized void markAllChanged() {
        changed.clear();
        allChanged = true;
        trackingChanges = true;
    }

    /**
     * The oldest changes since the last take, at most {@code limit} checkpoints still kept, now
     * taken: a checkpoint that changes again is handed out again.
     */
    public synchronized List<CheckpointRecord> takeChanged(int limit) {
        if (allChanged) {
            allChanged = false;
            for (Map.Entry<String, JobCheckpoints> e : byJob.entrySet()) {
                for (StoredCheckpoint c : e.getValue().checkpoints) {
                    if (changed.size() < MAX_CHANGED) {
                        changed.add(new ChangedCheckpoint(e.getKey(), c.checkpointId()));
                    }
                }
            }
        }
        List<CheckpointRecord> out = new ArrayList<>(Math.min(limit, changed.size()));
        Iterator<ChangedCheckpoint> it = changed.iterator();
        while (it.hasNext() && out.size() < limit) {
            ChangedCheckpoint key = it.next();
            it.remove();
            JobCheckpoints job = byJob.get(key.jobId());
            int at = job == null ? -1 : indexOf(job, key.checkpointId());
            if (at >= 0) {
                out.add(job.checkpoints.get(at).toRecord());
            }
        }
        return out;
    }

    private void insert(JobCheckpoints job, StoredCheckpoint c) {
        List<StoredCheckpoint> list = job.checkpoints;
        // Reports arrive in completion order, which may differ from id order; keep the list sorted
        // by id.
        int at = list.size();
        while (at > 0 && list.get(at - 1).checkpointId() > c.checkpointId()) {
            at--;
        }
        list.add(at, c);
        job.checkpointBytes += c.estimatedBytes();
        job.peakSize = Math.max(job.peakSize, list.size());
        while (list.size() > maxPerJob) {
            job.checkpointBytes -= list.remove(0).estimatedBytes();
            job.trimmed = true;
            evictedCount++;
        }
    }

    private static int indexOf(JobCheckpoints job, long checkpointId) {
        for (int i = job.checkpoints.size() - 1; i >= 0; i--) {
            if (job.checkpoints.get(i).checkpointId() == checkpointId) {
                return i;
            }
        }
        return -1;
    }

    private static void dropOldSubtaskDetail(JobCheckpoints job) {
        List<StoredCheckpoint> list = job.checkpoints;
        for (int i = list.size() - CHECKPOINTS_WITH_SUBTASK_DETAIL - 1; i >= 0; i--) {
            StoredCheckpoint c = list.get(i);
            if (!c.hasSubtaskDetail()) {
                continue; // lost them before (not a break: a late report of an old checkpoint may
                // still have them)
            }
            StoredCheckpoint lean = c.withoutSubtaskDetail();
            list.set(i, lean);
            job.checkpointBytes += lean.estimatedBytes() - c.estimatedBytes();
        }
    }

    /**
     * Over its limit: finished jobs go (written least recently first), then running jobs' oldest
     * checkpoints (the job holding most first), then the per-subtask details of their newest. A
     * running job's newest checkpoint stays even then: only {@code maxJobs} bounds how many there
     * are.
     */
    private void keepWithinBytes(String writtenJob) {
        while (heldBytes > limitBytes) {
            String victim = leastRecentlyWrittenFinished(writtenJob);
            if (victim != null) {
                removeJobInternal(victim);
            } else if (dropOldestOfLargest() == 0 && dropSubtaskDetailOfNewest() == 0) {
                return;
            }
        }
    }

    /**
     * Drops the per-subtask details of one job's newest checkpoint, if any has them; returns the
     * bytes freed.
     */
    private long dropSubtaskDetailOfNewest() {
        for (JobCheckpoints job : byJob.values()) {
            List<StoredCheckpoint> list = job.checkpoints;
            StoredCheckpoint newest = list.isEmpty() ? null : list.get(list.size() - 1);
            if (newest != null && newest.hasSubtaskDetail()) {
                StoredCheckpoint lean = newest.withoutSubtaskDetail();
                list.set(list.size() - 1, lean);
                long freed = newest.estimatedBytes() - lean.estimatedBytes();
                job.checkpointBytes -= freed;
                heldBytes -= freed;
                return freed;
            }
        }
        return 0;
    }

    private String leastRecentlyWrittenFinished(String except) {
        for (String jobId : byJob.keySet()) {
            if (!jobId.equals(except) && finished.test(jobId)) {
                return jobId;
            }
        }
        return null;
    }

    /**
     * Drops the oldest checkpoint of the job holding the most bytes among those with more than one;
     * its bytes.
     */
    private long dropOldestOfLargest() {
        JobCheckpoints largest = null;
        for (JobCheckpoints job : byJob.values()) {
            if (job.checkpoints.size() > 1
                    && (largest == null || job.checkpointBytes > largest.checkpointBytes)) {
                largest = job;
            }
        }
        return largest == null ? 0 : dropOldest(largest);
    }

    private long dropOldest(JobCheckpoints job) {
        long before = job.bytes();
        job.checkpointBytes -= job.checkpoints.remove(0).estimatedBytes();
        job.trimmed = true;
        evictedCount++;
        long freed = before - job.bytes();
        heldBytes -= freed;
        return freed;
    }

    private long removeJobInternal(String jobId) {
        JobCheckpoints job = byJob.remove(jobId);
        if (job == null) {
            return 0;
        }
        long freed = job.bytes();
        heldBytes -= freed;
        evictedCount += job.checkpoints.size();
        return freed;
    }

    /**
     * Drops every checkpoint of {@code jobId} (a finished job, for the stores' budget); returns the
     * bytes freed.
     */
    public synchronized long removeJob(String jobId) {
        return removeJobInternal(jobId);
    }

    /**
     * Drops running jobs' oldest checkpoints, the job holding the most bytes first, until {@code
     * bytes} are freed or every job is down to its newest checkpoint (for the stores' budget);
     * returns the bytes freed.
     */
    public synchronized long trimOldest(long bytes) {
        PriorityQueue<JobCheckpoints> largestFirst =
                new PriorityQueue<>(
                        Comparator.comparingLong((JobCheckpoints j) -> j.checkpointBytes)
                                .reversed());
        for (JobCheckpoints job : byJob.values()) {
            if (job.checkpoints.size() > 1) {
                largestFirst.add(job);
            }
        }
        long freed = 0;
        while (freed < bytes && !largestFirst.isEmpty()) {
            JobCheckpoints job = largestFirst.poll();
            freed += dropOldest(job);
            if (job.checkpoints.size() > 1) {
                largestFirst.add(job);
            }
        }
        return freed;
    }

    /**
     * Estimated heap bytes the checkpoints hold: the compact checkpoints, their jobs' shared
     * strings and lists.
     */
    public synchronized long estimatedBytes() {
        return heldBytes;
    }

    /** Whether the job's oldest checkpoints were dropped to keep the store within its bounds. */
    public synchronized boolean droppedOldest(String jobId) {
        JobCheckpoints job = byJob.get(jobId);
        return job != null && job.trimmed;
    }

    /**
     * Checkpoints dropped (alone or with their job) to keep the store within its counts and bytes.
     */
    public synchronized long evicted() {
        return evictedCount;
    }

    /**
     * Keeps a checkpoint reported only by event, unless a span already reported it (the span
     * carries more).
     */
    public synchronized void addIfAbsent(CheckpointRecord record) {
        JobCheckpoints job = byJob.get(record.jobId());
        if (job == null || indexOf(job, record.checkpointId()) < 0) {
            add(record);
        }
    }

    /**
     * Keeps a checkpoint the hub read from Flink's REST API: fills in what an earlier report (span
     * or event) of the same checkpoint lacks, never replacing what it gave, so no checkpoint counts
     * twice.
     */
    public synchronized void addFromRest(CheckpointRecord record) {
        JobCheckpoints job = byJob.get(record.jobId());
        int at = job == null ? -1 : indexOf(job, record.checkpointId());
        add(at < 0 ? record : job.checkpoints.get(at).toRecord().orElse(record));
    }

    /** The checkpoints of {@code jobId}, newest first, at most {@code limit}. */
    public List<CheckpointRecord> newestFirst(String jobId, int limit) {
        return newestFirst(jobId, limit, Long.MIN_VALUE);
    }

    /**
     * The checkpoints of {@code jobId} triggered at or after {@code fromMillis}, newest first, at
     * most {@code limit}.
     */
    public synchronized List<CheckpointRecord> newestFirst(
            String jobId, int limit, long fromMillis) {
        JobCheckpoints job = byJob.get(jobId);
        List<CheckpointRecord> out = new ArrayList<>();
        if (job != null) {
            for (int i = job.checkpoints.size() - 1; i >= 0 && out.size() < limit; i--) {
                StoredCheckpoint c = job.checkpoints.get(i);
                // Not a break: ids come in order, trigger times almost always do, but a savepoint
                // may interleave.
                if (c.triggerTime() >= fromMillis) {
                    out.add(c.toRecord());
                }
            }
        }
        return out;
    }

    /** The newest checkpoint of {@code jobId}, or null. */
    public synchronized CheckpointRecord latest(String jobId) {
        JobCheckpoints job = byJob.get(jobId);
        return job == null || job.checkpoints.isEmpty()
                ? null
                : job.checkpoints.get(job.checkpoints.size() - 1).toRecord();
    }

    /** The ids of the jobs with checkpoints, most recently written last. */
    public synchronized List<String> jobIds() {
        return new ArrayList<>(byJob.keySet());
    }
}
