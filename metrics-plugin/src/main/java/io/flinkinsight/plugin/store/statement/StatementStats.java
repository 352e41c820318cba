package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.LinkedHashMap;
import java.util.Map;

/** What one statement's queries added up to, since the statement was first seen. */
final class StatementStats {

    private final String id;
    private final String statement;
    private final long firstSeenMillis;
    private long lastSeenMillis;
    private long calls;
    private long failed;
    private long canceled;
    private long totalMs;
    private long maxMs;
    private long outsideJobMs;
    private long outsideJobCalls;
    private final DurationHistogram e2e = new DurationHistogram();
    private final DurationHistogram clusterRun = new DurationHistogram();
    private final Map<String, DurationHistogram> parts = new LinkedHashMap<>();

    StatementStats(String id, String statement, long firstSeenMillis) {
        this.id = id;
        this.statement = statement;
        this.firstSeenMillis = firstSeenMillis;
        this.lastSeenMillis = firstSeenMillis;
        for (String part :
                new String[] {"admissionWait", "submit", "jobStartWait", "resultFetch"}) {
            parts.put(part, new DurationHistogram());
        }
    }

    void add(QuerySample query) {
        calls++;
        if (query.outcome().equals("FAILED")) {
            failed++;
        } else if (query.outcome().equals("CANCELED")) {
            canceled++;
        }
        totalMs = saturatedAdd(totalMs, query.e2eMs());
        maxMs = Math.max(maxMs, query.e2eMs());
        lastSeenMillis = Math.max(lastSeenMillis, query.endMillis());
        e2e.add(query.e2eMs());
        if (query.clusterRunMs() >= 0) {
            clusterRun.add(query.clusterRunMs());
            outsideJobMs =
                    saturatedAdd(outsideJobMs, Math.max(0, query.e2eMs() - query.clusterRunMs()));
            outsideJobCalls++;
        }
        addPart("admissionWait", query.admissionWaitMs());
        addPart("submit", query.submitMs());
        addPart("jobStartWait", query.jobStartWaitMs());
        addPart("resultFetch", query.resultFetchMs());
    }

    private void addPart(String part, long millis) {
        if (millis >= 0) {
            parts.get(part).add(millis);
        }
    }

    String id() {
        return id;
    }

    long totalMs() {
        return totalMs;
    }

    StatementRow row(long allStatementsMs) {
        Map<String, Long> partP50 = new LinkedHashMap<>();
        parts.forEach(
                (part, histogram) -> {
                    if (histogram.count() > 0) {
                        partP50.put(part, histogram.quantile(0.5));
                    }
                });
        if (clusterRun.count() > 0) {
            partP50.put("clusterRun", clusterRun.quantile(0.5));
        }
        return new StatementRow(
                id,
                statement,
                calls,
                failed,
                canceled,
                totalMs,
                allStatementsMs == 0 ? 0 : (double) totalMs / allStatementsMs,
                calls == 0 ? 0 : totalMs / calls,
                // a bucket's middle may lie above the largest value in it
                Math.min(e2e.quantile(0.5), maxMs),
                Math.min(e2e.quantile(0.99), maxMs),
                maxMs,
                clusterRun.count() == 0 ? null : clusterRun.quantile(0.5),
                clusterRun.count() == 0 ? null : clusterRun.quantile(0.99),
                outsideJobCalls == 0 ? null : outsideJobMs / outsideJobCalls,
                partP50,
                firstSeenMillis,
                lastSeenMillis);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    long estimatedBytes() {
        long histograms = e2e.estimatedBytes() + clusterRun.estimatedBytes();
        for (DurationHistogram histogram : parts.values()) {
            histograms += histogram.estimatedBytes() + HeapSizes.HASH_ENTRY;
        }
        return HeapSizes.object(12 * 8 + 5 * HeapSizes.REFERENCE)
                + HeapSizes.string(id)
                + HeapSizes.string(statement)
                + histograms;
    }
}
