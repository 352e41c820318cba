package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.statement.StatementOrder;
import io.flinkinsight.plugin.store.statement.StatementRow;
import io.flinkinsight.plugin.store.statement.StatementStore;

import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/statements?sort=total|p99|calls|failures&limit=&from=}: the statements of the
 * queries the interactive client in this process ran (in the hub: the gateways' clients of {@code
 * hub.clients}), the most first (by total time unless sorted otherwise), at most {@code limit}
 * (default {@value #DEFAULT_LIMIT}); with {@code from}, only those that ran a query since (their
 * figures are still since each was first seen).
 */
public final class StatementsEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/statements";

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1_000;
    private static final Set<String> PARAMETERS = Set.of("sort", "limit", "from");

    private final StatementStore store;
    private final Clock clock;

    public StatementsEndpoint(StatementStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The answer: the order, how many statements are kept, and the rows. */
    public record Response(String sort, int kept, List<StatementRow> statements) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("limit (fewer statements)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        for (String name : query.asMap().keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new BadRequestException(
                        "unknown parameter (accepted: sort, limit, from): "
                                + (name.length() > 64 ? name.substring(0, 64) + "…" : name));
            }
        }
        String sort = query.get("sort").orElse("total");
        StatementOrder order =
                StatementOrder.named(sort)
                        .orElseThrow(
                                () ->
                                        new BadRequestException(
                                                "parameter 'sort' must be one of total, p99,"
                                                        + " calls, failures"));
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        long from = TimeParameters.instant(query, "from", clock.millis(), Long.MIN_VALUE);
        return new Response(sort, store.size(), store.rows(order, limit, from));
    }
}
