package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.InsightOptions;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Where and how much the hub writes of its stores ({@code stores.dir*} options).
 *
 * @param dir {@code stores.dir} as given: empty for the default, {@value
 *     InsightOptions#STORES_DIR_NONE} for memory only
 * @param retention how long files are kept; as long as the history's when {@code
 *     stores.dir.retention} is 0
 */
public record DurableSettings(
        String dir,
        long maxBytes,
        Duration retention,
        Duration writeInterval,
        long maxBytesPerMinute) {

    static final String HA_TYPE = "high-availability.type";
    static final String HA_TYPE_BEFORE_1_17 = "high-availability";
    static final String HA_STORAGE_DIR = "high-availability.storageDir";
    static final String HA_CLUSTER_ID = "high-availability.cluster-id";

    /** What Flink's Kubernetes integration (and the operator) name a cluster by. */
    static final String KUBERNETES_CLUSTER_ID = "kubernetes.cluster-id";

    /** The options' defaults: under HA's storage directory when HA is on, else memory only. */
    public static DurableSettings defaults() {
        return new DurableSettings(
                InsightOptions.STORES_DIR.defaultValue(),
                InsightOptions.STORES_DIR_MAX_BYTES.defaultValue().getBytes(),
                InsightOptions.HISTORY_RETENTION.defaultValue(),
                InsightOptions.STORES_DIR_WRITE_INTERVAL.defaultValue(),
                InsightOptions.STORES_DIR_MAX_BYTES_PER_MINUTE.defaultValue().getBytes());
    }

    /** Flink's default {@code high-availability.cluster-id}. */
    private static final String DEFAULT_CLUSTER_ID = "/default";

    /**
     * The directory the hub writes to, from {@code stores.dir} or else from Flink's HA options, or
     * null for memory only; with why, for the start's log line.
     */
    public record Resolved(String uri, String why) {}

    /** Resolves the directory against Flink's configuration ({@code FLINK_CONF_DIR}). */
    public Resolved resolve(Map<String, String> flink) {
        String given = dir.trim();
        if (given.equalsIgnoreCase(InsightOptions.STORES_DIR_NONE)) {
            return new Resolved(null, "stores.dir is none");
        }
        if (!given.isEmpty()) {
            return new Resolved(stripSlashes(given), "stores.dir");
        }
        String type = flink.getOrDefault(HA_TYPE, flink.getOrDefault(HA_TYPE_BEFORE_1_17, "NONE"));
        if (type.trim().isEmpty() || type.trim().toUpperCase(Locale.ROOT).equals("NONE")) {
            return new Resolved(null, "high availability is off and stores.dir is not set");
        }
        String storage = flink.getOrDefault(HA_STORAGE_DIR, "").trim();
        if (storage.isEmpty()) {
            return new Resolved(null, HA_STORAGE_DIR + " is not set");
        }
        // Flink's Kubernetes HA keys its data by kubernetes.cluster-id when the HA one is not set
        String clusterId =
                flink.getOrDefault(
                                HA_CLUSTER_ID,
                                flink.getOrDefault(KUBERNETES_CLUSTER_ID, DEFAULT_CLUSTER_ID))
                        .trim();
        String id = stripSlashes(clusterId.startsWith("/") ? clusterId.substring(1) : clusterId);
        return new Resolved(
                stripSlashes(storage) + "/" + (id.isEmpty() ? "default" : id) + "/insight",
                HA_STORAGE_DIR + " (high availability is on)");
    }

    /** The byte budget of one write every {@link #writeInterval()}, at least 64 KiB. */
    long bytesPerWrite() {
        return Math.max(64 * 1024L, maxBytesPerMinute * writeInterval.toMillis() / 60_000);
    }

    private static String stripSlashes(String s) {
        String out = s;
        while (out.endsWith("/") && !out.endsWith("://")) {
            out = out.substring(0, out.length() - 1);
        }
        return out;
    }
}
