package io.flinkinsight.plugin.store.checkpoint;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The last {@code maxCheckpointsPerJob} checkpoints of at most {@code maxJobs} jobs (per-subtask details only on
 * the newest {@value #CHECKPOINTS_WITH_SUBTASK_DETAIL}). Written from Flink's
 * reporter callbacks under the registry lock, so a write only links an already parsed record; reads copy.
 */
public final class CheckpointStore {

    /** Only the newest checkpoints of a job keep per-subtask details; older ones keep per-task figures. */
    static final int CHECKPOINTS_WITH_SUBTASK_DETAIL = 10;

    private final int maxPerJob;
    private final int maxJobs;
    /** In write order (a write moves its job last): the job written least recently is evicted first. */
    private final LinkedHashMap<String, ArrayDeque<CheckpointRecord>> byJob = new LinkedHashMap<>();

    public CheckpointStore(int maxCheckpointsPerJob, int maxJobs) {
        this.maxPerJob = maxCheckpointsPerJob;
        this.maxJobs = maxJobs;
    }

    /** Keeps a checkpoint reported by span; replaces an event-only or earlier report of the same checkpoint. */
    public synchronized void add(CheckpointRecord record) {
        ArrayDeque<CheckpointRecord> checkpoints = byJob.remove(record.jobId());
        if (checkpoints == null) {
            if (byJob.size() >= maxJobs) {
                Iterator<String> eldest = byJob.keySet().iterator();
                eldest.next();
                eldest.remove();
            }
            checkpoints = new ArrayDeque<>();
        }
        byJob.put(record.jobId(), checkpoints);
        if (replace(checkpoints, record)) {
            return;
        }
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
        }
        dropOldSubtaskDetail(checkpoints);
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

    private static boolean replace(ArrayDeque<CheckpointRecord> checkpoints, CheckpointRecord record) {
        if (checkpoints.stream().noneMatch(c -> c.checkpointId() == record.checkpointId())) {
            return false;
        }
        List<CheckpointRecord> copy = new ArrayList<>(checkpoints.size());
        for (CheckpointRecord existing : checkpoints) {
            copy.add(existing.checkpointId() == record.checkpointId() ? record : existing);
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
