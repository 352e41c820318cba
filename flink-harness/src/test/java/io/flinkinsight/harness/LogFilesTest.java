package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LogFilesTest {

    @TempDir Path dir;

    @Test
    void tailKeepsTheLastLines() throws Exception {
        Path log = Files.writeString(dir.resolve("a.log"), "one\ntwo\nthree\nfour\n");

        assertThat(LogFiles.tail(log, 2)).isEqualTo("three\nfour");
    }

    @Test
    void tailOfMissingFileSaysSo() {
        assertThat(LogFiles.tail(dir.resolve("none.log"), 5)).startsWith("(no file");
    }

    @Test
    void insightLineGivesHostAndPort() throws Exception {
        Path log =
                Files.writeString(
                        dir.resolve("jm.log"),
                        "2025 INFO x - starting\n"
                                + "2025 INFO io.flinkinsight.plugin.http.InsightHttpServer - Flink Insight HTTP server listening on"
                                + " http://127.0.0.1:9251\n");

        var match = LogFiles.firstMatch(log, LocalFlinkCluster.INSIGHT_LISTENING).orElseThrow();

        assertThat(match.group("host")).isEqualTo("127.0.0.1");
        assertThat(match.group("port")).isEqualTo("9251");
    }

    @Test
    void insightLineKeepsAnHttpsScheme() throws Exception {
        Path log =
                Files.writeString(
                        dir.resolve("jm.log"),
                        "2025 INFO io.flinkinsight.plugin.http.InsightHttpServer"
                                + " - Flink Insight HTTP server listening on https://localhost:9252\n");

        var match = LogFiles.firstMatch(log, LocalFlinkCluster.INSIGHT_LISTENING).orElseThrow();

        assertThat(match.group("scheme")).isEqualTo("https");
        assertThat(match.group("host")).isEqualTo("localhost");
        assertThat(match.group("port")).isEqualTo("9252");
    }

    @Test
    void noMatchWhileTheLineIsNotWritten() throws Exception {
        Path log = Files.writeString(dir.resolve("tm.log"), "2025 INFO x - starting\n");

        assertThat(LogFiles.firstMatch(log, LocalFlinkCluster.INSIGHT_LISTENING)).isEmpty();
    }
}
