package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.ProcessRole;

import java.util.List;
import java.util.Map;

/**
 * What the port answers whoever reaches it, whatever {@link PortAccess} says of the rest: {@code
 * /metrics}, as Flink's PrometheusReporter does, and {@code /api/v1/metrics} in the one shape the
 * hub asks it of client processes on other hosts.
 */
final class OpenPaths {

    /**
     * The JSON twin of the scrape, open to everyone only in the shape the hub asks it of client
     * processes.
     */
    static final String METRICS_JSON_PATH = "/api/v1/metrics";

    /**
     * The prefix of the interactive client's figures, the only ones the hub gathers from other
     * processes.
     */
    static final String CLIENT_FIGURES = ProcessRole.CLIENT_FIGURE_PREFIX;

    /**
     * The interactive client's log of queries, open to everyone only in the shape the hub reads it
     * from gateways: their normalized statements (the job names Flink's PrometheusReporter shows as
     * {@code job_name}, less their literals), jobs and timings. Not open when the statements keep
     * their literals ({@code statements.keep-literals}), which may carry personal data.
     */
    static final String QUERY_LOG_PATH = "/api/v1/queries";

    private OpenPaths() {}

    /**
     * {@code /metrics}, and {@code /api/v1/metrics} asked as the hub asks client processes for the
     * interactive client's figures ({@code contains=insight_client_}, at most {@value
     * PortAccess#MAX_OPEN_METRICS} of them): what Flink's PrometheusReporter would show anyone, in
     * a bounded answer. Any other {@code /api/v1/metrics} is the API's.
     */
    static boolean isOpenToAll(RequestTarget target) {
        return isOpenToAll(target, true);
    }

    /**
     * As above; the query log in the hub's shape too only when {@code queryLogOpen} (its statements
     * do not keep their literals).
     */
    static boolean isOpenToAll(RequestTarget target, boolean queryLogOpen) {
        String path = target.path();
        if (path.equals(PortAccess.METRICS_PATH)) {
            return true;
        }
        if (path.equals(QUERY_LOG_PATH)) {
            return queryLogOpen && isHubReadOfTheQueryLog(target.query().asMap());
        }
        if (!path.equals(METRICS_JSON_PATH)) {
            return false;
        }
        Map<String, List<String>> query = target.query().asMap();
        List<String> contains = query.get("contains");
        List<String> limit = query.getOrDefault("limit", List.of("1"));
        return query.keySet().stream().allMatch(k -> k.equals("contains") || k.equals("limit"))
                && contains != null
                && contains.equals(List.of(CLIENT_FIGURES))
                && limit.size() == 1
                && limit.get(0).matches("[1-9][0-9]{0,3}")
                && Long.parseLong(limit.get(0)) <= PortAccess.MAX_OPEN_METRICS;
    }

    /** Whether {@code target} is the query log's path. */
    static boolean isQueryLog(RequestTarget target) {
        return target.path().equals(QUERY_LOG_PATH);
    }

    /** {@code ?after=<n>&limit=<n>}, as the hub asks, each once, in digits. */
    private static boolean isHubReadOfTheQueryLog(Map<String, List<String>> query) {
        List<String> after = query.get("after");
        List<String> limit = query.get("limit");
        return query.size() == 2
                && after != null
                && after.size() == 1
                && after.get(0).matches("0|[1-9][0-9]{0,17}")
                && limit != null
                && limit.size() == 1
                && limit.get(0).matches("[1-9][0-9]{0,2}");
    }
}
