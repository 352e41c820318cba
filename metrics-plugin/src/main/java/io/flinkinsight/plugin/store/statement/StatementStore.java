package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import org.apache.flink.traces.Span;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements of the queries this process's interactive client ran, as {@code
 * pg_stat_statements} keeps them: per normalized statement, its calls, outcomes and the
 * distributions of its end-to-end time and of each part. Bounded in count and in estimated heap
 * bytes: a new statement beyond either bound first evicts the statements that cost least (least
 * total time), so the expensive ones stay.
 */
public final class StatementStore {

    /** The name of the interactive client's span of a query. */
    public static final String QUERY_SPAN = QuerySample.SPAN_NAME;

    private final int maxStatements;
    private final long maxBytes;
    private final Map<String, StatementStats> statements = new HashMap<>();
    private long bytes;
    private long evicted;

    /**
     * @param maxStatements how many statements are kept at the most
     * @param maxBytes how much heap, estimated, they take at the most
     */
    public StatementStore(int maxStatements, long maxBytes) {
        this.maxStatements = maxStatements;
        this.maxBytes = maxBytes;
    }

    /** Counts one query; called from a trace reporter's callback, so cheap but for evictions. */
    synchronized void add(QuerySample query) {
        StatementStats stats = statements.get(query.statementId());
        if (stats == null) {
            stats = new StatementStats(query.statementId(), query.statement(), query.endMillis());
            long newBytes = stats.estimatedBytes() + HeapSizes.HASH_ENTRY;
            makeRoom(newBytes);
            statements.put(query.statementId(), stats);
            bytes += newBytes;
        }
        long before = stats.estimatedBytes();
        stats.add(query);
        bytes += stats.estimatedBytes() - before;
        if (bytes > maxBytes) {
            // the statements' histograms grew past the bound
            makeRoom(0);
        }
    }

    /** Counts the query of {@code span} if it is one of the interactive client's. */
    public void addSpan(Span span) {
        QuerySample query = QuerySample.fromSpan(span);
        if (query != null) {
            add(query);
        }
    }

    /** The statements in {@code order}, at most {@code limit} of them. */
    public synchronized List<StatementRow> rows(StatementOrder order, int limit) {
        List<StatementRow> rows = new ArrayList<>(statements.size());
        long totalMs = 0;
        for (StatementStats stats : statements.values()) {
            totalMs += stats.totalMs();
        }
        for (StatementStats stats : statements.values()) {
            rows.add(stats.row(totalMs));
        }
        rows.sort(order.comparator());
        return rows.size() > limit ? List.copyOf(rows.subList(0, limit)) : rows;
    }

    public synchronized int size() {
        return statements.size();
    }

    public synchronized long estimatedBytes() {
        return bytes;
    }

    /** Statements evicted to keep within the bounds, since start. */
    public synchronized long evicted() {
        return evicted;
    }

    private void makeRoom(long newBytes) {
        while (!statements.isEmpty()
                && (statements.size() >= maxStatements && newBytes > 0
                        || bytes + newBytes > maxBytes)) {
            StatementStats cheapest =
                    statements.values().stream()
                            .min(Comparator.comparingLong(StatementStats::totalMs))
                            .orElseThrow();
            statements.remove(cheapest.id());
            bytes -= cheapest.estimatedBytes() + HeapSizes.HASH_ENTRY;
            evicted++;
        }
    }
}
