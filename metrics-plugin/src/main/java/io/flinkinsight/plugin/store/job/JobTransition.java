package io.flinkinsight.plugin.store.job;

/**
 * A job status change as Flink's {@code JobStatusChangeEvent} reported it: the new status and when.
 */
public record JobTransition(String status, long timestamp) {}
