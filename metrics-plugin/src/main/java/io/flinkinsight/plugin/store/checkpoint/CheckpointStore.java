package io.flinkinsight.plugin.store.checkpoint;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The last {@code maxCheckpointsPerJob} checkpoints of at most {@code maxJobs} jobs (per-subtask details only on
 * the newest {@value #CHECKPOINTS_WITH_SUBTASK_DETAIL}), within {@code maxBytes} of estimated heap: when over, the
 * job written least recently goes first (a finished job stops writing), and the job being written loses only its
 * oldest checkpoints, never its newest. Written from Flink's reporter callbacks under the registry lock, so a write
 * only links an already parsed record and sums one job's estimates; reads copy.
 */
public final class CheckpointStore {

    /** Only the newest checkpoints of a job keep per-subtask details; older ones keep per-task figures. */
    static final int CHECKPOINTS_WITH_SUBTASK_DETAIL = 10;

    private final int maxPerJob;
    private final int maxJobs;
    private final long maxBytes;
    private final HashMap<String, Long> bytesByJob = new HashMap<>();
    private long heldBytes;
    private long evictedCount;
    /** Jobs that lost their oldest checkpoints to a bound (at most maxJobs: a job leaves with its checkpoints). */
    private final HashSet<String> trimmedJobs = new HashSet<>();
    /** In write order (a write moves its job last): the job written least recently is evicted first. */
    private final LinkedHashMap<String, ArrayDeque<CheckpointRecord>> byJob = new LinkedHashMap<>();

    /** A store without a byte budget beyond its counts. */
    public CheckpointStore(int maxCheckpointsPerJob, int maxJobs) {
        this(maxCheckpointsPerJob, maxJobs, Long.MAX_VALUE);
    }

    public CheckpointStore(int maxCheckpointsPerJob, int maxJobs, long maxBytes) {
        this.maxPerJob = maxCheckpointsPerJob;
        this.maxJobs = maxJobs;
        this.maxBytes = maxBytes;
    }

    /**
     * Keeps a checkpoint reported by span; replaces an event-only or earlier report of the same checkpoint, keeping
     * what only the earlier report gave (figures Flink's REST API filled in on a Flink before 2.2).
     */
    public synchronized void add(CheckpointRecord record) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.remove(record.jobId());
        if (checkpoints == null) {
            if (byJob.size() >= maxJobs) {
                evictJob(byJob.keySet().iterator().next());
            }
            checkpoints = new ArrayDeque<>();
        }
        byJob.put(record.jobId(), checkpoints);
        if (!replace(checkpoints, record)) {
            insert(record.jobId(), checkpoints, record);
        }
        account(record.jobId(), checkpoints);
        keepWithinBudget(record.jobId(), checkpoints);
    }

    private void insert(String jobId, ArrayDeque<CheckpointRecord> checkpoints, CheckpointRecord record) {
        // Reports arrive in completion order, which may differ from id order; keep the deque sorted by id.
        if (checkpoints.isEmpty() || checkpoints.peekLast().checkpointId() < record.checkpointId()) {
            checkpoints.addLast(record);
        } else {
            List<CheckpointRecord> sorted = new ArrayList<>(checkpoints);
            sorted.add(record);
            sorted.sort((x, y) -> Long.compare(x.checkpointId(), y.checkpointId()));
            checkpoints.clear();
            checkpoints.addAll(sorted);
        }
        while (checkpoints.size() > maxPerJob) {
            checkpoints.pollFirst();
            trimmedJobs.add(jobId);
        }
        dropOldSubtaskDetail(checkpoints);
    }

    /** Recounts one job's estimated bytes after a change to its checkpoints. */
    private void account(String jobId, ArrayDeque<CheckpointRecord> checkpoints) {
        long bytes = 0;
        for (CheckpointRecord r : checkpoints) {
            bytes += r.estimatedBytes();
        }
        Long before = bytesByJob.put(jobId, bytes);
        heldBytes += bytes - (before == null ? 0 : before);
    }

    private void evictJob(String jobId) {
        byJob.remove(jobId);
        trimmedJobs.remove(jobId);
        Long bytes = bytesByJob.remove(jobId);
        heldBytes -= bytes == null ? 0 : bytes;
        evictedCount++;
    }

    private void keepWithinBudget(String writtenJob, ArrayDeque<CheckpointRecord> written) {
        while (heldBytes > maxBytes && byJob.size() > 1) {
            String eldest = byJob.keySet().iterator().next();
            if (eldest.equals(writtenJob)) {
                break; // cannot happen: a write moves its job last
            }
            evictJob(eldest);
        }
        long jobBytes = bytesByJob.getOrDefault(writtenJob, 0L);
        while (heldBytes > maxBytes && written.size() > 1) {
            long bytes = written.pollFirst().estimatedBytes();
            trimmedJobs.add(writtenJob);
            heldBytes -= bytes;
            jobBytes -= bytes;
            evictedCount++;
        }
        bytesByJob.put(writtenJob, jobBytes);
    }

    /** Estimated heap bytes the checkpoints hold. */
    public synchronized long estimatedBytes() {
        return heldBytes;
    }

    /** Whether the job's oldest checkpoints were dropped to keep the store within its bounds. */
    public synchronized boolean droppedOldest(String jobId) {
        return trimmedJobs.contains(jobId);
    }

    /** Jobs and checkpoints dropped to keep the store within its counts and its byte budget. */
    public synchronized long evicted() {
        return evictedCount;
    }

    private static void dropOldSubtaskDetail(ArrayDeque<CheckpointRecord> checkpoints) {
        int older = checkpoints.size() - CHECKPOINTS_WITH_SUBTASK_DETAIL;
        if (older <= 0) {
            return;
        }
        boolean any = false;
        Iterator<CheckpointRecord> it = checkpoints.iterator();
        for (int i = 0; i < older && it.hasNext(); i++) {
            any |= it.next().hasSubtaskDetail();
        }
        if (!any) {
            return;
        }
        List<CheckpointRecord> copy = new ArrayList<>(checkpoints.size());
        int i = 0;
        for (CheckpointRecord r : checkpoints) {
            copy.add(i++ < older ? r.withoutSubtaskDetail() : r);
        }
        checkpoints.clear();
        checkpoints.addAll(copy);
    }

    /** Keeps a checkpoint reported only by event, unless a span already reported it (the span carries more). */
    public synchronized void addIfAbsent(CheckpointRecord record) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.get(record.jobId());
        if (checkpoints != null) {
            for (CheckpointRecord existing : checkpoints) {
                if (existing.checkpointId() == record.checkpointId()) {
                    return;
                }
            }
        }
        add(record);
    }

    /**
     * Keeps a checkpoint the hub read from Flink's REST API: fills in what an earlier report (span or event) of the
     * same checkpoint lacks, never replacing what it gave, so no checkpoint counts twice.
     */
    public synchronized void addFromRest(CheckpointRecord record) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.get(record.jobId());
        if (checkpoints != null) {
            for (CheckpointRecord existing : checkpoints) {
                if (existing.checkpointId() == record.checkpointId()) {
                    add(existing.orElse(record));
                    return;
                }
            }
        }
        add(record);
    }

    private static boolean replace(ArrayDeque<CheckpointRecord> checkpoints, CheckpointRecord record) {
        if (checkpoints.stream().noneMatch(c -> c.checkpointId() == record.checkpointId())) {
            return false;
        }
        List<CheckpointRecord> copy = new ArrayList<>(checkpoints.size());
        for (CheckpointRecord existing : checkpoints) {
            copy.add(existing.checkpointId() == record.checkpointId() ? record.orElse(existing) : existing);
        }
        checkpoints.clear();
        checkpoints.addAll(copy);
        return true;
    }

    /** The checkpoints of {@code jobId}, newest first, at most {@code limit}. */
    public List<CheckpointRecord> newestFirst(String jobId, int limit) {
        return newestFirst(jobId, limit, Long.MIN_VALUE);
    }

    /** The checkpoints of {@code jobId} triggered at or after {@code fromMillis}, newest first, at most {@code limit}. */
    public synchronized List<CheckpointRecord> newestFirst(String jobId, int limit, long fromMillis) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.get(jobId);
        List<CheckpointRecord> out = new ArrayList<>();
        if (checkpoints != null) {
            Iterator<CheckpointRecord> it = checkpoints.descendingIterator();
            while (it.hasNext() && out.size() < limit) {
                CheckpointRecord r = it.next();
                // Not a break: ids come in order, trigger times almost always do, but a savepoint may interleave.
                if (r.triggerTime() >= fromMillis) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** The newest checkpoint of {@code jobId}, or null. */
    public synchronized CheckpointRecord latest(String jobId) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.get(jobId);
        return checkpoints == null ? null : checkpoints.peekLast();
    }

    /** The ids of the jobs with checkpoints, most recently written last. */
    public synchronized List<String> jobIds() {
        return new ArrayList<>(byJob.keySet());
    }

    public synchronized int jobCount() {
        return byJob.size();
    }
}
