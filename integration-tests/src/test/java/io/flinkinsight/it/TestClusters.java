package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LocalFlinkClusterBuilder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cluster set-ups shared by the integration tests: the built plugin jar, a private work dir,
 * loopback ports.
 */
public final class TestClusters {

    /**
     * Away from the default 9250-9260, so a running demo on this machine does not collide with the
     * tests.
     */
    static final String INSIGHT_PORTS = "19250-19290";

    private TestClusters() {}

    public static Path pluginJar() {
        Path jar =
                Path.of(
                        System.getProperty(
                                "insight.plugin.jar",
                                "../metrics-plugin/target/metrics-plugin.jar"));
        assertThat(jar).as("the built plugin jar (run the build first)").exists();
        return jar;
    }

    /** The built interactive-client jar, for the gateway's classpath (as if in its lib/). */
    public static Path clientJar() {
        Path jar =
                Path.of(
                        System.getProperty(
                                "insight.client.jar",
                                "../interactive-client/target/interactive-client.jar"));
        assertThat(jar).as("the built interactive-client jar (run the build first)").exists();
        return jar;
    }

    /** The built interactive-client-flink1 jar, the client for Flink 1.20 gateways. */
    public static Path clientJarFlink1() {
        Path jar =
                Path.of(
                        System.getProperty(
                                "insight.client.flink1.jar",
                                "../interactive-client-flink1/target/interactive-client-flink1.jar"));
        assertThat(jar)
                .as("the built interactive-client-flink1 jar (run the build first)")
                .exists();
        return jar;
    }

    public static Path workDir(String name) {
        try {
            Path root = Path.of(System.getProperty("insight.work", "target/clusters"));
            Files.createDirectories(root);
            return Files.createTempDirectory(root, name + "-");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** JobManager, one TaskManager and the SQL Gateway, with the plugin in plugins/insight/. */
    public static LocalFlinkClusterBuilder withPlugin(String name) {
        return withPlugin(name, INSIGHT_PORTS);
    }

    /**
     * The same, with the plugin's HTTP servers in {@code insightPorts} (tests that run beside the
     * others).
     */
    public static LocalFlinkClusterBuilder withPlugin(String name, String insightPorts) {
        return LocalFlinkCluster.builder()
                .workDir(workDir(name))
                .pluginJar(pluginJar())
                .insightPortRange(insightPorts)
                .sqlGateway(true);
    }
}
