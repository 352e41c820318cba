package io.flinkinsight.harness.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchOptionsTest {

    @TempDir Path dir;

    @Test
    void jarsAreRequiredAndCountsDefault() throws Exception {
        Path workload = Files.createFile(dir.resolve("workloads.jar"));
        Path plugin = Files.createFile(dir.resolve("plugin.jar"));

        BenchOptions options =
                BenchOptions.parse(
                        "--workload-jar",
                        workload.toString(),
                        "--plugin-jar",
                        plugin.toString(),
                        "--rounds",
                        "3");

        assertThat(options.rounds()).isEqualTo(3);
        assertThat(options.records()).isEqualTo(200_000_000L);
        assertThat(options.warmupRecords()).isLessThan(options.records());
    }

    @Test
    void missingWorkloadJarNamesItsBuildCommand() throws Exception {
        Path plugin = Files.createFile(dir.resolve("plugin.jar"));

        assertThatThrownBy(
                        () ->
                                BenchOptions.parse(
                                        "--workload-jar",
                                        dir.resolve("absent.jar").toString(),
                                        "--plugin-jar",
                                        plugin.toString()))
                .hasMessageContaining("mvn -pl workloads package");
    }

    @Test
    void nonPositiveRecordsAreRejected() throws Exception {
        Path jar = Files.createFile(dir.resolve("x.jar"));

        assertThatThrownBy(
                        () ->
                                BenchOptions.parse(
                                        "--workload-jar",
                                        jar.toString(),
                                        "--plugin-jar",
                                        jar.toString(),
                                        "--records",
                                        "-5"))
                .hasMessageContaining("positive");
    }
}
