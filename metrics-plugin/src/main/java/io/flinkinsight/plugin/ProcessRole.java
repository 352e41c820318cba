package io.flinkinsight.plugin;

import java.util.Locale;
import java.util.Set;

/**
 * Works out whether this process is a JobManager, a TaskManager or a client from the metrics Flink registers, unless
 * the {@code role} option or the {@code flink.insight.role} system property declares it.
 */
public final class ProcessRole {

    public static final String JOBMANAGER = "jobmanager";
    public static final String TASKMANAGER = "taskmanager";
    public static final String CLIENT = "client";
    public static final String AUTO = "auto";

    /** Logical scope of the interactive client's metrics, which it registers only in client processes. */
    public static final String CLIENT_SCOPE = "insight_client";

    /** What the names of the interactive client's figures contain, in Prometheus form: {@code insight_client_...}. */
    public static final String CLIENT_FIGURE_PREFIX = CLIENT_SCOPE + "_";

    /** System property a client process (e.g. the SQL Gateway) sets to declare its role. */
    public static final String SYSTEM_PROPERTY = "flink.insight.role";

    private static final Set<String> ROLES = Set.of(JOBMANAGER, TASKMANAGER, CLIENT);

    private ProcessRole() {}

    /** Validates the option value: auto or one of the roles. */
    public static String parseOption(String value, String fullKey) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals(AUTO) || ROLES.contains(v)) {
            return v;
        }
        throw new IllegalArgumentException(
                fullKey + ": '" + value + "' is invalid; expected one of auto, jobmanager, taskmanager, client");
    }

    /** The declared role (option first, then system property), or null when it is to be detected. */
    public static String declared(String option) {
        if (!AUTO.equals(option)) {
            return option;
        }
        String property = System.getProperty(SYSTEM_PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        return ROLES.contains(property) ? property : null;
    }

    /**
     * The role a metric's logical scope reveals, or null. JobManager scopes start with "jobmanager", TaskManager
     * scopes with "taskmanager" (Flink's default scope formats; logical scopes ignore user scope formats), and the
     * interactive client's with "insight_client": a client process such as the SQL Gateway has no Flink metrics of
     * its own, so the client's figures are what reveals it.
     */
    public static String fromLogicalScope(String logicalScope) {
        if (logicalScope.startsWith(JOBMANAGER)) {
            return JOBMANAGER;
        }
        if (logicalScope.startsWith(TASKMANAGER)) {
            return TASKMANAGER;
        }
        if (logicalScope.startsWith(CLIENT_SCOPE)) {
            return CLIENT;
        }
        return null;
    }
}
