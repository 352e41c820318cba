package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.QueryParameters;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The query parameters the dashboard proxy lets through, and the values each may take: what Flink's
 * dashboard (1.20 to 2.3) sends, bounded so no value makes Flink work for long. The dashboard sends
 * {@code get} to the metric routes and {@code maxExceptions} (10, then 10 more per "load more") to
 * a job's exceptions, nothing else; {@code agg} is Flink's own, cheap and bounded. A parameter a
 * route does not list, a value of another shape or a parameter given twice is refused before
 * anything reaches Flink. Flink walks every integer of each range of {@code subtasks=} on a REST
 * thread, so that parameter is never let through: without it Flink aggregates over the vertex's own
 * subtasks, which its parallelism bounds.
 */
final class RouteParameters {

    /** One parameter: its name as Flink spells it and the check of its value. */
    enum Parameter {
        /**
         * Metric names, comma-separated, as Flink's metric store keys them ({@code
         * 0.Source__x.numRecordsOut}).
         */
        GET(
                "get",
                "at most "
                        + Limits.MAX_METRICS
                        + " comma-separated metric names of at most "
                        + Limits.MAX_METRIC_NAME
                        + " characters, without '%', '\\', spaces or '..'") {
            @Override
            boolean accepts(String value) {
                String[] names = value.split(",", -1);
                if (names.length > Limits.MAX_METRICS) {
                    return false;
                }
                for (String name : names) {
                    if (!isMetricName(name)) {
                        return false;
                    }
                }
                return true;
            }
        },
        /** The aggregations of {@code AbstractAggregatingMetricsHandler}. */
        AGG("agg", "comma-separated aggregations among " + String.join(", ", Limits.AGGREGATIONS)) {
            @Override
            boolean accepts(String value) {
                String[] names = value.split(",", -1);
                return names.length <= Limits.AGGREGATIONS.size()
                        && List.of(names).stream().allMatch(Limits.AGGREGATIONS::contains);
            }
        },
        /**
         * How many exceptions Flink lists; 2.x never lists more than its history holds, 1.20 stops
         * at this many.
         */
        MAX_EXCEPTIONS("maxExceptions", "an integer from 1 to " + Limits.MAX_EXCEPTIONS) {
            @Override
            boolean accepts(String value) {
                if (value.isEmpty()
                        || value.length() > 4
                        || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    return false;
                }
                int n = Integer.parseInt(value);
                return n >= 1 && n <= Limits.MAX_EXCEPTIONS;
            }
        };

        private final String flinkName;
        private final String shape;

        Parameter(String flinkName, String shape) {
            this.flinkName = flinkName;
            this.shape = shape;
        }

        String flinkName() {
            return flinkName;
        }

        /** What a value must look like, for the refusal. */
        String shape() {
            return shape;
        }

        abstract boolean accepts(String value);
    }

    /** The bounds, in a class of their own so the enum's constants can name them. */
    static final class Limits {
        static final int MAX_METRICS = 64;
        static final int MAX_METRIC_NAME = 300;
        static final int MAX_EXCEPTIONS = 100;
        static final List<String> AGGREGATIONS = List.of("min", "max", "avg", "sum", "skew");

        private Limits() {}
    }

    private RouteParameters() {}

    /**
     * Null when every parameter of {@code query} is one of {@code allowed}, once, with a value of
     * its shape; else why not, for a 400.
     */
    static String refusal(Set<Parameter> allowed, QueryParameters query) {
        for (Map.Entry<String, List<String>> given : query.asMap().entrySet()) {
            Parameter parameter =
                    allowed.stream()
                            .filter(p -> p.flinkName().equals(given.getKey()))
                            .findFirst()
                            .orElse(null);
            if (parameter == null) {
                return "query parameter '"
                        + printable(given.getKey())
                        + "' is not on the dashboard proxy's allowlist"
                        + " for this route"
                        + (allowed.isEmpty()
                                ? " (it takes none)"
                                : " (it takes "
                                        + String.join(
                                                ", ",
                                                allowed.stream()
                                                        .sorted()
                                                        .map(Parameter::flinkName)
                                                        .toList())
                                        + ")");
            }
            if (given.getValue().size() != 1) {
                return "query parameter '" + parameter.flinkName() + "' given more than once";
            }
            if (!parameter.accepts(given.getValue().get(0))) {
                return "query parameter '"
                        + parameter.flinkName()
                        + "' must be "
                        + parameter.shape();
            }
        }
        return null;
    }

    /**
     * A metric name as Flink's metric store keys it: scope components joined by '.', in which Flink
     * has replaced spaces, '.', ':' and ',' by '_'. Any letter or digit and ASCII punctuation but
     * '%', '\' and ','; no empty component (so no '..').
     */
    static boolean isMetricName(String name) {
        if (name.isEmpty()
                || name.length() > Limits.MAX_METRIC_NAME
                || name.startsWith(".")
                || name.endsWith(".")
                || name.contains("..")) {
            return false;
        }
        return name.codePoints()
                .allMatch(
                        c ->
                                c < 0x80
                                        ? c > 0x20 && c < 0x7f && c != '%' && c != '\\' && c != ','
                                        : Character.isLetterOrDigit(c));
    }

    /** A refused name, shown only as far as it is plain ASCII and short. */
    private static String printable(String name) {
        String shown = name.length() > 64 ? name.substring(0, 64) + "…" : name;
        return shown.codePoints().allMatch(c -> c >= 0x20 && c < 0x7f)
                ? shown
                : "(not plain ASCII)";
    }
}
