package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.QueryParameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds {@link QueryParameters} from name/value pairs, as the HTTP server would decode them. */
final class QueryParams {

    private QueryParams() {}

    static QueryParameters of(String... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.computeIfAbsent(pairs[i], k -> new ArrayList<>()).add(pairs[i + 1]);
        }
        return new QueryParameters(map);
    }
}
