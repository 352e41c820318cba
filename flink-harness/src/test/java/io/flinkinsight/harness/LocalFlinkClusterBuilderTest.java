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

    @Test
    void aStartThatLostAPickedPortToAnotherProcessIsToldFromOtherFailures() throws Exception {
        Path work = Files.createDirectories(dir.resolve("race"));
        ClusterSpec picked = LocalFlinkCluster.builder().workDir(work).spec();
        ClusterSpec fixed =
                LocalFlinkCluster.builder()
                        .workDir(work)
                        .restPort(18081)
                        .rpcPort(16123)
                        .gatewayPort(18083)
                        .spec();
        Files.writeString(work.resolve("jobmanager.log"), "INFO starting\nERROR boom\n");
        assertThat(ClusterStarter.lostPortRace(picked)).isEmpty();

        Files.writeString(
                work.resolve("jobmanager.log"),
                "ERROR Could not start\njava.net.BindException: Address already in use\n");

        assertThat(ClusterStarter.lostPortRace(picked))
                .hasValueSatisfying(
                        line -> assertThat(line).contains("jobmanager.log", "BindException"));
        assertThat(ClusterStarter.lostPortRace(fixed)).as("fixed ports: not a race").isEmpty();
    }
}
