package io.flinkinsight.plugin.store.statement;

import java.util.Map;

/**
 * One statement as {@code /api/v1/statements} answers it: times in milliseconds, instants in epoch
 * milliseconds, quantiles within 7 % ({@link DurationHistogram}); the cluster's part and the time
 * outside the job are null while no query of it was seen to reach the cluster.
 *
 * @param share this statement's part of the total time of all statements kept (0 to 1)
 * @param partsP50Ms the median of each part a query of it reached: admissionWait, submit,
 *     jobStartWait, resultFetch, clusterRun
 */
public record StatementRow(
        String id,
        String statement,
        long calls,
        long failed,
        long canceled,
        long totalMs,
        double share,
        long meanMs,
        long p50Ms,
        long p99Ms,
        long maxMs,
        Long clusterP50Ms,
        Long clusterP99Ms,
        Long outsideJobMeanMs,
        Map<String, Long> partsP50Ms,
        long firstSeen,
        long lastSeen) {}
