package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementStore;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/queries}, each query with its timeline ({@link QueryView}):
 *
 * <ul>
 *   <li>{@code ?statement=<id>}: a statement's slowest and latest queries ({@value
 *       #STATEMENT_QUERIES} of each at the most);
 *   <li>{@code ?after=<n>&limit=}: the logged queries numbered after {@code n}, oldest first, at
 *       most {@code limit} (1 to {@value #MAX_LIMIT}, default {@value #DEFAULT_LIMIT}): what the
 *       hub reads from a gateway;
 *   <li>neither: the latest queries, latest first, at most {@code limit}.
 * </ul>
 */
public final class QueriesEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/queries";

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 500;
    static final int STATEMENT_QUERIES = 5;

    /**
     * A page of the log ends before its JSON passes about this many bytes (a text's character
     * counted as 3, its other fields as {@value #QUERY_BYTES}), so the hub's bound on an answer
     * holds whatever the texts.
     */
    public static final long PAGE_BYTES = 1024 * 1024;

    static final long QUERY_BYTES = 1_536;
    private static final Set<String> PARAMETERS = Set.of("statement", "after", "limit");
    private static final Pattern STATEMENT_ID = Pattern.compile("[0-9a-f]{16}");

    private final StatementStore statements;
    private final JobStore jobs;

    public QueriesEndpoint(StatementStore statements, JobStore jobs) {
        this.statements = statements;
        this.jobs = jobs;
    }

    /**
     * A statement's slowest queries (slowest first) and latest (latest first); its text null and
     * the lists empty when the statement is not kept.
     */
    public record StatementQueries(
            String statementId,
            @Nullable String statement,
            List<QueryView> slowest,
            List<QueryView> latest) {}

    /**
     * Logged queries, with what a reader needs to go on from them.
     *
     * @param instance names this process's log: another value means the process started again and
     *     numbers from 1
     * @param firstSeq the number of the oldest query still logged: a reader that last read one
     *     below {@code firstSeq - 1} missed the queries between
     * @param lastSeq the number of the newest query logged (0 when none)
     */
    public record LoggedQueries(
            String instance, long firstSeq, long lastSeq, List<QueryView> queries) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("limit (fewer queries)");
    }

    @Override
    public Object handle(QueryParameters query) throws BadRequestException {
        for (String name : query.asMap().keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new BadRequestException(
                        "unknown parameter (accepted: statement, after, limit): "
                                + (name.length() > 64 ? name.substring(0, 64) + "…" : name));
            }
        }
        if (query.get("statement").isPresent()) {
            if (query.get("after").isPresent() || query.get("limit").isPresent()) {
                throw new BadRequestException(
                        "parameter 'statement' goes alone: a statement's slowest and latest queries");
            }
            return ofStatement(query.get("statement").get());
        }
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        StatementStore.LogPage page =
                query.get("after").isPresent()
                        ? statements.after(query.getLong("after", 0, 0, Long.MAX_VALUE), limit)
                        : statements.newest(limit);
        List<QueryView> views = new ArrayList<>(page.queries().size());
        long bytes = 0;
        for (int i = 0; i < page.queries().size(); i++) {
            QuerySample q = page.queries().get(i);
            bytes += 3L * q.statement().length() + QUERY_BYTES;
            if (!views.isEmpty() && bytes > PAGE_BYTES) {
                break; // the rest on the next page: its first number follows this page's last
            }
            views.add(view(page.seqs().get(i), q));
        }
        return new LoggedQueries(statements.instance(), page.firstSeq(), page.lastSeq(), views);
    }

    private StatementQueries ofStatement(String id) throws BadRequestException {
        if (!STATEMENT_ID.matcher(id).matches()) {
            throw new BadRequestException(
                    "parameter 'statement' must be a statement's id: 16 lower-case hex digits");
        }
        StatementStore.KeptQueries kept = statements.kept(id);
        if (kept == null) {
            return new StatementQueries(id, null, List.of(), List.of());
        }
        return new StatementQueries(
                id, kept.statement(), views(kept.slowest()), views(kept.latest()));
    }

    private List<QueryView> views(List<QuerySample> queries) {
        List<QueryView> views = new ArrayList<>(queries.size());
        for (QuerySample q : queries) {
            views.add(view(null, q));
        }
        return views;
    }

    private QueryView view(@Nullable Long seq, QuerySample query) {
        return QueryView.of(seq, query, query.jobId() == null ? null : jobs.get(query.jobId()));
    }
}
