package io.flinkinsight.harness.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StoreFileStatsTest {

    @TempDir Path dir;

    /** A file as the plugin's SegmentFormat.Writer writes it. */
    private static byte[] file(Chunk... chunks) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(0x46495331);
        out.writeShort(1);
        int records = 0;
        for (Chunk c : chunks) {
            out.writeByte(1);
            string(out, c.name);
            out.writeShort(c.labels.length / 2);
            for (String s : c.labels) {
                string(out, s);
            }
            out.writeInt(c.count);
            out.writeLong(1_000);
            out.writeLong(1_000 + 5_000L * (c.count - 1));
            out.writeInt(c.words);
            for (int i = 0; i < c.words; i++) {
                out.writeLong(i);
            }
            records++;
        }
        byte[] json = "{\"job\":1}".getBytes(StandardCharsets.UTF_8);
        out.writeByte(3);
        out.writeInt(json.length);
        out.write(json);
        records++;
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeByte(0);
        out.writeInt(records);
        out.writeLong(crc.getValue());
        out.flush();
        return bytes.toByteArray();
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    record Chunk(String name, String[] labels, int count, int words) {}

    @Test
    void countsSegmentsAndOnlyTheNewestTail() throws IOException {
        Chunk jm = new Chunk("flink_jobmanager_numRunningJobs", new String[] {"host", "h"}, 120, 4);
        Chunk other = new Chunk("flink_taskmanager_x", new String[0], 10, 2);
        Files.write(dir.resolve("segment-100-0123456789abcdef-1.fis"), file(jm, other));
        Files.write(dir.resolve("tail-200-0123456789abcdef-2.fis"), file(jm, jm, jm));
        Files.write(dir.resolve("tail-300-0123456789abcdef-3.fis"), file(jm));
        Files.writeString(dir.resolve("notes.txt"), "not ours");

        StoreFileStats.Stats stats =
                StoreFileStats.read(dir, k -> k.startsWith("flink_jobmanager_"));

        assertThat(stats.segmentFiles()).isEqualTo(1);
        assertThat(stats.tailFiles()).isEqualTo(1);
        assertThat(stats.tailBytes())
                .isEqualTo(Files.size(dir.resolve("tail-300-0123456789abcdef-3.fis")));
        StoreFileStats.Sums m = stats.matching();
        assertThat(m.chunks).isEqualTo(2);
        assertThat(m.samples).isEqualTo(240);
        assertThat(m.payloadBytes).isEqualTo(64);
        // type 1 + name (4 + 31) + label count 2 + label (4 + 4 + 4 + 1) + count 4 + 2 timestamps
        // 16
        // + word count 4 + words 32
        long record = 1 + 4 + 31 + 2 + 4 + 4 + 4 + 1 + 4 + 16 + 4 + 32;
        assertThat(m.recordBytes).isEqualTo(2 * record);
        assertThat(m.series).hasSize(1);
        assertThat(m.payloadPerSample()).isCloseTo(64.0 / 240, within(1e-9));
        assertThat(m.lastTimestamp - m.firstTimestamp).isEqualTo(5_000L * 119);
        assertThat(m.series)
                .containsExactly(
                        StoreFileStats.key("flink_jobmanager_numRunningJobs", Map.of("host", "h")));
        assertThat(StoreFileStats.read(dir, "flink_taskmanager_x{}"::equals).matching().samples)
                .isEqualTo(10);
        assertThat(stats.jsonRecordBytes()).isEqualTo(2 * (1 + 4 + 9));
        assertThat(stats.all().chunks).isEqualTo(3);
        assertThat(stats.all().samples).isEqualTo(250);
        assertThat(stats.all().series).hasSize(2);
    }

    @Test
    void readsTheThreadCpuFromAThreadDump() {
        String dump =
                "\"flink-insight-sampler\" #40 daemon prio=5 os_prio=0 cpu=812.50ms elapsed=60.1s"
                        + " tid=0x1 nid=0x2a waiting on condition  [0x0]\n"
                        + "\"flink-insight-stores-dir\" #41 daemon prio=5 os_prio=0 cpu=12.34ms"
                        + " elapsed=59.0s tid=0x2 nid=0x2b waiting on condition  [0x0]\n";
        assertThat(StoresDirBenchmark.threadCpuMillis(dump, "flink-insight-stores-dir"))
                .isEqualTo(12.34);
        assertThat(StoresDirBenchmark.threadCpuMillis(dump, "absent")).isZero();
    }

    @Test
    void sumsAFigureOverItsLabelSets() {
        String body =
                "# TYPE prometheus_tsdb_head_samples_appended_total counter\n"
                        + "prometheus_tsdb_head_samples_appended_total{type=\"float\"} 1.5e+03\n"
                        + "prometheus_tsdb_head_samples_appended_total{type=\"histogram\"} 0\n"
                        + "flink_insight_stores_dir_bytes 4096\n"
                        + "flink_insight_stores_dir_bytes_other 7\n";
        assertThat(StoresDirBenchmark.sumOf(body, "prometheus_tsdb_head_samples_appended_total"))
                .isEqualTo(1500);
        assertThat(StoresDirBenchmark.sumOf(body, "flink_insight_stores_dir_bytes"))
                .isEqualTo(4096);
        assertThat(StoresDirBenchmark.sumOf(body, "absent")).isNaN();
    }
}
