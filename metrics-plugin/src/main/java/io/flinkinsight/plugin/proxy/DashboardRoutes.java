package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.http.RequestTarget;
import io.flinkinsight.plugin.proxy.RouteParameters.Parameter;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the read-only dashboard proxy forwards: an allowlist of the GET routes of Flink's REST API
 * that Flink's dashboard pages need to show the cluster and its jobs, and the dashboard's own
 * files. Everything else (writes, {@code yarn-cancel}/{@code yarn-stop}, flame graphs and profilers
 * that start sampling, jar plans that run user code, logs, thread dumps and environments) is
 * refused; Flink's own REST port still serves it to whoever may reach that. Matched on the decoded
 * segments of a {@link RequestTarget}, exactly and case-sensitively, as Flink's router matches
 * them; what goes to Flink is re-encoded from the same segments, so Flink routes what was matched.
 */
final class DashboardRoutes {

    /** The proxy's place on the port: {@code /flink/...} is Flink's {@code /...}. */
    static final String PREFIX = "flink";

    /**
     * A route of Flink's REST API: its template (Flink's own spelling), why the dashboard needs it,
     * and the query parameters it may carry.
     *
     * @param parts the template's segments, split once
     */
    record Route(String template, String why, Set<Parameter> parameters, List<String> parts) {
        Route(String template, String why, Parameter... parameters) {
            this(template, why, Set.of(parameters), List.of(template.substring(1).split("/")));
        }
    }

    /**
     * Flink's parameter names and the values they take; anything else in their place does not
     * match.
     */
    private static final Map<String, Pattern> PARAMETERS =
            Map.of(
                    ":jobid", Pattern.compile("[0-9a-f]{32}"),
                    ":vertexid", Pattern.compile("[0-9a-f]{32}"),
                    ":applicationid", Pattern.compile("[0-9a-f]{32}"),
                    ":rescaleuuid", Pattern.compile("[0-9a-f]{32}"),
                    ":checkpointid", Pattern.compile("[0-9]{1,19}"),
                    // A ResourceID: host:port-suffix on standalone clusters, a container or pod
                    // name, a UUID, or whatever
                    // taskmanager.resource-id says.
                    ":taskmanagerid", Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,255}"));

    private static final String OVERVIEW = "overview page and menu";
    private static final String JOB = "job page: graph, status and details";
    private static final String CHECKPOINTS = "job page: checkpoints tab";
    private static final String VERTEX = "job page: a vertex's drawer";
    private static final String TASK_MANAGERS =
            "task managers page (details and metrics; not logs, stdout,"
                    + " thread dumps or profiler)";
    private static final String JOB_MANAGER =
            "job manager page (not logs, stdout, thread dump, environment or" + " profiler)";

