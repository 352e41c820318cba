package io.flinkinsight.plugin.store.job;

/** The newest checkpoint of a job, joined from the checkpoint store for the jobs list. */
public record LastCheckpoint(
        long id,
        String status,
        String type,
        long endTime,
        Long durationMs,
        Long checkpointedSize,
        Long fullSize) {}
