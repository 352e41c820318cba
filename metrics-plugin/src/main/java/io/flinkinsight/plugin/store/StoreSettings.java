package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.InsightOptions;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Duration;
import java.util.Objects;

/**
 * What the stores are allowed to keep, resolved from the reporter options by the runtime.
 *
 * @param retention how long metric history is kept; series not written for this long are removed
 * @param resolution the sampling interval the history is written at
 * @param maxSeries the most series kept; samples of further new series are dropped and counted
 * @param maxCheckpointsPerJob the most recent checkpoints kept per job
 * @param maxJobs the most jobs kept (oldest terminal jobs are evicted first)
 * @param maxCheckpointBytes the most heap, estimated, the checkpoints may take (within {@code
 *     maxBytes})
 * @param maxBytes the most heap, estimated, the stores may take together
 * @param keepLiterals {@code statements.keep-literals}: statements keep their literals when their
 *     sender kept them too
 */
public record StoreSettings(
        Duration retention,
        Duration resolution,
        int maxSeries,
        int maxCheckpointsPerJob,
        int maxJobs,
        long maxCheckpointBytes,
        long maxBytes,
        boolean keepLiterals) {

    // The defaults are InsightOptions' defaults: one source of truth for the README's table, the
    // options and tests.
    public static final Duration DEFAULT_RETENTION =
            InsightOptions.HISTORY_RETENTION.defaultValue();
    public static final Duration DEFAULT_RESOLUTION =
            InsightOptions.HISTORY_RESOLUTION.defaultValue();
    public static final int DEFAULT_MAX_SERIES = InsightOptions.HISTORY_MAX_SERIES.defaultValue();
    public static final int DEFAULT_MAX_CHECKPOINTS_PER_JOB =
            InsightOptions.CHECKPOINTS_MAX_PER_JOB.defaultValue();
    public static final int DEFAULT_MAX_JOBS = InsightOptions.JOBS_MAX.defaultValue();
    public static final long DEFAULT_MAX_CHECKPOINT_BYTES =
            InsightOptions.CHECKPOINTS_MAX_BYTES.defaultValue().getBytes();
    public static final long DEFAULT_MAX_BYTES =
            InsightOptions.STORES_MAX_BYTES.defaultValue().getBytes();

    public StoreSettings {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(resolution, "resolution");
        requirePositive(retention, "retention");
        requirePositive(resolution, "resolution");
        if (resolution.compareTo(retention) > 0) {
            throw new IllegalArgumentException("resolution must not exceed retention");
        }
        if (maxSeries < 1
                || maxCheckpointsPerJob < 1
                || maxJobs < 1
                || maxCheckpointBytes < 1
                || maxBytes < 1) {
            throw new IllegalArgumentException(
                    "maxSeries, maxCheckpointsPerJob, maxJobs, maxCheckpointBytes and maxBytes must be positive");
        }
    }

    /** The settings with literals replaced (the default of {@code statements.keep-literals}). */
    public StoreSettings(
            Duration retention,
            Duration resolution,
            int maxSeries,
            int maxCheckpointsPerJob,
            int maxJobs,
            long maxCheckpointBytes,
            long maxBytes) {
        this(
                retention,
                resolution,
                maxSeries,
                maxCheckpointsPerJob,
                maxJobs,
                maxCheckpointBytes,
                maxBytes,
                false);
    }

    /** The settings with the default byte budgets. */
    public StoreSettings(
            Duration retention,
            Duration resolution,
            int maxSeries,
            int maxCheckpointsPerJob,
            int maxJobs) {
        this(
                retention,
                resolution,
                maxSeries,
                maxCheckpointsPerJob,
                maxJobs,
                DEFAULT_MAX_CHECKPOINT_BYTES,
                DEFAULT_MAX_BYTES);
    }

    /**
     * The settings the options' defaults ({@link InsightOptions}) give, as a reporter without
     * options gets them.
     */
    public static StoreSettings defaults() {
        return new StoreSettings(
                DEFAULT_RETENTION,
                DEFAULT_RESOLUTION,
                DEFAULT_MAX_SERIES,
                DEFAULT_MAX_CHECKPOINTS_PER_JOB,
                DEFAULT_MAX_JOBS);
    }

    @VisibleForTesting
    public StoreSettings withMaxSeries(int max) {
        return new StoreSettings(
                retention,
                resolution,
                max,
                maxCheckpointsPerJob,
                maxJobs,
                maxCheckpointBytes,
                maxBytes,
                keepLiterals);
    }

    /** These settings with the stores' budget and the checkpoints' share of it. */
    @VisibleForTesting
    public StoreSettings withBytes(long maxCheckpoints, long max) {
        return new StoreSettings(
                retention,
                resolution,
                maxSeries,
                maxCheckpointsPerJob,
                maxJobs,
                maxCheckpoints,
                max,
                keepLiterals);
    }

    /** What the checkpoints may take: their own cap, never more than the stores' budget. */
    public long checkpointBytesCap() {
        return Math.min(maxCheckpointBytes, maxBytes);
    }

    private static void requirePositive(Duration d, String name) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
