package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.util.TestMetricGroup;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Metric groups with a chosen logical scope and variables, built on flink-metrics-core's {@link
 * TestMetricGroup}.
 */
public final class TestingGroups {

    private TestingGroups() {}

    /**
     * A group whose logical scope is {@code scope} (components separated by '.') and whose
     * variables are {@code variables} (keys as Flink writes them, e.g. {@code <host>}).
     */
    public static TestMetricGroup group(String scope, Map<String, String> variables) {
        return TestMetricGroup.newBuilder()
                .setVariables(variables)
                .setLogicalScopeFunction(
                        (CharacterFilter filter, java.util.Optional<Character> delimiter) ->
                                Arrays.stream(scope.split("\\."))
                                        .map(filter::filterCharacters)
                                        .collect(
                                                Collectors.joining(
                                                        String.valueOf(delimiter.orElse('.')))))
                .build();
    }

    /** A TaskManager task-scope group with the usual variables. */
    public static TestMetricGroup taskGroup(String subtaskIndex) {
        return group(
                "taskmanager.job.task",
                Map.of(
                        "<host>", "localhost",
                        "<tm_id>", "tm-1",
                        "<job_id>", "a1b2c3",
                        "<job_name>", "Word Count",
                        "<task_name>", "Source: numbers -> Map",
                        "<subtask_index>", subtaskIndex));
    }
}
