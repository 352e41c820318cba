package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkDistributionTest {

    @TempDir Path lib;

    @Test
    void classpathListsJarsSortedThenExtras() throws Exception {
        Files.createFile(lib.resolve("log4j-core-2.jar"));
        Files.createFile(lib.resolve("flink-runtime-2.3.0.jar"));
        Files.createFile(lib.resolve("README.txt"));

        String classpath =
                FlinkDistribution.at(lib).classpath(List.of(Path.of("/extra/client.jar")));

        assertThat(classpath.split(File.pathSeparator))
                .containsExactly(
                        lib.resolve("flink-runtime-2.3.0.jar").toString(),
                        lib.resolve("log4j-core-2.jar").toString(),
                        "/extra/client.jar");
    }

    @Test
    void versionIsReadFromTheRuntimeJarNotFromRuntimeWeb() throws Exception {
        Files.createFile(lib.resolve("flink-runtime-web-1.20.3.jar"));
        Files.createFile(lib.resolve("flink-runtime-1.20.3.jar"));

        assertThat(FlinkDistribution.at(lib).version()).isEqualTo("1.20.3");
    }

    @Test
    void folderOfAnotherVersionIsRejected() throws Exception {
        Files.createFile(lib.resolve("flink-runtime-2.0.0.jar"));

        assertThatThrownBy(() -> FlinkDistribution.at(lib, "2.1.1"))
                .hasMessageContaining("holds Flink 2.0.0, not 2.1.1")
                .hasMessageContaining(
                        "mvn -pl flink-dist-local,flink-dist-local/flink-2.1.1 package");
    }

    @Test
    void missingFolderNamesTheBuildCommand() {
        assertThatThrownBy(() -> FlinkDistribution.at(lib.resolve("absent")))
                .hasMessageContaining("mvn -pl flink-dist-local package");
    }

    @Test
    void folderWithoutFlinkRuntimeIsRejected() throws Exception {
        Files.createFile(lib.resolve("log4j-core-2.jar"));
        Files.createFile(lib.resolve("flink-runtime-web-2.3.0.jar"));

        assertThatThrownBy(() -> FlinkDistribution.at(lib))
                .hasMessageContaining("no flink-runtime jar");
    }

    @Test
    void locateFindsTheVersionsFolderUnderTheConfiguredRoot() throws Exception {
        Path versionLib = Files.createDirectories(lib.resolve("flink-2.0.0").resolve("lib"));
        Files.createFile(versionLib.resolve("flink-runtime-2.0.0.jar"));
        String before = System.getProperty(FlinkDistribution.DISTS_PROPERTY);
        System.setProperty(FlinkDistribution.DISTS_PROPERTY, lib.toString());
        try {
            FlinkDistribution flink = FlinkDistribution.locate("2.0.0");

            assertThat(flink.version()).isEqualTo("2.0.0");
            assertThat(flink.libDir()).isEqualTo(versionLib.toAbsolutePath().normalize());
            assertThatThrownBy(() -> FlinkDistribution.locate("9.9.9"))
                    .hasMessageContaining("flink-9.9.9")
                    .hasMessageContaining("the versions it knows: " + FlinkDistribution.VERSIONS);
        } finally {
            if (before == null) {
                System.clearProperty(FlinkDistribution.DISTS_PROPERTY);
            } else {
                System.setProperty(FlinkDistribution.DISTS_PROPERTY, before);
            }
        }
    }

    @Test
    void everyOlderVersionHasItsFlinkDistLocalModule() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(root.resolve("flink-dist-local"))) {
            root = root.getParent();
            assertThat(root).as("the repository root above the working directory").isNotNull();
        }
        List<String> versions = FlinkDistribution.VERSIONS;
        assertThat(versions).last().isEqualTo(FlinkDistribution.PRIMARY_VERSION);
        for (String older : versions.subList(0, versions.size() - 1)) {
            assertThat(root.resolve("flink-dist-local/flink-" + older + "/pom.xml")).exists();
        }
    }
}
