package io.flinkinsight.plugin.store.job;

import io.flinkinsight.plugin.store.HeapSizes;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mutable state of one job of a {@link JobStore}: its transitions, failures, restore, vertex names
 * and settings, what its record is made from and what its heap estimate counts; guarded by the
 * store's lock.
 */
final class JobEntry {

    /**
     * Ended, for this JobManager: SUSPENDED is how Flink names a job whose JobManager stopped or
     * lost leadership (a new leader may recover it, which then reports it anew).
     */
    static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED", "SUSPENDED");

    private static final Set<String> START = Set.of("INITIALIZING", "CREATED");

    private final Clock clock;
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

    JobEntry(String jobId, Clock clock) {
        this.jobId = jobId;
        this.clock = clock;
        touch();
    }

    void touch() {
        updatedAt = clock.millis();
    }

    void addTransition(String newStatus, long timestamp) {
        if (transitions.size() >= JobStore.MAX_TRANSITIONS) {
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
        if (START.contains(newStatus) && (firstStartTime == null || timestamp < firstStartTime)) {
            firstStartTime = timestamp;
        }
        if (TERMINAL.contains(newStatus)) {
            endedAt = timestamp;
        } else {
            endedAt = null; // a job may leave a locally terminal state only by being restarted as
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
    boolean evictsBefore(JobEntry other) {
        if (terminal() != other.terminal()) {
            return terminal();
        }
        if (terminal()) {
            return endedAt < other.endedAt;
        }
        return updatedAt < other.updatedAt;
    }

    /**
     * This entry with what it holds. Strings count whole: the job id and name, vertex ids and names
     * and the settings' names come from events and REST answers, which Flink does not keep.
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
                created == null ? null : Math.max(0, (endedAt != null ? endedAt : now) - created);
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

    /**
     * An immutable map as {@code Map.copyOf} makes it: an object and an array of keys and values,
     * half full.
     */
    private static long mapBytes(int entries) {
        return entries == 0 ? 0 : HeapSizes.object(2 * 4) + HeapSizes.referenceArray(4 * entries);
    }
}
