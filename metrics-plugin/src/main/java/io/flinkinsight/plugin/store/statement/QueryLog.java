package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The latest queries, each numbered in the order it ended: what the hub reads from a gateway after
 * the last number it read. Bounded in count and in estimated heap bytes (texts counted whole, as an
 * evicted statement's text stays with its queries here); the oldest go first.
 */
final class QueryLog {

    /** A query and its number. */
    record Numbered(long seq, QuerySample query) {}

    private final int maxQueries;
    private final long maxBytes;
    private final ArrayDeque<Numbered> queries = new ArrayDeque<>();
    private long nextSeq = 1;
    private long bytes;

    QueryLog(int maxQueries, long maxBytes) {
        this.maxQueries = maxQueries;
        this.maxBytes = maxBytes;
    }

    void add(QuerySample query) {
        long size = bytesOf(query);
        while (!queries.isEmpty() && (queries.size() >= maxQueries || bytes + size > maxBytes)) {
            bytes -= bytesOf(queries.pollFirst().query());
        }
        queries.addLast(new Numbered(nextSeq++, query));
        bytes += size;
    }

    /** The queries numbered after {@code after}, oldest first, at most {@code limit}. */
    List<Numbered> after(long after, int limit) {
        List<Numbered> found = new ArrayList<>(Math.min(limit, queries.size()));
        for (Numbered n : queries) {
            if (n.seq() > after) {
                found.add(n);
                if (found.size() == limit) {
                    break;
                }
            }
        }
        return found;
    }

    /** The newest {@code limit} queries, newest first. */
    List<Numbered> newest(int limit) {
        List<Numbered> found = new ArrayList<>(Math.min(limit, queries.size()));
        for (Iterator<Numbered> it = queries.descendingIterator();
                it.hasNext() && found.size() < limit; ) {
            found.add(it.next());
        }
        return found;
    }

    /** The number of the oldest query kept, or of the next one when none is. */
    long firstSeq() {
        return queries.isEmpty() ? nextSeq : queries.peekFirst().seq();
    }

    /** The number of the newest query kept (0 when none ended yet). */
    long lastSeq() {
        return nextSeq - 1;
    }

    long estimatedBytes() {
        return bytes;
    }

    private static long bytesOf(QuerySample query) {
        return query.estimatedBytesWithoutText()
                + HeapSizes.string(query.statement())
                + HeapSizes.object(HeapSizes.REFERENCE + 8)
                + 2L * HeapSizes.REFERENCE; // its slot in the deque, which may be half empty
    }
}
