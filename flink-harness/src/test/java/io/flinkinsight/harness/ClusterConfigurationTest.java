package io.flinkinsight.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterConfigurationTest {

    private static ClusterSpec spec(Path plugin, Map<String, String> extra) {
        return new ClusterSpec(Path.of("/work/cluster"), plugin, 1, 4, true, 0, 0, 0, "9250-9260", extra, "1g",
                "1536m", "512m", Duration.ofSeconds(60), List.of(), Map.of());
    }

    private static final ClusterPorts PORTS = new ClusterPorts(18081, 16123, 18083);

    @Test
    void everyAddressAndBindHostIsLoopback() {
        Map<String, String> conf = ClusterConfiguration.of(spec(null, Map.of()), PORTS);

        for (String key : List.of("jobmanager.rpc.address", "jobmanager.bind-host", "taskmanager.bind-host",
                "taskmanager.host", "rest.address", "rest.bind-address", "sql-gateway.endpoint.rest.address",
                "sql-gateway.endpoint.rest.bind-address")) {
            assertThat(conf).containsEntry(key, "127.0.0.1");
        }
    }

    @Test
    void resolvedPortsAreConfigured() {
        Map<String, String> conf = ClusterConfiguration.of(spec(null, Map.of()), PORTS);

        assertThat(conf)
                .containsEntry("rest.port", "18081")
                .containsEntry("jobmanager.rpc.port", "16123")
                .containsEntry("sql-gateway.endpoint.rest.port", "18083")
                .containsEntry("taskmanager.numberOfTaskSlots", "4");
    }

    @Test
    void reportersAreConfiguredOnlyWithThePlugin() {
        Map<String, String> without = ClusterConfiguration.of(spec(null, Map.of()), PORTS);
        Map<String, String> with = ClusterConfiguration.of(spec(Path.of("/p/plugin.jar"), Map.of()), PORTS);

        assertThat(without.keySet()).noneMatch(k -> k.contains("reporter"));
        assertThat(with)
                .containsEntry("metrics.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.metrics.InsightMetricReporterFactory")
                .containsEntry("metrics.reporter.insight.port", "9250-9260")
                .containsEntry("metrics.reporter.insight.bind-host", "127.0.0.1")
                .containsEntry("traces.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.traces.InsightTraceReporterFactory")
                .containsEntry("events.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.events.InsightEventReporterFactory")
                .containsEntry("traces.checkpoint.span-detail-level", "CHILDREN_SPANS_PER_TASK");
    }

    @Test
    void callerOptionsWinOverDefaults() {
        Map<String, String> conf =
                ClusterConfiguration.of(spec(null, Map.of("parallelism.default", "3", "state.backend.type", "rocksdb")),
                        PORTS);

        assertThat(conf).containsEntry("parallelism.default", "3").containsEntry("state.backend.type", "rocksdb");
    }

    @Test
    void checkpointsAndTempFilesStayInTheWorkDir() {
        Map<String, String> conf = ClusterConfiguration.of(spec(null, Map.of()), PORTS);

        assertThat(conf)
                .containsEntry("io.tmp.dirs", "/work/cluster/tmp")
                .containsEntry("execution.checkpointing.dir", "file:///work/cluster/checkpoints");
    }

    @Test
    void yamlQuotesEveryValueAndSortsKeys() {
        String yaml = ClusterConfiguration.toYaml(Map.of("b.key", "it's: #1", "a.key", "9250-9260"));

        assertThat(yaml).endsWith("a.key: '9250-9260'\nb.key: 'it''s: #1'\n");
    }
}
