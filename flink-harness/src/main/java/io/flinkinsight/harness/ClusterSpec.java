package io.flinkinsight.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What to start, as the builder collected it: immutable, ports still 0 where the harness picks a
 * free one.
 *
 * @param workDir conf, logs, plugins, tmp and checkpoints of this cluster
 * @param pluginJar the Insight plugin jar for {@code plugins/insight/}, or null for a cluster
 *     without it
 * @param config extra Flink options; they win over the harness defaults
 * @param gatewayClasspath jars added to the SQL Gateway's classpath only (its {@code lib/}), e.g. a
 *     client jar
 * @param gatewayConfig options for the SQL Gateway only (its {@code -D} dynamic properties); they
 *     win over {@code config}, e.g. a port range of its own for the plugin inside the gateway
 * @param jobManagers how many JobManagers; more than one needs {@code zooKeeperHa}
 * @param zooKeeperHa whether the harness starts a ZooKeeper server and runs the cluster in
 *     ZooKeeper HA mode
 * @param restTls TLS with mutual authentication for the REST endpoints (JobManager, SQL Gateway),
 *     or null for plain HTTP
 * @param otherPlugins further plugin jars by the folder of {@code plugins/} they go into (e.g.
 *     Flink's PrometheusReporter in {@code metrics-prometheus}), beside the Insight plugin's
 */
public record ClusterSpec(
        Path workDir,
        Path pluginJar,
        int taskManagers,
        int slotsPerTaskManager,
        boolean sqlGateway,
        int restPort,
        int rpcPort,
        int gatewayPort,
        String insightPortRange,
        Map<String, String> config,
        String jobManagerProcessSize,
        String taskManagerProcessSize,
        String gatewayHeap,
        Duration startTimeout,
        List<Path> gatewayClasspath,
        Map<String, String> gatewayConfig,
        int jobManagers,
        boolean zooKeeperHa,
        RestTls restTls,
        Map<String, Path> otherPlugins) {

    public ClusterSpec {
        if (taskManagers < 0) {
            throw new IllegalArgumentException("taskManagers must be >= 0, was " + taskManagers);
        }
        if (slotsPerTaskManager < 1) {
            throw new IllegalArgumentException(
                    "slotsPerTaskManager must be >= 1, was " + slotsPerTaskManager);
        }
        if (jobManagers < 1) {
            throw new IllegalArgumentException("jobManagers must be >= 1, was " + jobManagers);
        }
        if (jobManagers > 1 && !zooKeeperHa) {
            throw new IllegalArgumentException(
                    jobManagers
                            + " JobManagers need ZooKeeper high availability (zooKeeperHa(true))");
        }
        config = Map.copyOf(config);
        gatewayClasspath = List.copyOf(gatewayClasspath);
        gatewayConfig = Map.copyOf(gatewayConfig);
        otherPlugins = Map.copyOf(otherPlugins);
        for (String folder : otherPlugins.keySet()) {
            if (!folder.matches("[a-zA-Z0-9][a-zA-Z0-9._-]*")
                    || (pluginJar != null && folder.equals(ClusterStarter.PLUGIN_DIR_NAME))) {
                throw new IllegalArgumentException("not a plugin folder of its own: " + folder);
            }
        }
    }

    /** A spec without REST TLS or other plugins. */
    public ClusterSpec(
            Path workDir,
            Path pluginJar,
            int taskManagers,
            int slotsPerTaskManager,
            boolean sqlGateway,
            int restPort,
            int rpcPort,
            int gatewayPort,
            String insightPortRange,
            Map<String, String> config,
            String jobManagerProcessSize,
            String taskManagerProcessSize,
            String gatewayHeap,
            Duration startTimeout,
            List<Path> gatewayClasspath,
            Map<String, String> gatewayConfig,
            int jobManagers,
            boolean zooKeeperHa) {
        this(
                workDir,
                pluginJar,
                taskManagers,
                slotsPerTaskManager,
                sqlGateway,
                restPort,
                rpcPort,
                gatewayPort,
                insightPortRange,
                config,
                jobManagerProcessSize,
                taskManagerProcessSize,
                gatewayHeap,
                startTimeout,
                gatewayClasspath,
                gatewayConfig,
                jobManagers,
                zooKeeperHa,
                null,
                Map.of());
    }

    public boolean withPlugin() {
        return pluginJar != null;
    }

    /** Whether the REST endpoints speak HTTPS with mutual authentication ({@link #restTls()}). */
    public boolean withRestTls() {
        return restTls != null;
    }
}
