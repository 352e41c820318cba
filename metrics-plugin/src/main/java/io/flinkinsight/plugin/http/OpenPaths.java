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

    private OpenPaths() {}

    /**
     * {@code /metrics}, and {@code /api/v1/metrics} asked as the hub asks client processes for the
     * interactive client's figures ({@code contains=insight_client_}, at most {@value
     * PortAccess#MAX_OPEN_METRICS} of them): what Flink's PrometheusReporter would show anyone, in
     * a bounded answer. Any other {@code /api/v1/metrics} is the API's.
     */
    static boolean isOpenToAll(RequestTarget target) {
        String path = target.path();
        if (path.equals(PortAccess.METRICS_PATH)) {
            return true;
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
}
