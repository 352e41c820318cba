package io.flinkinsight.plugin.store;

import java.time.Duration;

/**
 * What the stores are allowed to keep and how the hub gathers, resolved from the reporter options by the runtime.
 *
 * @param flinkRestUrl the JobManager's REST base URL for the hub, or empty to derive it from Flink's configuration
 */
public record StoreSettings(
        Duration retention,
        Duration resolution,
        int maxSeries,
        int maxCheckpointsPerJob,
        int maxJobs,
        String flinkRestUrl,
        Duration hubPollInterval) {}
