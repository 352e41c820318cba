package io.flinkinsight.plugin.store.job;

import java.util.List;
import java.util.Map;

/**
 * What is known of one job, as served by {@code /api/v1/jobs}.
 *
 * @param status the current status (Flink {@code JobStatus} name), or null before any report
 * @param createdAt the first CREATED/INITIALIZING report, or the REST start time, or the first
 *     report seen
 * @param endedAt when the job reached FINISHED, FAILED or CANCELED
 * @param clusterLatencyMs from createdAt to endedAt, or to now for a job still going
 * @param allSubtasksRunningAt the last time all subtasks were running or finished
 * @param transitions status changes, oldest first (bounded: the first and the most recent are kept)
 * @param failureCount failures reported in total; {@code failures} keeps the most recent few
 * @param vertices vertex id to name, as the hub learnt from Flink's REST API
 */
public record JobRecord(
        String jobId,
        String jobName,
        String status,
        boolean terminal,
        Long createdAt,
        Long endedAt,
        Long clusterLatencyMs,
        Long allSubtasksRunningAt,
        List<JobTransition> transitions,
        int failureCount,
        List<JobFailure> failures,
        JobInitialization initialization,
        LastCheckpoint lastCheckpoint,
        Map<String, String> vertices,
        long updatedAt) {

    public JobRecord withLastCheckpoint(LastCheckpoint checkpoint) {
        return new JobRecord(
                jobId,
                jobName,
                status,
                terminal,
                createdAt,
                endedAt,
                clusterLatencyMs,
                allSubtasksRunningAt,
                transitions,
                failureCount,
                failures,
                initialization,
                checkpoint,
                vertices,
                updatedAt);
    }
}
