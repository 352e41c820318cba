package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.QueryParameters;

/** Lets tests outside this package build query parameters. */
public final class QueryParamsAccess {

    private QueryParamsAccess() {}

    public static QueryParameters empty() {
        return QueryParams.of();
    }
}
