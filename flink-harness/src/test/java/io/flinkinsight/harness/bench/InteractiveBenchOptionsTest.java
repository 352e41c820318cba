package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GatewayClient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InteractiveBenchOptionsTest {

    @TempDir Path dir;

    @Test
    void bothGatewayClientsAndTheClientsDefaultsUnlessToldOtherwise() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        InteractiveBenchOptions options =
                InteractiveBenchOptions.parse("--client-jar", jar.toString());

        assertThat(options.gatewayClients())
                .containsExactly(GatewayClient.JDBC, GatewayClient.REST);
        assertThat(options.interactiveSettings()).isEmpty();
    }

    @Test
    void gatewayClientsAndSettingsAreChosenOnTheCommandLine() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        InteractiveBenchOptions options =
                InteractiveBenchOptions.parse(
                        "--client-jar",
                        jar.toString(),
                        "--gateway-clients",
                        "rest",
                        "--set",
                        "collect-strategy.type=fixed");

        assertThat(options.gatewayClients()).containsExactly(GatewayClient.REST);
        assertThat(options.interactiveSettings())
                .containsEntry("collect-strategy.type", "fixed")
                .hasSize(1);
    }

    @Test
    void unknownGatewayClientIsRefused() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        assertThatThrownBy(
                        () ->
                                InteractiveBenchOptions.parse(
                                        "--client-jar",
                                        jar.toString(),
                                        "--gateway-clients",
                                        "odbc"))
                .hasMessageContaining("--gateway-clients")
                .hasMessageContaining("odbc")
                .hasMessageContaining("jdbc or rest");
    }

    @Test
    void profileIsAFlagWithoutValue() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        assertThat(InteractiveBenchOptions.parse("--client-jar", jar.toString()).profile())
                .isFalse();
        InteractiveBenchOptions options =
                InteractiveBenchOptions.parse(
                        "--client-jar", jar.toString(), "--profile", "--rounds", "3");
        assertThat(options.profile()).isTrue();
        assertThat(options.rounds()).isEqualTo(3);
    }

    @Test
    void theClusterIsPlainUnlessOlapIsAskedFor() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        assertThat(InteractiveBenchOptions.parse("--client-jar", jar.toString()).cluster())
                .isEqualTo(ClusterProfile.PLAIN);
        assertThat(
                        InteractiveBenchOptions.parse(
                                        "--client-jar", jar.toString(), "--cluster", "olap")
                                .cluster())
                .isEqualTo(ClusterProfile.OLAP);
    }

    @Test
    void unknownClusterProfileIsRefusedNamingTheAcceptedOnes() throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));

        assertThatThrownBy(
                        () ->
                                InteractiveBenchOptions.parse(
                                        "--client-jar", jar.toString(), "--cluster", "yarn"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--cluster: unknown cluster profile yarn")
                .hasMessageContaining("expected one of plain, olap")
                .hasMessageContaining("[--cluster plain|olap]");
    }
}
