package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterConfigurationTest {

    private static ClusterSpec spec(Path plugin, Map<String, String> extra) {
        return new ClusterSpec(
                Path.of("/work/cluster"),
                plugin,
                1,
                4,
                true,
                0,
                0,
                0,
                "9250-9260",
                extra,
                "1g",
                "1536m",
                "512m",
                Duration.ofSeconds(60),
                List.of(),
                Map.of(),
                1,
                false);
    }

    private static final ClusterPorts PORTS = new ClusterPorts(18081, 16123, 18083);

    @Test
    void everyAddressAndBindHostIsLoopback() {
        Map<String, String> conf = ClusterConfiguration.of(spec(null, Map.of()), PORTS);

        for (String key :
                List.of(
                        "jobmanager.rpc.address",
                        "jobmanager.bind-host",
                        "taskmanager.bind-host",
                        "taskmanager.host",
                        "rest.address",
                        "rest.bind-address",
                        "sql-gateway.endpoint.rest.address",
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
        Map<String, String> with =
                ClusterConfiguration.of(spec(Path.of("/p/plugin.jar"), Map.of()), PORTS);

        assertThat(without.keySet()).noneMatch(k -> k.contains("reporter"));
        assertThat(with)
                .containsEntry(
                        "metrics.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.metrics.InsightMetricReporterFactory")
                .containsEntry("metrics.reporter.insight.port", "9250-9260")
                .containsEntry("metrics.reporter.insight.bind-host", "127.0.0.1")
                .containsEntry(
                        "traces.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.traces.InsightTraceReporterFactory")
                .containsEntry(
                        "events.reporter.insight.factory.class",
                        "io.flinkinsight.plugin.events.InsightEventReporterFactory")
                .containsEntry("traces.checkpoint.span-detail-level", "CHILDREN_SPANS_PER_TASK");
    }

    @Test
    void callerOptionsWinOverDefaults() {
        Map<String, String> conf =
                ClusterConfiguration.of(
                        spec(
                                null,
                                Map.of(
                                        "parallelism.default",
                                        "3",
                                        "state.backend.type",
                                        "rocksdb")),
                        PORTS);

        assertThat(conf)
                .containsEntry("parallelism.default", "3")
                .containsEntry("state.backend.type", "rocksdb");
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
        String yaml =
                ClusterConfiguration.toYaml(Map.of("b.key", "it's: #1", "a.key", "9250-9260"));

        assertThat(yaml).endsWith("a.key: '9250-9260'\nb.key: 'it''s: #1'\n");
    }

    @Test
    void zooKeeperHaPointsEveryProcessAtTheHarnessZooKeeperAndKeepsStateInTheWorkDir() {
        ClusterSpec ha =
                new ClusterSpec(
                        Path.of("/work/cluster"),
                        null,
                        1,
                        4,
                        true,
                        0,
                        0,
                        0,
                        "9250-9260",
                        Map.of(),
                        "1g",
                        "1536m",
                        "512m",
                        Duration.ofSeconds(60),
                        List.of(),
                        Map.of(),
                        2,
                        true);
        ClusterPorts ports =
                new ClusterPorts(
                        18081, 16123, 18083, 12181, List.of(18081, 18091), List.of(16123, 16133));

        Map<String, String> conf = ClusterConfiguration.of(ha, ports);

        assertThat(conf)
                .containsEntry("high-availability.type", "zookeeper")
                .containsEntry("high-availability.zookeeper.quorum", "127.0.0.1:12181")
                .containsEntry(
                        "high-availability.storageDir",
                        Path.of("/work/cluster/ha").toUri().toString());
        assertThat(ports.jobManagerDynamicProperties(1, true))
                .containsExactly(
                        "-D",
                        "rest.port=18091",
                        "-D",
                        "jobmanager.rpc.port=16133",
                        "-D",
                        "high-availability.jobmanager.port=16133");
        assertThat(ClusterConfiguration.of(spec(null, Map.of()), PORTS))
                .doesNotContainKey("high-availability.type");
    }

    @Test
    void restTlsOptionsGoToEveryProcessAndTheSpecsOwnOptionsStillWin(
            @org.junit.jupiter.api.io.TempDir Path dir) {
        RestTls tls = RestTls.create(dir);
        ClusterSpec spec =
                new ClusterSpec(
                        Path.of("/work/cluster"),
                        null,
                        1,
                        4,
                        true,
                        0,
                        0,
                        0,
                        "9250-9260",
                        Map.of("security.ssl.rest.authentication-enabled", "false"),
                        "1g",
                        "1536m",
                        "512m",
                        Duration.ofSeconds(60),
                        List.of(),
                        Map.of(),
                        1,
                        false,
                        tls,
                        Map.of());

        Map<String, String> conf = ClusterConfiguration.of(spec, PORTS);

        assertThat(spec.withRestTls()).isTrue();
        assertThat(conf)
                .containsEntry("security.ssl.rest.enabled", "true")
                .containsEntry("security.ssl.rest.keystore", tls.keystore().toString())
                .containsEntry("security.ssl.rest.truststore-password", tls.password())
                .containsEntry("security.ssl.rest.authentication-enabled", "false");
        assertThat(ClusterConfiguration.of(spec(null, Map.of()), PORTS))
                .doesNotContainKey("security.ssl.rest.enabled");
    }

    @Test
    void severalJobManagersNeedZooKeeperHa() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                new ClusterSpec(
                                        Path.of("/w"),
                                        null,
                                        1,
                                        4,
                                        true,
                                        0,
                                        0,
                                        0,
                                        "9250-9260",
                                        Map.of(),
                                        "1g",
                                        "1536m",
                                        "512m",
                                        Duration.ofSeconds(60),
                                        List.of(),
                                        Map.of(),
                                        2,
                                        false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 JobManagers need ZooKeeper high availability");
    }

    @Test
    void anotherPluginGetsAFolderOfItsOwnBesideInsights() {
        Path jar = Path.of("/m2/flink-metrics-prometheus.jar");
        ClusterSpec flinkReporter =
                LocalFlinkCluster.builder()
                        .workDir(Path.of("/w"))
                        .otherPlugin("metrics-prometheus", jar)
                        .spec();

        assertThat(flinkReporter.otherPlugins()).containsEntry("metrics-prometheus", jar);
        assertThat(flinkReporter.withPlugin()).isFalse();
        for (String folder : List.of("insight", "../lib", "")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () ->
                                    LocalFlinkCluster.builder()
                                            .workDir(Path.of("/w"))
                                            .pluginJar(Path.of("/insight.jar"))
                                            .otherPlugin(folder, jar)
                                            .spec())
                    .as(folder)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a plugin folder of its own");
        }
    }

    @Test
    void zooCfgServesOnLoopbackOnly() {
        String cfg = ZooKeeperConfiguration.zooCfg(Path.of("/work/cluster/zookeeper/data"), 12181);

        assertThat(cfg)
                .contains(
                        "clientPort=12181\n",
                        "clientPortAddress=127.0.0.1\n",
                        "dataDir=/work/cluster/zookeeper/data\n");
        assertThat(ZooKeeperConfiguration.jars())
                .hasSize(3)
                .allSatisfy(jar -> assertThat(jar).isRegularFile());
    }
}
