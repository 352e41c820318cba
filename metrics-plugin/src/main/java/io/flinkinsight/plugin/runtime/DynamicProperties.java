package io.flinkinsight.plugin.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dynamic properties a Flink process was started with: {@code -D key=value} pairs of its
 * program arguments, as Flink's scripts and Kubernetes integration pass them (e.g. a second
 * JobManager's {@code rest.port} on the same host). They override {@code FLINK_CONF_DIR}'s file, as
 * they do for Flink. The two-token form only: a JVM option is always one token ({@code
 * -Dkey=value}), so system properties are never taken for Flink options.
 */
final class DynamicProperties {

    private DynamicProperties() {}

    /**
     * This process's dynamic properties, from the main class and arguments the JVM was started with
     * ({@code sun.java.command}, which HotSpot sets; the OS's view of the command line, which may
     * be cut short, otherwise); empty when neither says.
     */
    static Map<String, String> ofThisProcess() {
        String command = System.getProperty("sun.java.command", "").trim();
        if (!command.isEmpty()) {
            return parse(List.of(command.split(" +")), true);
        }
        return ProcessHandle.current()
                .info()
                .arguments()
                .map(args -> parse(List.of(args), false))
                .orElse(Map.of());
    }

    /**
     * @param programArguments whether {@code args} are the program's arguments only, where {@code
     *     -Dkey=value} is a dynamic property too
     */
    static Map<String, String> parse(List<String> args, boolean programArguments) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String pair = null;
            if (args.get(i).equals("-D") && i + 1 < args.size()) {
                pair = args.get(++i);
            } else if (programArguments && args.get(i).startsWith("-D")) {
                pair = args.get(i).substring(2);
            }
            int eq = pair == null ? -1 : pair.indexOf('=');
            if (eq > 0) {
                out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return out;
    }
}
