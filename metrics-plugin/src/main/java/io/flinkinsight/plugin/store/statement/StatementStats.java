package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one statement's queries added up to, since the statement was first seen. */
final class StatementStats {

    private final String id;
    private final String statement;
    private long firstSeenMillis;
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

    /** The slowest queries, slowest first, and the latest, latest first: at most KEPT each. */
    private final List<QuerySample> slowest = new ArrayList<>(KEPT + 1);

    private final List<QuerySample> latest = new ArrayList<>(KEPT + 1);

    /** How many of a statement's slowest, and of its latest, queries are kept. */
    static final int KEPT = 5;

    private static final Comparator<QuerySample> SLOWEST_FIRST =
            Comparator.comparingLong(QuerySample::e2eMs).reversed();

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

    /** The figures and kept queries, for a snapshot. */
    StatementsSnapshot.Statement snapshot() {
        Map<String, long[]> partCounts = new LinkedHashMap<>();
        parts.forEach((part, histogram) -> partCounts.put(part, histogram.counts()));
        return new StatementsSnapshot.Statement(
                id,
                statement,
                firstSeenMillis,
                lastSeenMillis,
                calls,
                failed,
                canceled,
                totalMs,
                maxMs,
                outsideJobMs,
                outsideJobCalls,
                e2e.counts(),
                clusterRun.counts(),
                partCounts,
                withoutText(slowest),
                withoutText(latest));
    }

    /** Queries with an empty text: a snapshot has their statement's once, not once a query. */
    private static List<QuerySample> withoutText(List<QuerySample> queries) {
        List<QuerySample> out = new ArrayList<>(queries.size());
        for (QuerySample q : queries) {
            out.add(q.sharing(""));
        }
        return out;
    }

    /** A statement read back from a snapshot; its kept queries share its text. */
    static StatementStats of(StatementsSnapshot.Statement s) {
        StatementStats stats = new StatementStats(s.id(), s.statement(), s.firstSeenMillis());
        stats.lastSeenMillis = s.lastSeenMillis();
        stats.calls = s.calls();
        stats.failed = s.failed();
        stats.canceled = s.canceled();
        stats.totalMs = s.totalMs();
        stats.maxMs = s.maxMs();
        stats.outsideJobMs = s.outsideJobMs();
        stats.outsideJobCalls = s.outsideJobCalls();
        stats.e2e.restore(s.e2e());
        stats.clusterRun.restore(s.clusterRun());
        s.parts()
                .forEach(
                        (part, counts) -> {
                            DurationHistogram h = stats.parts.get(part);
                            if (h != null) {
                                h.restore(counts);
                            }
                        });
        for (QuerySample q : s.slowest().subList(0, Math.min(KEPT, s.slowest().size()))) {
            stats.slowest.add(q.sharing(stats.statement));
        }
        for (QuerySample q : s.latest().subList(0, Math.min(KEPT, s.latest().size()))) {
            stats.latest.add(q.sharing(stats.statement));
        }
        return stats;
    }

    void add(QuerySample given) {
        QuerySample query = given.sharing(statement);
        keep(query);
        calls++;
        if (query.outcome().equals("FAILED")) {
            failed++;
        } else if (query.outcome().equals("CANCELED")) {
            canceled++;
        }
        totalMs = saturatedAdd(totalMs, query.e2eMs());
        maxMs = Math.max(maxMs, query.e2eMs());
        lastSeenMillis = Math.max(lastSeenMillis, query.endMillis());
        // the hub may read an older query of a gateway after a newer one of another
        firstSeenMillis = Math.min(firstSeenMillis, query.endMillis());
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

    private void keep(QuerySample query) {
        latest.add(0, query);
        if (latest.size() > KEPT) {
            latest.remove(KEPT);
        }
        if (slowest.size() < KEPT || query.e2eMs() > slowest.get(KEPT - 1).e2eMs()) {
            slowest.add(query);
            slowest.sort(SLOWEST_FIRST);
            if (slowest.size() > KEPT) {
                slowest.remove(KEPT);
            }
        }
    }

    /** The slowest queries kept, slowest first. */
    List<QuerySample> slowest() {
        return List.copyOf(slowest);
    }

    /** The latest queries kept, latest first. */
    List<QuerySample> latest() {
        return List.copyOf(latest);
    }

    String statement() {
        return statement;
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

    /**
     * What keeping this statement is worth at {@code nowMillis}: its total time, divided by one
     * plus the hours since it last ran, so a statement no longer run gives way to new ones in time.
     */
    double cost(long nowMillis) {
        double idleHours = Math.max(0, nowMillis - lastSeenMillis) / 3_600_000.0;
        return totalMs / (1 + idleHours);
    }

    long lastSeenMillis() {
        return lastSeenMillis;
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    long estimatedBytes() {
        long histograms = e2e.estimatedBytes() + clusterRun.estimatedBytes();
        for (DurationHistogram histogram : parts.values()) {
            histograms += histogram.estimatedBytes() + HeapSizes.HASH_ENTRY;
        }
        long kept =
                2
                        * (HeapSizes.object(2 * HeapSizes.REFERENCE)
                                + HeapSizes.referenceArray(KEPT + 1));
        for (QuerySample query : slowest) {
            kept += query.estimatedBytesWithoutText();
        }
        for (QuerySample query : latest) {
            kept += query.estimatedBytesWithoutText();
        }
        return HeapSizes.object(12 * 8 + 7 * HeapSizes.REFERENCE)
                + HeapSizes.string(id)
                + HeapSizes.string(statement)
                + histograms
                + kept;
    }
}
