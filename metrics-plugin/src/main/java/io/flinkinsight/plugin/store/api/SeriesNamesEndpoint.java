package io.flinkinsight.plugin.store.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesStore;

import java.util.ArrayList;
import java.util.List;

/** {@code GET /api/v1/series/names?prefix=&limit=}: the sorted names of the series with history, for pickers. */
public final class SeriesNamesEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/series/names";

    static final int DEFAULT_LIMIT = 1_000;
    static final int MAX_LIMIT = 10_000;

    private final SeriesStore store;

    public SeriesNamesEndpoint(SeriesStore store) {
        this.store = store;
    }

    public record Response(String prefix, boolean truncated, List<String> names) {}

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        String prefix = query.get("prefix").orElse("");
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        List<String> names = new ArrayList<>();
        boolean truncated = false;
        for (String name : store.names().tailSet(prefix)) {
            if (!name.startsWith(prefix)) {
                break;
            }
            if (names.size() == limit) {
                truncated = true;
                break;
            }
            names.add(name);
        }
        return new Response(prefix, truncated, names);
    }
}