    /**
     * The GET routes Flink's dashboard (1.20 to 2.3) reads, minus logs, dumps, profilers and
     * writes' first steps.
     */
    static final List<Route> ROUTES =
            List.of(
                    new Route(
                            "/config",
                            "every page: refresh interval, Flink version, which features are on"),
                    new Route("/overview", OVERVIEW),
                    new Route("/jobs/overview", OVERVIEW + "; running and completed job lists"),
                    new Route(
                            "/applications/overview", OVERVIEW + "; application lists (Flink 2.3)"),
                    new Route("/applications/:applicationid", "application page (Flink 2.3)"),
                    new Route(
                            "/applications/:applicationid/exceptions",
                            "application page: exceptions tab (Flink 2.3)"),
                    new Route("/jobs/:jobid", JOB),
                    new Route(
                            "/jobs/:jobid/exceptions",
                            "job page: exceptions tab",
                            Parameter.MAX_EXCEPTIONS),
                    new Route(
                            "/jobs/:jobid/config",
                            "job page: configuration tab (Flink hides sensitive values by key)"),
                    new Route("/jobs/:jobid/checkpoints", CHECKPOINTS),
                    new Route("/jobs/:jobid/checkpoints/config", CHECKPOINTS),
                    new Route(
                            "/jobs/:jobid/checkpoints/details/:checkpointid",
                            CHECKPOINTS + ", one checkpoint"),
                    new Route(
                            "/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid",
                            CHECKPOINTS + ", one checkpoint's operator"),
                    new Route(
                            "/jobs/:jobid/rescales/overview", "job page: rescales tab (Flink 2.3)"),
                    new Route(
                            "/jobs/:jobid/rescales/summary", "job page: rescales tab (Flink 2.3)"),
                    new Route(
                            "/jobs/:jobid/rescales/history", "job page: rescales tab (Flink 2.3)"),
                    new Route("/jobs/:jobid/rescales/config", "job page: rescales tab (Flink 2.3)"),
                    new Route(
                            "/jobs/:jobid/rescales/details/:rescaleuuid",
                            "job page: one rescale (Flink 2.3)"),
                    new Route("/jobs/:jobid/vertices/:vertexid", VERTEX + ": subtasks"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/taskmanagers",
                            VERTEX + ": task managers"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/subtasktimes",
                            "job page: timeline tab"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/accumulators",
                            VERTEX + ": accumulators"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/subtasks/accumulators",
                            VERTEX + ": accumulators"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/backpressure",
                            VERTEX
                                    + ": back pressure (read from task metrics; nothing is sampled)"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/watermarks",
                            VERTEX + ": watermarks; the graph"),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/metrics",
                            VERTEX + ": metrics",
                            Parameter.GET),
                    new Route(
                            "/jobs/:jobid/vertices/:vertexid/subtasks/metrics",
                            "job page: graph colours, data skew tab",
                            Parameter.GET,
                            Parameter.AGG),
                    new Route("/taskmanagers", TASK_MANAGERS),
                    new Route("/taskmanagers/:taskmanagerid", TASK_MANAGERS),
                    new Route("/taskmanagers/:taskmanagerid/metrics", TASK_MANAGERS, Parameter.GET),
                    new Route(
                            "/jobmanager/config",
                            JOB_MANAGER
                                    + "; configuration tab (Flink hides sensitive values by key)"),
                    new Route("/jobmanager/metrics", JOB_MANAGER + "; metrics tab", Parameter.GET));

    /** The folder of the dashboard's own files (Angular's build output) besides its root. */
    static final String FILE_FOLDER = "assets";

    /** A file name of the dashboard's build: no leading dot, a known extension. */
    private static final Pattern FILE_NAME =
            Pattern.compile(
                    "[A-Za-z0-9][A-Za-z0-9._-]{0,200}\\.(html|js|css|json|svg|png|ico|webmanifest|xml|woff2?|ttf)");

    private static final Pattern FOLDER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,100}");

    private DashboardRoutes() {}

    /**
     * Whether {@code inside} (the segments after {@code /flink}, with the target's trailing slash)
     * is a route on the list or one of the dashboard's files, with no ".." in any segment.
     */
    static boolean allows(List<String> inside, boolean trailingSlash) {
        if (inside.isEmpty()) {
            return trailingSlash; // the dashboard's index: /flink/
        }
        if (trailingSlash) {
            return false;
        }
        // RequestTarget refuses "." and ".." segments; a ".." inside one (a file "a..b.js", a task
        // manager id
        // "h..x") is in no file of the dashboard's build nor in Flink's ids, and a server behind
        // that splits or
        // normalises differently could still read it as a step up, so none is forwarded.
        if (inside.stream().anyMatch(segment -> segment.contains(".."))) {
            return false;
        }
        return isFile(inside) || route(inside).isPresent();
    }

    /**
     * Null when the query of an allowed path may go to Flink, else why not: a route's parameters
     * are those of {@link Route#parameters()}, the dashboard's files take none.
     */
    static String queryRefusal(List<String> inside, QueryParameters query) {
        return RouteParameters.refusal(
                route(inside).map(Route::parameters).orElse(Set.of()), query);
    }

    private static Optional<Route> route(List<String> inside) {
        return ROUTES.stream().filter(route -> matches(route.parts(), inside)).findFirst();
    }

    /**
     * Whether the path inside Flink names its {@code index.html}, the one answer the tab is
     * injected into.
     */
    static boolean isIndex(List<String> inside) {
        return inside.isEmpty() || inside.equals(List.of("index.html"));
    }

    private static boolean isFile(List<String> inside) {
        String name = inside.get(inside.size() - 1);
        if (!FILE_NAME.matcher(name).matches()) {
            return false;
        }
        if (inside.size() == 1) {
            return true; // REST routes never end in a file extension, so a root file cannot be one
        }
        if (!FILE_FOLDER.equals(inside.get(0))) {
            return false;
        }
        return inside.subList(1, inside.size() - 1).stream()
                .allMatch(f -> FOLDER_NAME.matcher(f).matches());
    }

    private static boolean matches(List<String> parts, List<String> inside) {
        if (parts.size() != inside.size()) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            Pattern parameter = PARAMETERS.get(part);
            boolean ok =
                    parameter != null
                            ? parameter.matcher(inside.get(i)).matches()
                            : part.equals(inside.get(i));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The URI to fetch from Flink: {@code baseUrl} (scheme, host, port and any path prefix), then
     * the segments and the query re-encoded from what was decoded and matched, so Flink routes
     * exactly that.
     */
    static URI upstreamUri(
            String baseUrl, List<String> inside, boolean trailingSlash, QueryParameters query) {
        StringBuilder uri =
                new StringBuilder(
                        baseUrl.endsWith("/")
                                ? baseUrl.substring(0, baseUrl.length() - 1)
                                : baseUrl);
        for (String segment : inside) {
            uri.append('/').append(encode(segment));
        }
        if (inside.isEmpty() || trailingSlash) {
            uri.append('/');
        }
        char separator = '?';
        for (Map.Entry<String, List<String>> parameter : query.asMap().entrySet()) {
            for (String value : parameter.getValue()) {
                uri.append(separator)
                        .append(encode(parameter.getKey()))
                        .append('=')
                        .append(encode(value));
                separator = '&';
            }
        }
        return URI.create(uri.toString());
    }

    /**
     * Percent-encodes all but RFC 3986's unreserved characters (so '+' and spaces both survive as
     * themselves).
     */
    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("*", "%2A")
                .replace("%7E", "~");
    }
}
