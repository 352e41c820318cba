package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JvmOptionsTest {

    @Test
    void envJavaOptsOfAllProcessesThenOfTheRole() {
        Map<String, String> config =
                Map.of(
                        "env.java.opts.all", " -XX:+UseZGC  -XX:ReservedCodeCacheSize=512M ",
                        "env.java.opts.taskmanager", "-Dtm=1",
                        "env.java.opts.jobmanager", "-Djm=1");

        assertThat(JvmOptions.fromConfig(config, "taskmanager"))
                .containsExactly("-XX:+UseZGC", "-XX:ReservedCodeCacheSize=512M", "-Dtm=1");
        assertThat(JvmOptions.fromConfig(config, "sql-gateway"))
                .containsExactly("-XX:+UseZGC", "-XX:ReservedCodeCacheSize=512M");
        assertThat(JvmOptions.fromConfig(Map.of(), "jobmanager")).isEmpty();
    }
}
