package io.flinkinsight.harness.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterProfileTest {

    @Test
    void plainIsTodaysClusterInStreamingMode() {
        ClusterProfile plain = ClusterProfile.PLAIN;

        assertThat(plain.jobManagers).isEqualTo(1);
        assertThat(plain.taskManagers).isEqualTo(1);
        assertThat(plain.slotsPerTaskManager(64)).isEqualTo(64);
        assertThat(plain.runtimeMode()).isEqualTo("streaming");
        assertThat(plain.clusterConfig(64))
                .containsExactly(Map.entry("rest.server.numThreads", "32"));
        assertThat(plain.gatewayConfig()).isEmpty();
    }

    @Test
    void olapAppliesTheGuidesSettingsWithHaAndTwoTaskManagersSharingTheSlots() {
        ClusterProfile olap = ClusterProfile.OLAP;

        assertThat(olap.jobManagers).isEqualTo(2);
        assertThat(olap.taskManagers).isEqualTo(2);
        assertThat(olap.slotsPerTaskManager(64)).isEqualTo(32);
        assertThat(olap.slotsPerTaskManager(5)).isEqualTo(3);
        assertThat(olap.runtimeMode()).isEqualTo("batch");
        Map<String, String> config = olap.clusterConfig(64);
        assertThat(config)
                .containsEntry("pipeline.object-reuse", "true")
                .containsEntry("execution.runtime-mode", "BATCH")
                .containsEntry("execution.batch-shuffle-mode", "ALL_EXCHANGES_PIPELINED")
                .containsEntry("jobmanager.execution.failover-strategy", "full")
                .containsEntry("restart-strategy.type", "disable")
                .containsEntry("jobstore.type", "Memory")
                .containsEntry("jobstore.max-capacity", "500")
                .containsEntry("rest.server.numThreads", "32")
                .containsEntry("slotmanager.number-of-slots.min", "64")
                .containsEntry("jobmanager.scheduler", "Default");
        assertThat(config.get("env.java.opts.all"))
                .contains("-XX:+UseZGC", "-XX:PerMethodRecompilationCutoff=10000");
        assertThat(olap.gatewayConfig())
                .containsExactly(Map.entry("sql-gateway.session.plan-cache.enabled", "true"));
    }

    @Test
    void theDescriptionNamesEveryOptionAndSize() {
        String text = ClusterProfile.OLAP.describe(64);

        assertThat(text)
                .contains("`olap`", "ZooKeeper high availability", "2 JobManagers of 2g")
                .contains("2 TaskManagers of 2g with 32 slots each", "batch mode")
                .contains("`sql-gateway.session.plan-cache.enabled: true`");
        ClusterProfile.OLAP
                .clusterConfig(64)
                .forEach((key, value) -> assertThat(text).contains("`" + key + ": " + value + "`"));
    }
}
