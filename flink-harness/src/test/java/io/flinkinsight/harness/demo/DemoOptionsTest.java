package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.FlinkDistribution;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemoOptionsTest {

    @Test
    void withoutArgumentsTheDemoRunsUntilStoppedWithThePlugin() {
        DemoOptions options = DemoOptions.parse();

        assertThat(options.duration()).isNull();
        assertThat(options.pluginJar()).isEqualTo(DemoOptions.DEFAULT_PLUGIN_JAR);
        assertThat(options.workDir()).isEqualTo(DemoOptions.DEFAULT_WORK_DIR);
        assertThat(options.flinkVersion()).isEqualTo(FlinkDistribution.PRIMARY_VERSION);
    }

    @Test
    void flinkVersionIsOneTheHarnessKnows() {
        assertThat(DemoOptions.parse("--flink-version", "1.20.3").flinkVersion())
                .isEqualTo("1.20.3");
        assertThatThrownBy(() -> DemoOptions.parse("--flink-version", "1.19.0"))
                .hasMessageContaining(
                        "--flink-version must be one of " + FlinkDistribution.VERSIONS)
                .hasMessageContaining("usage:");
    }

    @Test
    void durationWorkDirAndPluginAreRead() {
        DemoOptions options =
                DemoOptions.parse(
                        "--duration", "60", "--work-dir", "/tmp/d", "--plugin-jar", "p.jar");

        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.workDir()).isEqualTo(Path.of("/tmp/d"));
        assertThat(options.pluginJar()).isEqualTo(Path.of("p.jar"));
    }

    @Test
    void laterNoPluginWinsOverAnEarlierPluginJar() {
        assertThat(DemoOptions.parse("--plugin-jar", "p.jar", "--no-plugin").pluginJar()).isNull();
    }

    @Test
    void nonPositiveDurationIsRejectedWithUsage() {
        assertThatThrownBy(() -> DemoOptions.parse("--duration", "0"))
                .hasMessageContaining("usage:");
        assertThatThrownBy(() -> DemoOptions.parse("--duration", "soon"))
                .hasMessageContaining("positive");
    }

    @Test
    void unknownOptionIsRejected() {
        assertThatThrownBy(() -> DemoOptions.parse("--fast"))
                .hasMessageContaining("unknown option --fast");
    }
}
