package io.flinkinsight.plugin.runtime;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DynamicPropertiesTest {

    @Test
    void takesTheTwoTokenDynamicPropertiesAndNoSystemProperty() {
        List<String> command =
                List.of(
                        "java",
                        "-Dlog.file=/tmp/jm.log",
                        "-Xmx1g",
                        "-classpath",
                        "lib/*",
                        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                        "--configDir",
                        "conf",
                        "-D",
                        "rest.port=8082",
                        "-D",
                        "jobmanager.rpc.port = 6124",
                        "-D",
                        "not-a-pair",
                        "-D");
        assertThat(DynamicProperties.parse(command, false))
                .isEqualTo(Map.of("rest.port", "8082", "jobmanager.rpc.port", "6124"));
    }

    @Test
    void programArgumentsTakeBothForms() {
        List<String> program =
                List.of(
                        "org.apache.flink.table.gateway.SqlGateway",
                        "-Drest.port=8082",
                        "-D",
                        "rest.address=jm-1");
        assertThat(DynamicProperties.parse(program, true))
                .isEqualTo(Map.of("rest.port", "8082", "rest.address", "jm-1"));
    }
}
