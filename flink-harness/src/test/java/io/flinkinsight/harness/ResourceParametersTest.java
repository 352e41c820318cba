package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceParametersTest {

    @Test
    void lastTwoResultLinesAreJvmFlagsThenDynamicProperties() {
        ResourceParameters parsed =
                ResourceParameters.parse(
                        List.of(
                                "INFO  some log line",
                                "BASH_JAVA_UTILS_EXEC_RESULT:-Xmx1 -Xms1",
                                "BASH_JAVA_UTILS_EXEC_RESULT:-Xmx536870912 -Xms536870912 -XX:MaxMetaspaceSize=268435456",
                                "BASH_JAVA_UTILS_EXEC_RESULT:-D taskmanager.memory.network.min=1b -D taskmanager.cpu.cores=4.0",
                                "INFO  trailing log line"));

        assertThat(parsed.jvmFlags())
                .containsExactly(
                        "-Xmx536870912", "-Xms536870912", "-XX:MaxMetaspaceSize=268435456");
        assertThat(parsed.dynamicProperties())
                .containsExactly(
                        "-D",
                        "taskmanager.memory.network.min=1b",
                        "-D",
                        "taskmanager.cpu.cores=4.0");
    }

    @Test
    void emptyDynamicPropertiesLineGivesNoArguments() {
        ResourceParameters parsed =
                ResourceParameters.parse(
                        List.of(
                                "BASH_JAVA_UTILS_EXEC_RESULT:-Xmx1g",
                                "BASH_JAVA_UTILS_EXEC_RESULT:"));

        assertThat(parsed.dynamicProperties()).isEmpty();
    }

    @Test
    void missingResultLinesFailWithTheOutput() {
        assertThatThrownBy(
                        () -> ResourceParameters.parse(List.of("Error: could not find main class")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could not find main class");
    }
}
