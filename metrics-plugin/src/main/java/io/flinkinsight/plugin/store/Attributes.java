package io.flinkinsight.plugin.store;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Typed reads of span and event attributes. Flink documents their values as String, Long or Double
 * "with more types possible", so every read tolerates any type and answers null instead of
 * throwing.
 */
public final class Attributes {

    private static final Pattern JOB_ID = Pattern.compile("[0-9a-fA-F]{32}");

    private Attributes() {}

    public static Long asLong(Map<String, Object> attributes, String key) {
        Object v = attributes.get(key);
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    public static String asString(Map<String, Object> attributes, String key) {
        Object v = attributes.get(key);
        return v == null ? null : v.toString();
    }

    public static Boolean asBoolean(Map<String, Object> attributes, String key) {
        Object v = attributes.get(key);
        if (v instanceof Boolean b) {
            return b;
        }
        return v == null ? null : Boolean.valueOf(v.toString().trim());
    }

    /**
     * The job id of a job-scoped span or event: Flink adds {@code jobId}, and the group variable
     * {@code <job_id>}.
     */
    public static String jobId(Map<String, Object> attributes) {
        String id = asString(attributes, "jobId");
        if (id == null) {
            id = asString(attributes, "<job_id>");
        }
        return id != null && isJobId(id) ? id.toLowerCase(java.util.Locale.ROOT) : null;
    }

    /**
     * The job name from the metric group variable {@code <job_name>}, if the span or event carries
     * it.
     */
    public static String jobName(Map<String, Object> attributes) {
        return asString(attributes, "<job_name>");
    }

    public static boolean isJobId(String s) {
        return s != null && JOB_ID.matcher(s).matches();
    }
}
