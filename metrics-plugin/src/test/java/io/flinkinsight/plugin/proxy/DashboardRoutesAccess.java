package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.QueryParameters;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Lets tests outside this package (the fuzz test of the request target) ask the dashboard proxy's
 * allowlist.
 */
public final class DashboardRoutesAccess {

    private DashboardRoutesAccess() {}

    public static final String PREFIX = DashboardRoutes.PREFIX;
    public static final String FILE_FOLDER = DashboardRoutes.FILE_FOLDER;

    /**
     * Each route's template (Flink's spelling, e.g. {@code /jobs/:jobid}) and the query parameters
     * it takes.
     */
    public static Map<String, Set<String>> routes() {
        return DashboardRoutes.ROUTES.stream()
                .collect(
                        Collectors.toMap(
                                DashboardRoutes.Route::template,
                                r ->
                                        r.parameters().stream()
                                                .map(RouteParameters.Parameter::flinkName)
                                                .collect(Collectors.toSet())));
    }

    /**
     * Whether the proxy forwards {@code inside} (the segments after /flink) and {@code query} to
     * Flink.
     */
    public static boolean forwards(
            List<String> inside, boolean trailingSlash, QueryParameters query) {
        return DashboardRoutes.allows(inside, trailingSlash)
                && DashboardRoutes.queryRefusal(inside, query) == null;
    }

    public static URI upstreamUri(
            String baseUrl, List<String> inside, boolean trailingSlash, QueryParameters query) {
        return DashboardRoutes.upstreamUri(baseUrl, inside, trailingSlash, query);
    }
}
