package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalFlinkClusterBuilderTest {

    @TempDir Path dir;

    @Test
    void missingPluginJarFailsBeforeAnyProcessStartsAndLeavesNoEmptyPluginFolder()
            throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.createFile(lib.resolve("flink-runtime-2.2.0.jar"));
        Path work = dir.resolve("work");

        // Fixed ports: the builder then binds no socket to find free ones, and nothing listens on
        // them.
        assertThatThrownBy(
                        () ->
                                LocalFlinkCluster.builder()
                                        .distribution(FlinkDistribution.at(lib))
                                        .workDir(work)
                                        .pluginJar(dir.resolve("absent.jar"))
                                        .restPort(18081)
                                        .rpcPort(16123)
                                        .gatewayPort(18083)
                                        .start())
                .hasMessageContaining("mvn -pl metrics-plugin");
        assertThat(work.resolve("plugins/insight")).doesNotExist();
        assertThat(work.resolve("conf/config.yaml")).exists();
    }

    @Test
    void specDefaultsToOneTaskManagerWithoutGatewayOrPlugin() {
        ClusterSpec spec = LocalFlinkCluster.builder().workDir(dir).spec();

        assertThat(spec.taskManagers()).isEqualTo(1);
        assertThat(spec.sqlGateway()).isFalse();
        assertThat(spec.withPlugin()).isFalse();
        assertThat(spec.insightPortRange()).isEqualTo("9250-9260");
    }
}
