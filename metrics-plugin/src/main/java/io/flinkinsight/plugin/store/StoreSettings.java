package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.hub.ClientTarget;

import java.time.Duration;
import java.util.List;
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
 * @param hubClients the client processes' Insight endpoints the hub gathers the interactive client's figures from
 */
public record StoreSettings(
        Duration retention,
        Duration resolution,
        int maxSeries,
        int maxCheckpointsPerJob,
        int maxJobs,
        String flinkRestUrl,
        Duration hubPollInterval,
        boolean hubEnabled,
        List<ClientTarget> hubClients) {

    // The defaults are InsightOptions' defaults: one source of truth for the README's table, the options and tests.
    public static final Duration DEFAULT_RETENTION = InsightOptions.HISTORY_RETENTION.defaultValue();
    public static final Duration DEFAULT_RESOLUTION = InsightOptions.HISTORY_RESOLUTION.defaultValue();
    public static final int DEFAULT_MAX_SERIES = InsightOptions.HISTORY_MAX_SERIES.defaultValue();
    public static final int DEFAULT_MAX_CHECKPOINTS_PER_JOB = InsightOptions.CHECKPOINTS_MAX_PER_JOB.defaultValue();
    public static final int DEFAULT_MAX_JOBS = InsightOptions.JOBS_MAX.defaultValue();
    public static final Duration DEFAULT_HUB_POLL_INTERVAL = InsightOptions.HUB_POLL_INTERVAL.defaultValue();

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
        hubClients = hubClients == null ? List.of() : List.copyOf(hubClients);
    }

    /** The settings without client endpoints for the hub. */
    public StoreSettings(
            Duration retention,
            Duration resolution,
            int maxSeries,
            int maxCheckpointsPerJob,
            int maxJobs,
            String flinkRestUrl,
            Duration hubPollInterval,
            boolean hubEnabled) {
        this(retention, resolution, maxSeries, maxCheckpointsPerJob, maxJobs, flinkRestUrl, hubPollInterval, hubEnabled,
                List.of());
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

    /** The settings the options' defaults ({@link InsightOptions}) give, as a reporter without options gets them. */
    public static StoreSettings defaults() {
        return new StoreSettings(
                DEFAULT_RETENTION,
                DEFAULT_RESOLUTION,
                DEFAULT_MAX_SERIES,
                DEFAULT_MAX_CHECKPOINTS_PER_JOB,
                DEFAULT_MAX_JOBS,
                InsightOptions.HUB_FLINK_REST_URL.defaultValue(),
                DEFAULT_HUB_POLL_INTERVAL,
                InsightOptions.HUB_ENABLED.defaultValue(),
                ClientTarget.parseList(InsightOptions.HUB_CLIENTS.defaultValue()));
    }

    public StoreSettings withHubEnabled(boolean enabled) {
        return new StoreSettings(retention, resolution, maxSeries, maxCheckpointsPerJob, maxJobs, flinkRestUrl,
                hubPollInterval, enabled, hubClients);
    }

    public StoreSettings withMaxSeries(int max) {
        return new StoreSettings(retention, resolution, max, maxCheckpointsPerJob, maxJobs, flinkRestUrl,
                hubPollInterval, hubEnabled, hubClients);
    }

    public StoreSettings withHubClients(List<ClientTarget> clients) {
        return new StoreSettings(retention, resolution, maxSeries, maxCheckpointsPerJob, maxJobs, flinkRestUrl,
                hubPollInterval, hubEnabled, clients);
    }

    private static void requirePositive(Duration d, String name) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
