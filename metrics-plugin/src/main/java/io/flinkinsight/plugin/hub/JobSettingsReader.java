package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.HubRound.NotFound;
import io.flinkinsight.plugin.store.job.JobSettings;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads a job's {@link JobSettings} from Flink's REST API: {@code /jobs/:id/checkpoints/config}
 * (state backend, changelog and its materialization interval, interval, mode, unaligned; 404 when
 * checkpointing is off) and {@code /jobs/:id/config} (parallelism, and the job's own options where
 * Flink lists them under {@code user-config}). Flink reports no job's incremental setting as such:
 * it comes from the job's {@code user-config} when there, else from the JobManager's configuration
 * ({@code /jobmanager/config}, read once). Runs on the hub's thread; each request is spent from the
 * round's budget.
 */
final class JobSettingsReader {

    static final String INCREMENTAL = "execution.checkpointing.incremental";

    /** The key before Flink 2.0, still accepted as a fallback key. */
    static final String INCREMENTAL_BEFORE_2_0 = "state.backend.incremental";

    private final RestSource rest;
    private Map<String, String> clusterConfig; // read once, on first need

    JobSettingsReader(RestSource rest) {
        this.rest = rest;
    }

    /**
     * The job's settings, or null when a request failed (recorded in the round; the next round
     * tries again).
     *
     * @param vertexParallelism the highest parallelism of the job's vertices, for a job that sets
     *     none of its own
     */
    JobSettings read(String jobId, int vertexParallelism, HubRound round)
            throws InterruptedException, BudgetSpent {
        String base = "/jobs/" + jobId;
        JsonNode jobConfig = round.get(rest, base + "/config");
        JsonNode checkpointConfig = round.get(rest, base + "/checkpoints/config", NotFound.ANSWER);
        if (jobConfig == null || checkpointConfig == null) {
            return null;
        }
        JsonNode execution = jobConfig.path("execution-config");
        int jobParallelism = execution.path("job-parallelism").asInt(-1);
        Integer parallelism =
                jobParallelism > 0
                        ? Integer.valueOf(jobParallelism)
                        : vertexParallelism > 0 ? Integer.valueOf(vertexParallelism) : null;
        if (checkpointConfig.isMissingNode()) {
            return new JobSettings(
                    false, null, null, null, null, null, null, null, null, null, null, parallelism);
        }
        Boolean incremental =
                bool(execution.path("user-config"), INCREMENTAL, INCREMENTAL_BEFORE_2_0);
        String incrementalSource = incremental != null ? "job" : null;
        if (incremental == null) {
            Map<String, String> cluster = clusterConfig(round);
            if (cluster == null) {
                return null; // the request failed: settings stored now would never be read again
            }
            incremental = bool(cluster, INCREMENTAL, INCREMENTAL_BEFORE_2_0);
            incrementalSource = incremental != null ? "cluster" : null;
        }
        return new JobSettings(
                true,
                text(checkpointConfig, "state_backend"),
                text(checkpointConfig, "checkpoint_storage"),
                incremental,
                incrementalSource,
                checkpointConfig.has("state_changelog_enabled")
                        ? checkpointConfig.path("state_changelog_enabled").asBoolean()
                        : null,
                number(checkpointConfig, "changelog_periodic_materialization_interval"),
                text(checkpointConfig, "changelog_storage"),
                number(checkpointConfig, "interval"),
                text(checkpointConfig, "mode"),
                checkpointConfig.has("unaligned_checkpoints")
                        ? checkpointConfig.path("unaligned_checkpoints").asBoolean()
                        : null,
                parallelism);
    }

    private Map<String, String> clusterConfig(HubRound round)
            throws InterruptedException, BudgetSpent {
        if (clusterConfig == null) {
            JsonNode entries = round.get(rest, "/jobmanager/config");
            if (entries == null) {
                return null;
            }
            Map<String, String> out = new HashMap<>();
            for (JsonNode entry : entries) {
                String key = entry.path("key").asText(null);
                if (INCREMENTAL.equals(key) || INCREMENTAL_BEFORE_2_0.equals(key)) {
                    out.put(key, entry.path("value").asText(""));
                }
            }
            clusterConfig = out;
        }
        return clusterConfig;
    }

    private static Boolean bool(JsonNode userConfig, String... keys) {
        for (String key : keys) {
            JsonNode v = userConfig.get(key);
            if (v != null && !v.isNull()) {
                return parseBoolean(v.asText());
            }
        }
        return null;
    }

    private static Boolean bool(Map<String, String> config, String... keys) {
        for (String key : keys) {
            String v = config.get(key);
            if (v != null) {
                return parseBoolean(v);
            }
        }
        return null;
    }

    private static Boolean parseBoolean(String v) {
        String t = v.trim();
        return t.equalsIgnoreCase("true")
                ? Boolean.TRUE
                : t.equalsIgnoreCase("false") ? Boolean.FALSE : null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Long number(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isNumber() ? v.asLong() : null;
    }
}
