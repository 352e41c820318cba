package io.flinkinsight.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The memory flags and dynamic properties Flink's scripts compute with {@code BashJavaUtils} before
 * starting a JobManager or TaskManager: the JVM flags go before the main class, the {@code -D
 * key=value} pairs after it.
 */
public record ResourceParameters(List<String> jvmFlags, List<String> dynamicProperties) {

    static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

    public ResourceParameters {
        jvmFlags = List.copyOf(jvmFlags);
        dynamicProperties = List.copyOf(dynamicProperties);
    }

    /**
     * Parses BashJavaUtils' output like {@code config.sh} does: of the lines with the result
     * prefix, the second-to-last holds JVM flags, the last the dynamic properties.
     */
    public static ResourceParameters parse(List<String> outputLines) {
        List<String> results = new ArrayList<>();
        for (String line : outputLines) {
            if (line.startsWith(RESULT_PREFIX)) {
                results.add(line.substring(RESULT_PREFIX.length()).trim());
            }
        }
        if (results.size() < 2) {
            throw new IllegalStateException(
                    "BashJavaUtils printed "
                            + results.size()
                            + " result lines, expected 2:\n"
                            + String.join("\n", outputLines));
        }
        return new ResourceParameters(
                tokens(results.get(results.size() - 2)), tokens(results.get(results.size() - 1)));
    }

    private static List<String> tokens(String line) {
        return line.isEmpty() ? List.of() : Arrays.asList(line.split("\\s+"));
    }
}
