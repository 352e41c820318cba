package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import org.apache.flink.traces.Span;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The statements of the queries this process's interactive client ran (or, in the hub, the
 * gateways' clients), as {@code pg_stat_statements} keeps them: per normalized statement (or, with
 * {@code statements.keep-literals} on here and in the client, per statement as written), its calls,
 * outcomes, the distributions of its end-to-end time and of each part, and its slowest and latest
 * queries; and a log of the latest queries, numbered, for the hub to read. Bounded in count and in
 * estimated heap bytes (the log within a quarter of them): a new statement beyond either bound
 * first evicts the statements that cost least (their total time divided by one plus the hours since
 * they last ran), so the expensive ones stay and the ones no longer run make room in time.
 */
public final class StatementStore {

    /** The name of the interactive client's span of a query. */
    public static final String QUERY_SPAN = QuerySample.SPAN_NAME;

    /** The latest queries the log keeps at the most. */
    public static final int MAX_LOGGED = 2_000;

    private final int maxStatements;
    private final long maxBytes;
    private final boolean keepLiterals;
    private final Map<String, StatementStats> statements = new HashMap<>();
    private final QueryLog log;
    private final String instance = UUID.randomUUID().toString();
    private long bytes;
    private long evicted;

    /** How far the hub read each gateway's log (by its label), changed with what it read. */
    private final Map<String, StatementsSnapshot.FeedPosition> read = new HashMap<>();

    /** Counts every change, so a writer knows whether there is anything new to write. */
    private long changes;

    /**
     * @param maxStatements how many statements are kept at the most
     * @param maxBytes how much heap, estimated, they and the log take at the most
     */
    public StatementStore(int maxStatements, long maxBytes) {
        this(maxStatements, maxBytes, false);
    }

    /**
     * @param maxStatements how many statements are kept at the most
     * @param maxBytes how much heap, estimated, they and the log take at the most
     * @param keepLiterals {@code statements.keep-literals}: a query's literals are kept when this
     *     is true and its sender kept them, else replaced
     */
    public StatementStore(int maxStatements, long maxBytes, boolean keepLiterals) {
        this.keepLiterals = keepLiterals;
        this.maxStatements = maxStatements;
        this.maxBytes = maxBytes - maxBytes / 4;
        this.log = new QueryLog(MAX_LOGGED, maxBytes / 4);
    }

    /** Counts one query; called from a trace reporter's callback, so cheap but for evictions. */
    public synchronized void add(QuerySample query) {
        changes++;
        StatementStats stats = statements.get(query.statementId());
        if (stats == null) {
            stats = new StatementStats(query.statementId(), query.statement(), query.endMillis());
            long newBytes = stats.estimatedBytes() + HeapSizes.HASH_ENTRY;
            makeRoom(newBytes, query.endMillis());
            statements.put(query.statementId(), stats);
            bytes += newBytes;
        }
        log.add(query.sharing(stats.statement()));
        long before = stats.estimatedBytes();
        stats.add(query);
        bytes += stats.estimatedBytes() - before;
        if (bytes > maxBytes) {
            // the statements' histograms grew past the bound
            makeRoom(0, query.endMillis());
        }
    }

    /**
     * Counts queries the hub read from the gateway {@code source}'s log and records how far it has
     * read it, together: a snapshot has both or neither.
     */
    public synchronized void addRead(
            List<QuerySample> queries, String source, StatementsSnapshot.FeedPosition position) {
        for (QuerySample query : queries) {
            add(query);
        }
        read.put(source, position);
        changes++;
    }

    /** How far the gateway {@code source}'s log was read, or null when never. */
    public synchronized StatementsSnapshot.FeedPosition readPosition(String source) {
        return read.get(source);
    }

    /** A number that changes whenever this store does. */
    public synchronized long changes() {
        return changes;
    }

    /** What this store holds now. */
    public synchronized StatementsSnapshot snapshot() {
        List<StatementsSnapshot.Statement> all = new ArrayList<>(statements.size());
        for (StatementStats stats : statements.values()) {
            all.add(stats.snapshot());
        }
        List<QuerySample> logged = new ArrayList<>();
        for (QueryLog.Numbered n : log.after(0, MAX_LOGGED)) {
            QuerySample q = n.query();
            // the text once, with its statement, unless the statement went and the log keeps it
            logged.add(statements.containsKey(q.statementId()) ? q.sharing("") : q);
        }
        return new StatementsSnapshot(all, logged, Map.copyOf(read));
    }

