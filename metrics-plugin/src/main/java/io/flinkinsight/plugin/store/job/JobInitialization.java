package io.flinkinsight.plugin.store.job;

import java.util.Map;

/**
 * The job's state restore as Flink's {@code JobInitialization} span reported it: status, span
 * times, the restored checkpoint and size, and the max/sum duration figures (e.g. {@code
 * maxInitializeStateDurationMs}).
 */
public record JobInitialization(
        String status,
        long startTime,
        long endTime,
        Long checkpointId,
        Long fullSize,
        Map<String, Long> figures) {

    public JobInitialization {
        figures = Map.copyOf(figures);
    }
}
