package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.SeriesStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /api/v1/series/names?prefix=&contains=&limit=}: the sorted names of the series with
 * history that start with {@code prefix} and contain {@code contains} (case-insensitive), for
 * pickers; at most {@code limit}.
 */
public final class SeriesNamesEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/series/names";

    static final int DEFAULT_LIMIT = 1_000;
    static final int MAX_LIMIT = 10_000;

    private final SeriesStore store;

    public SeriesNamesEndpoint(SeriesStore store) {
        this.store = store;
    }

    /** Longer {@code contains} texts are refused: no series name is that long. */
    static final int MAX_CONTAINS_LENGTH = 256;

    public record Response(String prefix, String contains, boolean truncated, List<String> names) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("prefix", "contains", "limit (fewer names)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        String prefix = query.get("prefix").orElse("");
        String contains = query.get("contains").orElse("");
        if (contains.length() > MAX_CONTAINS_LENGTH) {
            throw new BadRequestException(
                    "parameter 'contains' must be at most " + MAX_CONTAINS_LENGTH + " characters");
        }
        String needle = contains.toLowerCase(Locale.ROOT);
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        List<String> names = new ArrayList<>();
        boolean truncated = false;
        for (String name : store.names().tailSet(prefix)) {
            if (!name.startsWith(prefix)) {
                break;
            }
            if (!needle.isEmpty() && !name.toLowerCase(Locale.ROOT).contains(needle)) {
                continue;
            }
            if (names.size() == limit) {
                truncated = true;
                break;
            }
            names.add(name);
        }
        return new Response(prefix, contains, truncated, names);
    }
}
