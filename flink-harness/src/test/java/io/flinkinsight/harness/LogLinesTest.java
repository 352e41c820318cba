package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LogLinesTest {

    @TempDir Path dir;

    private static void append(Path file, String... lines) throws Exception {
        Files.writeString(
                file,
                String.join("\n", lines) + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    @Test
    void countsTheErrorAndWarnLinesWrittenSinceTheStartInEveryFile() throws Exception {
        Path leader = dir.resolve("jobmanager-0.log");
        Path standby = dir.resolve("jobmanager-1.log");
        append(leader, "2026-11-27 14:51:09,981 ERROR before the start [] - not counted");
        LogLines lines = LogLines.from(List.of(leader, standby));

        append(
                leader,
                "2026-11-27 14:52:00,001 ERROR org.apache.flink.X [] - Unhandled exception.",
                "org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find ERROR",
                "\tat org.apache.flink.runtime.dispatcher.Dispatcher.getJobMasterGateway",
                "2026-11-27 14:52:00,002 INFO  org.apache.flink.X [] - ERROR in a message",
                "2026-11-27 14:52:00,003 WARN  org.apache.flink.Y [] - Collect sink coordinator");
        append(standby, "2026-11-27 14:52:00,004 WARN  org.apache.flink.Z [] - on the standby");

        assertThat(lines.sinceStart()).isEqualTo(new LogLines.Counts(1, 2));
        assertThat(lines.sinceStart(line -> line.contains("org.apache.flink.X")))
                .isEqualTo(new LogLines.Counts(1, 0));
    }

    @Test
    void aLogRolledOverIsCountedFromItsStart() throws Exception {
        Path log = dir.resolve("jobmanager.log");
        append(log, "2026-11-27 14:51:09,981 WARN  before [] - a long line before the start");
        LogLines lines = LogLines.from(List.of(log));

        Files.writeString(
                log, "2026-11-27 14:52:00,001 ERROR after [] - x\n", StandardCharsets.UTF_8);

        assertThat(lines.sinceStart()).isEqualTo(new LogLines.Counts(1, 0));
    }

    @Test
    void aLogNotWrittenYetCountsNothing() {
        LogLines lines = LogLines.from(List.of(dir.resolve("absent.log")));

        assertThat(lines.sinceStart()).isEqualTo(LogLines.Counts.NONE);
    }
}
