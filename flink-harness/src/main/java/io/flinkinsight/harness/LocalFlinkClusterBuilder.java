package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Options of a {@link LocalFlinkCluster}; {@link #start()} starts it and waits until it serves. */
public final class LocalFlinkClusterBuilder {

    private Path workDir;
    private Path pluginJar;
    private int taskManagers = 1;
    private int slotsPerTaskManager = 4;
    private boolean sqlGateway;
    private int restPort;
    private int rpcPort;
    private int gatewayPort;
    private String insightPortRange = ClusterConfiguration.DEFAULT_INSIGHT_PORT_RANGE;
    private final Map<String, String> config = new LinkedHashMap<>();
    private String jobManagerProcessSize = "1g";
    private String taskManagerProcessSize = "1536m";
    private String gatewayHeap = "512m";
    private Duration startTimeout = Duration.ofSeconds(120);
    private final List<Path> gatewayClasspath = new ArrayList<>();
    private final Map<String, String> gatewayConfig = new LinkedHashMap<>();
    private FlinkDistribution distribution;
    private int jobManagers = 1;
    private boolean zooKeeperHa;
    private RestTls restTls;
    private final Map<String, Path> otherPlugins = new LinkedHashMap<>();

    LocalFlinkClusterBuilder() {}

    /** Conf, logs, plugins, tmp and checkpoints go here; default: a new temporary directory. */
    public LocalFlinkClusterBuilder workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /**
     * The Insight plugin jar to put into {@code plugins/insight/}; null starts the cluster without
     * it.
     */
    public LocalFlinkClusterBuilder pluginJar(Path jar) {
        this.pluginJar = jar;
        return this;
    }

    /**
     * A further plugin jar for {@code plugins/<folder>/}, e.g. Flink's PrometheusReporter ({@link
     * FlinkDistribution#prometheusReporterJar()}) in {@code metrics-prometheus}; its reporter is
     * configured with {@link #config}.
     */
    public LocalFlinkClusterBuilder otherPlugin(String folder, Path jar) {
        this.otherPlugins.put(folder, jar.toAbsolutePath());
        return this;
    }

    public LocalFlinkClusterBuilder taskManagers(int count) {
        this.taskManagers = count;
        return this;
    }

    public LocalFlinkClusterBuilder slotsPerTaskManager(int slots) {
        this.slotsPerTaskManager = slots;
        return this;
    }

    /**
     * ZooKeeper high availability: the harness starts a ZooKeeper server (its own JVM, on
     * 127.0.0.1) first and sets {@code high-availability.type: zookeeper}, its quorum and a storage
     * dir in the work dir. Default: off.
     */
    public LocalFlinkClusterBuilder zooKeeperHa(boolean on) {
        this.zooKeeperHa = on;
        return this;
    }

    /**
     * How many JobManagers, each with REST and RPC ports of its own; more than one needs {@link
     * #zooKeeperHa}.
     */
    public LocalFlinkClusterBuilder jobManagers(int count) {
        this.jobManagers = count;
        return this;
    }

    public LocalFlinkClusterBuilder sqlGateway(boolean start) {
        this.sqlGateway = start;
        return this;
    }

    /** Flink's REST/dashboard port; 0 (default) picks a free one. */
    public LocalFlinkClusterBuilder restPort(int port) {
        this.restPort = port;
        return this;
    }

    /** The JobManager's RPC port; 0 (default) picks a free one. */
    public LocalFlinkClusterBuilder rpcPort(int port) {
        this.rpcPort = port;
        return this;
    }

    /** The SQL Gateway's REST port; 0 (default) picks a free one. */
    public LocalFlinkClusterBuilder gatewayPort(int port) {
        this.gatewayPort = port;
        return this;
    }

    /**
     * {@code metrics.reporter.insight.port}, default {@value
     * ClusterConfiguration#DEFAULT_INSIGHT_PORT_RANGE}.
     */
    public LocalFlinkClusterBuilder insightPortRange(String range) {
        this.insightPortRange = range;
        return this;
    }

    /** A Flink option for every process; wins over the harness's defaults. */
    public LocalFlinkClusterBuilder config(String key, String value) {
        this.config.put(key, value);
        return this;
    }

    public LocalFlinkClusterBuilder config(Map<String, String> options) {
        this.config.putAll(options);
        return this;
    }

    /** {@code jobmanager.memory.process.size}, default 1g. */
    public LocalFlinkClusterBuilder jobManagerProcessSize(String size) {
        this.jobManagerProcessSize = size;
        return this;
    }

    /** {@code taskmanager.memory.process.size}, default 1536m. */
    public LocalFlinkClusterBuilder taskManagerProcessSize(String size) {
        this.taskManagerProcessSize = size;
        return this;
    }

    /** The SQL Gateway's -Xmx, default 512m. */
    public LocalFlinkClusterBuilder gatewayHeap(String heap) {
        this.gatewayHeap = heap;
        return this;
    }

    /** A jar for the SQL Gateway's classpath only, as if it were in the gateway's {@code lib/}. */
    public LocalFlinkClusterBuilder gatewayClasspath(Path jar) {
        // absolute: the gateway runs in its own working directory
        this.gatewayClasspath.add(jar.toAbsolutePath());
        return this;
    }

    /**
     * A Flink option for the SQL Gateway only (a {@code -D} dynamic property); wins over {@link
     * #config}.
     */
    public LocalFlinkClusterBuilder gatewayConfig(String key, String value) {
        this.gatewayConfig.put(key, value);
        return this;
    }

    /** How long {@link #start()} waits for the TaskManagers and the gateway; default 120 s. */
    public LocalFlinkClusterBuilder startTimeout(Duration timeout) {
        this.startTimeout = timeout;
        return this;
    }

    /**
     * TLS with mutual authentication for Flink's REST endpoints: the processes get {@link
     * RestTls#flinkOptions()} (the SQL Gateway's endpoint included) and the harness speaks HTTPS
     * with {@link RestTls#clientContext()}; null (the default) is plain HTTP.
     */
    public LocalFlinkClusterBuilder restTls(RestTls tls) {
        this.restTls = tls;
        return this;
    }

    /**
     * The Flink jars; default {@link FlinkDistribution#locate()} (the version of {@code
     * -Dinsight.flink.version}).
     */
    public LocalFlinkClusterBuilder distribution(FlinkDistribution flink) {
        this.distribution = flink;
        return this;
    }

    /**
     * The Flink version to start, one of {@link FlinkDistribution#VERSIONS}; its jars must have
     * been built.
     */
    public LocalFlinkClusterBuilder flinkVersion(String version) {
        return distribution(FlinkDistribution.locate(version));
    }

    /** The spec this builder describes, with the work dir created if it was not given. */
    public ClusterSpec spec() {
        Path dir = workDir;
        if (dir == null) {
            try {
                dir = Files.createTempDirectory("flink-insight-cluster-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new ClusterSpec(
                dir.toAbsolutePath(),
                pluginJar == null ? null : pluginJar.toAbsolutePath(),
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
                restTls,
                otherPlugins);
    }

    /** Starts the processes and waits until the TaskManagers registered and the gateway answers. */
    public LocalFlinkCluster start() {
        FlinkDistribution flink = distribution != null ? distribution : FlinkDistribution.locate();
        ClusterSpec spec = spec();
        try {
            return new ClusterStarter(flink, spec).start();
        } catch (RuntimeException e) {
            // A port picked free may be taken by another process before Flink binds it: once,
            // start again on other ports (the failed start's processes are stopped already).
            String lost = ClusterStarter.lostPortRace(spec).orElseThrow(() -> e);
            System.err.println(
                    "Harness: a port picked for the cluster was taken before Flink bound it ("
                            + lost
                            + "); starting the cluster again on other ports");
            return new ClusterStarter(flink, spec).start();
        }
    }
}
