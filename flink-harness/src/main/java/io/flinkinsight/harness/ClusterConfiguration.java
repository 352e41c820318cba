package io.flinkinsight.harness;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Flink options of one cluster: loopback everywhere, its ports, small memory, the plugin's
 * reporters.
 */
public final class ClusterConfiguration {

    public static final String LOOPBACK = "127.0.0.1";
    public static final String DEFAULT_INSIGHT_PORT_RANGE = "9250-9260";

    /**
     * First line of every config.yaml the harness writes; tells a harness work dir from any other
     * folder.
     */
    public static final String YAML_HEADER = "# Written by the Flink Insight harness.";

    /**
     * The folder of the work dir that holds the JobManagers' HA state ({@code
     * high-availability.storageDir}).
     */
    static final String HA_STORAGE_DIR = "ha";

    static final String METRIC_REPORTER_FACTORY =
            "io.flinkinsight.plugin.metrics.InsightMetricReporterFactory";
    static final String TRACE_REPORTER_FACTORY =
            "io.flinkinsight.plugin.traces.InsightTraceReporterFactory";
    static final String EVENT_REPORTER_FACTORY =
            "io.flinkinsight.plugin.events.InsightEventReporterFactory";

    private ClusterConfiguration() {}

    /** Every option of the cluster, sorted by key; the spec's own options override the defaults. */
    public static SortedMap<String, String> of(ClusterSpec spec, ClusterPorts ports) {
        SortedMap<String, String> conf = new TreeMap<>();
        // Several defaults bind all interfaces; this machine runs tests, nothing is to be reachable
        // from outside.
        conf.put("jobmanager.rpc.address", LOOPBACK);
        conf.put("jobmanager.rpc.port", Integer.toString(ports.rpc()));
        conf.put("jobmanager.bind-host", LOOPBACK);
        conf.put("taskmanager.bind-host", LOOPBACK);
        conf.put("taskmanager.host", LOOPBACK);
        conf.put("rest.address", LOOPBACK);
        conf.put("rest.bind-address", LOOPBACK);
        conf.put("rest.port", Integer.toString(ports.rest()));
        conf.put("sql-gateway.endpoint.rest.address", LOOPBACK);
        conf.put("sql-gateway.endpoint.rest.bind-address", LOOPBACK);
        conf.put("sql-gateway.endpoint.rest.port", Integer.toString(ports.gateway()));

        conf.put("jobmanager.memory.process.size", spec.jobManagerProcessSize());
        conf.put("taskmanager.memory.process.size", spec.taskManagerProcessSize());
        conf.put("taskmanager.numberOfTaskSlots", Integer.toString(spec.slotsPerTaskManager()));
        conf.put("parallelism.default", "1");
        conf.put("jobmanager.execution.failover-strategy", "region");

        // Everything a cluster writes stays in its work dir, so one rm cleans it and runs don't
        // collide.
        Path work = spec.workDir().toAbsolutePath();
        conf.put("io.tmp.dirs", work.resolve("tmp").toString());
        conf.put("execution.checkpointing.dir", work.resolve("checkpoints").toUri().toString());
        conf.put(
                "execution.checkpointing.savepoint-dir",
                work.resolve("savepoints").toUri().toString());

        if (spec.zooKeeperHa()) {
            conf.put("high-availability.type", "zookeeper");
            conf.put("high-availability.zookeeper.quorum", LOOPBACK + ":" + ports.zooKeeper());
            conf.put(
                    "high-availability.storageDir",
                    work.resolve(HA_STORAGE_DIR).toUri().toString());
            conf.put("high-availability.jobmanager.port", Integer.toString(ports.rpc()));
            // the harness's ZooKeeper has no SASL: without this every client logs a failed JAAS
            // login first
            conf.put("zookeeper.sasl.disable", "true");
        }

        if (spec.withPlugin()) {
            conf.put("metrics.reporter.insight.factory.class", METRIC_REPORTER_FACTORY);
            conf.put("metrics.reporter.insight.port", spec.insightPortRange());
            conf.put("metrics.reporter.insight.bind-host", LOOPBACK);
            conf.put("traces.reporter.insight.factory.class", TRACE_REPORTER_FACTORY);
            conf.put("events.reporter.insight.factory.class", EVENT_REPORTER_FACTORY);
            conf.put("traces.checkpoint.span-detail-level", "CHILDREN_SPANS_PER_TASK");
        }
        if (spec.withRestTls()) {
            // global, so the SQL Gateway's REST endpoint and every Flink process's REST client use
            // it too
            conf.putAll(spec.restTls().flinkOptions());
        }
        conf.putAll(spec.config());
        return Collections.unmodifiableSortedMap(conf);
    }

    /**
     * Renders options as Flink 2.x standard YAML: one flat key per line (Flink accepts dotted keys)
     * and every value single-quoted, so no value is ever read as a YAML number, list, map or
     * comment.
     */
    public static String toYaml(Map<String, String> conf) {
        StringBuilder yaml = new StringBuilder(YAML_HEADER).append('\n');
        new TreeMap<>(conf)
                .forEach(
                        (key, value) ->
                                yaml.append(key).append(": ").append(quote(value)).append('\n'));
        return yaml.toString();
    }

    static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
