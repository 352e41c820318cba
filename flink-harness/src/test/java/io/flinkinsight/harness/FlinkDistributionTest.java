package io.flinkinsight.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkDistributionTest {

    @TempDir
    Path lib;

    @Test
    void classpathListsJarsSortedThenExtras() throws Exception {
        Files.createFile(lib.resolve("log4j-core-2.jar"));
        Files.createFile(lib.resolve("flink-runtime-2.2.0.jar"));
        Files.createFile(lib.resolve("README.txt"));

        String classpath = FlinkDistribution.at(lib).classpath(List.of(Path.of("/extra/client.jar")));

        assertThat(classpath.split(File.pathSeparator)).containsExactly(
                lib.resolve("flink-runtime-2.2.0.jar").toString(),
                lib.resolve("log4j-core-2.jar").toString(),
                "/extra/client.jar");
    }

    @Test
    void missingFolderNamesTheBuildCommand() {
        assertThatThrownBy(() -> FlinkDistribution.at(lib.resolve("absent")))
                .hasMessageContaining("mvn -pl flink-dist-local package");
    }

    @Test
    void folderWithoutFlinkRuntimeIsRejected() throws Exception {
        Files.createFile(lib.resolve("log4j-core-2.jar"));

        assertThatThrownBy(() -> FlinkDistribution.at(lib)).hasMessageContaining("no flink-runtime jar");
    }
}