    /**
     * Takes a snapshot read back into an empty store (the hub's, before its first round): the
     * statements within this store's bounds, the log (numbered anew), how far each gateway was
     * read. Returns how many statements were taken; none when this store holds any already.
     */
    public synchronized int restore(StatementsSnapshot snapshot) {
        if (!statements.isEmpty() || changes > 0) {
            return 0;
        }
        int taken = 0;
        for (StatementsSnapshot.Statement s : snapshot.statements()) {
            if (statements.size() >= maxStatements || statements.containsKey(s.id())) {
                continue;
            }
            StatementStats stats = StatementStats.of(s);
            long size = stats.estimatedBytes() + HeapSizes.HASH_ENTRY;
            if (bytes + size > maxBytes) {
                continue;
            }
            statements.put(s.id(), stats);
            bytes += size;
            taken++;
        }
        for (QuerySample query : snapshot.log()) {
            StatementStats stats = statements.get(query.statementId());
            if (stats != null) {
                log.add(query.sharing(stats.statement()));
            } else if (!query.statement().isEmpty()) {
                log.add(query);
            }
        }
        read.putAll(snapshot.read());
        return taken;
    }

    /**
     * Whether queries whose sender kept their literals keep them here ({@code
     * statements.keep-literals}).
     */
    public boolean keepsLiterals() {
        return keepLiterals;
    }

    /**
     * Counts the query of {@code span} if it is one of the interactive client's; its literals kept
     * only when {@link #keepsLiterals()} and the span says the client kept them.
     */
    public void addSpan(Span span) {
        QuerySample query = QuerySample.fromSpan(span, keepLiterals);
        if (query != null) {
            add(query);
        }
    }

    /** The statements in {@code order}, at most {@code limit} of them. */
    public List<StatementRow> rows(StatementOrder order, int limit) {
        return rows(order, limit, Long.MIN_VALUE);
    }

    /**
     * The statements last seen at or after {@code seenSince} (epoch milliseconds), in {@code
     * order}, at most {@code limit} of them; their shares are of the total time of those.
     */
    public synchronized List<StatementRow> rows(StatementOrder order, int limit, long seenSince) {
        List<StatementStats> seen = new ArrayList<>(statements.size());
        long totalMs = 0;
        for (StatementStats stats : statements.values()) {
            if (stats.lastSeenMillis() >= seenSince) {
                seen.add(stats);
                totalMs = StatementStats.saturatedAdd(totalMs, stats.totalMs());
            }
        }
        List<StatementRow> rows = new ArrayList<>(seen.size());
        for (StatementStats stats : seen) {
            rows.add(stats.row(totalMs));
        }
        rows.sort(order.comparator());
        return rows.size() > limit ? List.copyOf(rows.subList(0, limit)) : rows;
    }

    /** A statement's text and its slowest and latest queries; null for a statement not kept. */
    public synchronized KeptQueries kept(String statementId) {
        StatementStats stats = statements.get(statementId);
        return stats == null
                ? null
                : new KeptQueries(stats.id(), stats.statement(), stats.slowest(), stats.latest());
    }

    /** A statement's slowest queries (slowest first) and latest (latest first). */
    public record KeptQueries(
            String id, String statement, List<QuerySample> slowest, List<QuerySample> latest) {}

    /**
     * The logged queries numbered after {@code after}, oldest first, at most {@code limit}, with
     * the numbers of the oldest and the newest logged.
     */
    public synchronized LogPage after(long after, int limit) {
        return page(log.after(after, limit));
    }

    /** The newest {@code limit} logged queries, newest first. */
    public synchronized LogPage newest(int limit) {
        return page(log.newest(limit));
    }

    private LogPage page(List<QueryLog.Numbered> queries) {
        List<Long> seqs = new ArrayList<>(queries.size());
        List<QuerySample> samples = new ArrayList<>(queries.size());
        for (QueryLog.Numbered n : queries) {
            seqs.add(n.seq());
            samples.add(n.query());
        }
        return new LogPage(log.firstSeq(), log.lastSeq(), seqs, samples);
    }

    /**
     * Logged queries and their numbers, with the numbers of the oldest logged and the newest.
     *
     * @param firstSeq the number of the oldest query logged (of the next when none is)
     */
    public record LogPage(
            long firstSeq, long lastSeq, List<Long> seqs, List<QuerySample> queries) {}

    /** Names this store's log: a process that starts again has another. */
    public String instance() {
        return instance;
    }

    /** Whether the statement {@code statementId} is kept. */
    public synchronized boolean contains(String statementId) {
        return statements.containsKey(statementId);
    }

    public synchronized int size() {
        return statements.size();
    }

    public synchronized long estimatedBytes() {
        return bytes + log.estimatedBytes();
    }

    /** Statements evicted to keep within the bounds, since start. */
    public synchronized long evicted() {
        return evicted;
    }

    private void makeRoom(long newBytes, long nowMillis) {
        while (!statements.isEmpty()
                && (statements.size() >= maxStatements && newBytes > 0
                        || bytes + newBytes > maxBytes)) {
            StatementStats cheapest =
                    statements.values().stream()
                            .min(Comparator.comparingDouble(s -> s.cost(nowMillis)))
                            .orElseThrow();
            statements.remove(cheapest.id());
            bytes -= cheapest.estimatedBytes() + HeapSizes.HASH_ENTRY;
            evicted++;
        }
    }
}
