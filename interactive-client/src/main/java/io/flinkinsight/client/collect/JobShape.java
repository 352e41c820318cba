package io.flinkinsight.client.collect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What tells a query's job apart from other queries' for how long it runs: a hash of its operators'
 * names, sorted, without the ids in brackets that Flink's SQL planner numbers its operators with
 * ({@code Calc[3]}). Both change from one planning of the same query to the next: the ids, and with
 * them the order in which a graph lists its nodes (a map by id). The same query gets the same
 * shape. With Flink's default short operator names ({@code
 * table.exec.simplify-operator-name-enabled}) so do queries with the same operators over the same
 * tables, and two queries may share a hash: either only pools their runs, whose shortest usual one
 * still counts.
 */
public final class JobShape {

    private static final Pattern OPERATOR_IDS = Pattern.compile("\\[\\d+]");

    private JobShape() {}

    /** The shape of a job whose operators are named {@code operatorNames}. */
    public static long of(Iterable<String> operatorNames) {
        List<String> stable = new ArrayList<>();
        for (String name : operatorNames) {
            stable.add(OPERATOR_IDS.matcher(name == null ? "" : name).replaceAll(""));
        }
        Collections.sort(stable);
        long hash = 1125899906842597L;
        for (String name : stable) {
            for (int i = 0; i < name.length(); i++) {
                hash = 31 * hash + name.charAt(i);
            }
            hash = 31 * hash + '\n';
        }
        return hash;
    }
}
