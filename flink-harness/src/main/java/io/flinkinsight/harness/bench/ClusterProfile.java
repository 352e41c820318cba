package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.LocalFlinkClusterBuilder;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cluster the interactive-client benchmark runs on ({@code --cluster}), the same for both
 * executors.
 *
 * <ul>
 *   <li>{@link #PLAIN}: a session cluster with one JobManager and one TaskManager, streaming mode,
 *       Flink's defaults but {@code rest.server.numThreads: 32}.
 *   <li>{@link #OLAP}: Flink's documented OLAP production settings ({@code
 *       docs/dev/table/olap_quickstart.md}, "Recommended Cluster Configurations"), scaled to a
 *       small machine: ZooKeeper high availability with two JobManagers, two TaskManagers, batch
 *       mode with pipelined shuffles, JDK 17 with ZGC, the gateway's plan cache.
 * </ul>
 */
enum ClusterProfile {
    PLAIN("plain", 1, 1, "1g", "2g"),
    OLAP("olap", 2, 2, "2g", "2g");

    /** The JVM flags of the OLAP guide's {@code env.java.opts.all}, for every Flink JVM. */
    static final String OLAP_JVM_FLAGS =
            "-XX:PerMethodRecompilationCutoff=10000 -XX:PerBytecodeRecompilationCutoff=10000"
                    + " -XX:ReservedCodeCacheSize=512M -XX:+UseZGC";

    final String label;
    final int jobManagers;
    final int taskManagers;
    final String jobManagerProcessSize;
    final String taskManagerProcessSize;

    /** The SQL Gateway's heap, in every profile. */
    static final String GATEWAY_HEAP = "1g";

    ClusterProfile(
            String label,
            int jobManagers,
            int taskManagers,
            String jobManagerProcessSize,
            String taskManagerProcessSize) {
        this.label = label;
        this.jobManagers = jobManagers;
        this.taskManagers = taskManagers;
        this.jobManagerProcessSize = jobManagerProcessSize;
        this.taskManagerProcessSize = taskManagerProcessSize;
    }

    static ClusterProfile of(String label) {
        for (ClusterProfile profile : values()) {
            if (profile.label.equals(label)) {
                return profile;
            }
        }
        throw new IllegalArgumentException(
                "unknown cluster profile "
                        + label
                        + ", expected one of "
                        + Arrays.stream(values())
                                .map(p -> p.label)
                                .collect(Collectors.joining(", ")));
    }

    /** Slots of each TaskManager: {@code totalSlots} split between the TaskManagers, rounded up. */
    int slotsPerTaskManager(int totalSlots) {
        return (totalSlots + taskManagers - 1) / taskManagers;
    }

    /** The session's {@code execution.runtime-mode}, both executors. */
    String runtimeMode() {
        return this == OLAP ? "batch" : "streaming";
    }

    /**
     * The options of the cluster's {@code config.yaml} this profile sets (before {@code
     * --cluster-set}); {@code totalSlots} as in {@link #slotsPerTaskManager}.
     */
    Map<String, String> clusterConfig(int totalSlots) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("rest.server.numThreads", "32");
        if (this != OLAP) {
            return config;
        }
        // SQL & Table options
        config.put("table.optimizer.join-reorder-enabled", "true");
        config.put("pipeline.object-reuse", "true");
        // Runtime options
        config.put("execution.runtime-mode", "BATCH");
        config.put("execution.batch-shuffle-mode", "ALL_EXCHANGES_PIPELINED");
        config.put("env.java.opts.all", OLAP_JVM_FLAGS);
        // Scheduling options. The guide's `Default` matters on Flink 2.x: batch jobs get the
        // adaptive batch scheduler otherwise, and with it Flink 2.3.0 fails the seed's queries in
        // BATCH mode with pipelined shuffles, with the stock `remote` executor too: the wordcount
        // query (GROUP BY) fails with an IllegalStateException from checkState in
        // DefaultExecutionTopology.notifyExecutionGraphUpdatedWithInitializedJobVertices (seen with
        // --cluster-set jobmanager.scheduler=AdaptiveBatch).
        config.put("jobmanager.scheduler", "Default");
        config.put("jobmanager.execution.failover-strategy", "full");
        config.put("restart-strategy.type", "disable");
        config.put("jobstore.type", "Memory");
        config.put("jobstore.max-capacity", "500");
        // Network options
        config.put("web.refresh-interval", "300000");
        config.put("pekko.framesize", "104857600b");
        // ResourceManager options: the whole pool of slots reserved for queries
        config.put(
                "slotmanager.number-of-slots.min",
                Integer.toString(taskManagers * slotsPerTaskManager(totalSlots)));
        return config;
    }

    /** Options of the SQL Gateway only. */
    Map<String, String> gatewayConfig() {
        return this == OLAP ? Map.of("sql-gateway.session.plan-cache.enabled", "true") : Map.of();
    }

    /** Applies the profile to {@code builder}: processes, sizes, options. */
    LocalFlinkClusterBuilder apply(LocalFlinkClusterBuilder builder, int totalSlots) {
        builder.zooKeeperHa(jobManagers > 1)
                .jobManagers(jobManagers)
                .taskManagers(taskManagers)
                .slotsPerTaskManager(slotsPerTaskManager(totalSlots))
                .jobManagerProcessSize(jobManagerProcessSize)
                .taskManagerProcessSize(taskManagerProcessSize)
                .gatewayHeap(GATEWAY_HEAP)
                .config(clusterConfig(totalSlots));
        gatewayConfig().forEach(builder::gatewayConfig);
        return builder;
    }

    /** One sentence for the report's header: the processes, their sizes, every option set. */
    String describe(int totalSlots) {
        String processes =
                String.format(
                        Locale.ROOT,
                        "%s; %d JobManager%s of %s (process size), %d TaskManager%s of %s with %d"
                                + " slot%s each, SQL Gateway with %s heap; separate JVMs on 127.0.0.1",
                        jobManagers > 1
                                ? "ZooKeeper high availability (a ZooKeeper server of its own)"
                                : "no high availability",
                        jobManagers,
                        jobManagers > 1 ? "s" : "",
                        jobManagerProcessSize,
                        taskManagers,
                        taskManagers > 1 ? "s" : "",
                        taskManagerProcessSize,
                        slotsPerTaskManager(totalSlots),
                        slotsPerTaskManager(totalSlots) > 1 ? "s" : "",
                        GATEWAY_HEAP);
        String options =
                clusterConfig(totalSlots).entrySet().stream()
                        .map(e -> "`" + e.getKey() + ": " + e.getValue() + "`")
                        .collect(Collectors.joining(", "));
        String gateway =
                gatewayConfig().entrySet().stream()
                        .map(e -> "`" + e.getKey() + ": " + e.getValue() + "`")
                        .collect(Collectors.joining(", "));
        return String.format(
                Locale.ROOT,
                "Cluster profile `%s`%s: %s; sessions in %s mode; options set by the profile: %s%s.",
                label,
                this == OLAP
                        ? " (Flink's OLAP production settings, olap_quickstart.md, scaled to this"
                                + " machine)"
                        : "",
                processes,
                runtimeMode(),
                options,
                gateway.isEmpty() ? "" : "; on the SQL Gateway: " + gateway);
    }
}
