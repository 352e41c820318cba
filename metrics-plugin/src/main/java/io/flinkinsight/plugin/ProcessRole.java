package io.flinkinsight.plugin;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a Flink process is to the plugin: the JobManager (which runs the hub), a TaskManager, or a
 * client process such as the SQL Gateway. Declared by the {@code role} option or the {@code
 * flink.insight.role} system property, else detected from the metrics Flink registers.
 */
public enum ProcessRole {
    JOBMANAGER("jobmanager"),
    TASKMANAGER("taskmanager"),
    CLIENT("client");

    /**
     * The {@code role} option's value that leaves the role to the system property or to detection.
     */
    public static final String AUTO = "auto";

    /**
     * Logical scope of the interactive client's metrics, which it registers only in client
     * processes.
     */
    public static final String CLIENT_SCOPE = "insight_client";

    /**
     * What the names of the interactive client's figures contain, in Prometheus form: {@code
     * insight_client_...}.
     */
    public static final String CLIENT_FIGURE_PREFIX = CLIENT_SCOPE + "_";

    /** System property a client process (e.g. the SQL Gateway) sets to declare its role. */
    public static final String SYSTEM_PROPERTY = "flink.insight.role";

    private final String lowerCaseName;

    ProcessRole(String lowerCaseName) {
        this.lowerCaseName = lowerCaseName;
    }

    /**
     * The name as Flink users write it in the {@code role} option and the system property, and as
     * {@code /api/v1/overview} shows it: {@code jobmanager}, {@code taskmanager}, {@code client}.
     */
    public String lowerCaseName() {
        return lowerCaseName;
    }

    /**
     * Validates the option value (any case, blanks around it ignored): the role it names, or empty
     * for {@code auto}.
     *
     * @throws IllegalArgumentException naming {@code fullKey} and the accepted values
     */
    public static Optional<ProcessRole> parseOption(String value, String fullKey) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals(AUTO)) {
            return Optional.empty();
        }
        Optional<ProcessRole> role = named(v);
        if (role.isEmpty()) {
            throw new IllegalArgumentException(
                    fullKey
                            + ": '"
                            + value
                            + "' is invalid; expected one of "
                            + AUTO
                            + ", "
                            + Arrays.stream(values())
                                    .map(ProcessRole::lowerCaseName)
                                    .collect(Collectors.joining(", ")));
        }
        return role;
    }

    /**
     * The declared role: the option's, else (when the option is {@code auto}) the system
     * property's; null when neither declares one and the role is to be detected.
     */
    public static ProcessRole declared(Optional<ProcessRole> option) {
        return option.orElseGet(
                () ->
                        named(
                                        System.getProperty(SYSTEM_PROPERTY, "")
                                                .trim()
                                                .toLowerCase(Locale.ROOT))
                                .orElse(null));
    }

    /**
     * The role a metric's logical scope reveals, or null. JobManager scopes start with
     * "jobmanager", TaskManager scopes with "taskmanager" (Flink's default scope formats; logical
     * scopes ignore user scope formats), and the interactive client's with "insight_client": a
     * client process such as the SQL Gateway has no Flink metrics of its own, so the client's
     * figures are what reveals it.
     */
    public static ProcessRole fromLogicalScope(String logicalScope) {
        if (logicalScope.startsWith(JOBMANAGER.lowerCaseName)) {
            return JOBMANAGER;
        }
        if (logicalScope.startsWith(TASKMANAGER.lowerCaseName)) {
            return TASKMANAGER;
        }
        if (logicalScope.startsWith(CLIENT_SCOPE)) {
            return CLIENT;
        }
        return null;
    }

    /** The role whose lower-case name is exactly {@code lowerCaseName}. */
    private static Optional<ProcessRole> named(String lowerCaseName) {
        for (ProcessRole role : values()) {
            if (role.lowerCaseName.equals(lowerCaseName)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
