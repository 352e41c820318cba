package io.flinkinsight.plugin.store;

import java.time.Duration;
import java.util.Objects;

/**
 * What the stores are allowed to keep and how the hub gathers, resolved from the reporter options by the runtime.
 *
 * @param retention how long metric history is kept; series not written for this long are removed
 * @param resolution the sampling interval the history is written at
 * @param maxSeries the most series kept; samples of further new series are dropped and counted
 * @param maxCheckpointsPerJob the most recent checkpoints kept per job
 * @param maxJobs the most jobs kept (oldest terminal jobs are evicted first)
 * @param flinkRestUrl the JobManager's REST base URL for the hub, or empty to derive it from Flink's configuration
 * @param hubPollInterval how often the hub polls Flink's REST API
 * @param hubEnabled whether a JobManager's stores run the hub at all
 */
public record StoreSettings(
        Duration retention,
        Duration resolution,
        int maxSeries,
        int maxCheckpointsPerJob,
        int maxJobs,
        String flinkRestUrl,
        Duration hubPollInterval,
        boolean hubEnabled) {

    public static final Duration DEFAULT_RETENTION = Duration.ofHours(1);
    public static final Duration DEFAULT_RESOLUTION = Duration.ofSeconds(5);
    public static final int DEFAULT_MAX_SERIES = 20_000;
    public static final int DEFAULT_MAX_CHECKPOINTS_PER_JOB = 100;
    public static final int DEFAULT_MAX_JOBS = 500;
    public static final Duration DEFAULT_HUB_POLL_INTERVAL = Duration.ofSeconds(10);

    public StoreSettings {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(hubPollInterval, "hubPollInterval");
        requirePositive(retention, "retention");
        requirePositive(resolution, "resolution");
        requirePositive(hubPollInterval, "hubPollInterval");
        if (resolution.compareTo(retention) > 0) {
            throw new IllegalArgumentException("resolution must not exceed retention");
        }
        if (maxSeries < 1 || maxCheckpointsPerJob < 1 || maxJobs < 1) {
            throw new IllegalArgumentException("maxSeries, maxCheckpointsPerJob and maxJobs must be positive");
        }
        flinkRestUrl = flinkRestUrl == null ? "" : flinkRestUrl.trim();
    }

    /** The settings without the hub switch (the hub is enabled). */
    public StoreSettings(
            Duration retention,
            Duration resolution,
            int maxSeries,
            int maxCheckpointsPerJob,
            int maxJobs,
            String flinkRestUrl,
            Duration hubPollInterval) {
        this(retention, resolution, maxSeries, maxCheckpointsPerJob, maxJobs, flinkRestUrl, hubPollInterval, true);
    }

    /** The documented defaults: 1 h at 5 s, 20k series, 100 checkpoints per job, 500 jobs, hub every 10 s. */
    public static StoreSettings defaults() {
        return new StoreSettings(
                DEFAULT_RETENTION,
                DEFAULT_RESOLUTION,
                DEFAULT_MAX_SERIES,
                DEFAULT_MAX_CHECKPOINTS_PER_JOB,
                DEFAULT_MAX_JOBS,
                "",
                DEFAULT_HUB_POLL_INTERVAL,
                true);
    }

    public StoreSettings withHubEnabled(boolean enabled) {
        return new StoreSettings(
                retention, resolution, maxSeries, maxCheckpointsPerJob, maxJobs, flinkRestUrl, hubPollInterval, enabled);
    }

    public StoreSettings withMaxSeries(int max) {
        return new StoreSettings(
                retention, resolution, max, maxCheckpointsPerJob, maxJobs, flinkRestUrl, hubPollInterval, hubEnabled);
    }

    private static void requirePositive(Duration d, String name) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
