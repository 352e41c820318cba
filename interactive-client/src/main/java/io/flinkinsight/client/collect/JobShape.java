package io.flinkinsight.client.collect;

import java.util.regex.Pattern;

/**
 * What tells a query's job apart from other queries' for how long it runs: a hash of its operators' names, in the
 * order its graph lists them, without the ids in brackets that Flink's SQL planner numbers its operators with
 * ({@code Calc[3]}), which change from one planning of the same query to the next. The same query gets the same
 * shape; two queries may share one (a hash), which only pools their runs.
 */
public final class JobShape {

    private static final Pattern OPERATOR_IDS = Pattern.compile("\\[\\d+]");

    private JobShape() {}

    /** The shape of a job whose operators are named {@code operatorNames}. */
    public static long of(Iterable<String> operatorNames) {
        long hash = 1125899906842597L;
        for (String name : operatorNames) {
            String stable = OPERATOR_IDS.matcher(name == null ? "" : name).replaceAll("");
            for (int i = 0; i < stable.length(); i++) {
                hash = 31 * hash + stable.charAt(i);
            }
            hash = 31 * hash + '\n';
        }
        return hash;
    }
}
