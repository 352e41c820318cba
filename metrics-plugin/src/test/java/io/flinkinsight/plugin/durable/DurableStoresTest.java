package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.TestingCapabilities;
import io.flinkinsight.plugin.TestingLogCapture;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.TestingSeriesKeys;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementOrder;
import io.flinkinsight.plugin.store.statement.StatementsSnapshot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hub's stores written to a real directory and read back into new stores, as after a restart.
 */
class DurableStoresTest {

    private static final String JOB = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5";
    private static final SeriesKey HEAP =
            TestingSeriesKeys.key("flink_jobmanager_Status_JVM_Memory_Heap_Used");
    private static final SeriesKey RECORDS =
            TestingSeriesKeys.key("flink_taskmanager_job_task_numRecordsIn", "job_id", JOB);
    private static final long START = 1_800_000_000_000L;

    @TempDir Path dir;

    private final TestingClock clock = new TestingClock(START);

    private InsightStores newStores() {
        return new InsightStores(StoreSettings.defaults(), clock, TestingCapabilities.FLINK_2_2);
    }

    private DurableStores open(InsightStores stores, String where) {
        DurableSettings settings =
                new DurableSettings(
                        where, 1L << 30, Duration.ofHours(1), Duration.ofMinutes(1), 16L << 20);
        return DurableStores.open(settings, Map.of(), stores, clock);
    }

    /** Samples every 5 s for {@code minutes}, as the sampler writes them. */
    private void sample(InsightStores stores, int minutes) {
        for (int i = 0; i < minutes * 12; i++) {
            clock.advance(5_000);
            stores.series().record(HEAP, clock.millis(), 1_000_000 + i * 17);
            stores.series().record(RECORDS, clock.millis(), i * 100.0);
        }
    }

    private static List<double[]> samples(InsightStores stores, SeriesKey key) {
        List<double[]> out = new ArrayList<>();
        stores.series()
                .read(key, Long.MIN_VALUE, Long.MAX_VALUE, (t, v) -> out.add(new double[] {t, v}));
        return out;
    }

    private static CheckpointRecord checkpoint(long id) {
        return CheckpointParser.fromSpan(
                FlinkTelemetry.checkpointSpan(
                        JOB, id, START + id * 1_000, START + id * 1_000 + 300, id, 2));
    }

    @Test
    void whatWasWrittenIsReadBackWholeAfterARestart() {
        InsightStores before = newStores();
        before.jobs().onStatus(JOB, "wordcount", "CREATED", START);
        before.jobs().onStatus(JOB, "wordcount", "RUNNING", START + 500);
        before.checkpoints().add(checkpoint(1));
        before.checkpoints().add(checkpoint(2));
        DurableStores durable = open(before, dir.toUri().toString());
        durable.restore();
        durable.startWriting();
        sample(before, 25); // more than two sealed chunks (10 min each) and an open one
        durable.writeNow();
        sample(before, 3);
        durable.close(); // the last write: a graceful restart loses nothing

        clock.advance(30_000);
        InsightStores after = newStores();
        StoreRestorer.Restored restored = open(after, dir.toUri().toString()).restore();

        assertThat(samples(after, HEAP))
                .usingRecursiveComparison()
                .isEqualTo(samples(before, HEAP));
        assertThat(samples(after, RECORDS)).hasSize(28 * 12);
        JobRecord job = after.jobs().get(JOB);
        assertThat(job.jobName()).isEqualTo("wordcount");
        assertThat(job.status()).isEqualTo("RUNNING");
        assertThat(job.transitions()).isEqualTo(before.jobs().get(JOB).transitions());
        assertThat(after.checkpoints().newestFirst(JOB, 10))
                .isEqualTo(before.checkpoints().newestFirst(JOB, 10));
        assertThat(restored.series()).isEqualTo(2);
        assertThat(restored.samples()).isEqualTo(2 * 28 * 12);
        assertThat(restored.damagedFiles()).isZero();
    }

    @Test
    void aKillLosesAtMostTheLastWriteIntervalAndNewSamplesFollowTheRestoredOnes() {
        InsightStores before = newStores();
        DurableStores durable = open(before, dir.toUri().toString());
        durable.restore();
        sample(before, 12);
        durable.writeNow();
        sample(before, 1); // never written: killed before the next write

        InsightStores after = newStores();
        open(after, dir.toUri().toString()).restore();
        assertThat(samples(after, HEAP)).hasSize(12 * 12);
        sample(after, 1);
        assertThat(samples(after, HEAP)).hasSize(13 * 12);
        assertThat(after.series().droppedOutOfOrder()).isZero();
    }

    @Test
    void damagedForeignAndCutShortFilesAreSkippedWithOneLineEach() throws IOException {
        InsightStores before = newStores();
        DurableStores durable = open(before, dir.toUri().toString());
        sample(before, 25);
        durable.writeNow();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("segment")).toList();
        }
        assertThat(files).hasSize(1);
        byte[] whole = Files.readAllBytes(files.get(0));
        // cut short, as by a crash during the write, under a name of ours
        Files.write(
                dir.resolve("segment-" + (START + 1) + "-00000000000aaaaaaaa-1.fis"),
                java.util.Arrays.copyOf(whole, whole.length / 2));
        // one flipped bit
        byte[] flipped = whole.clone();
        flipped[whole.length / 3] ^= 4;
        Files.write(dir.resolve("segment-" + (START + 2) + "-00000000000bbbbbbbb-1.fis"), flipped);
        Files.writeString(dir.resolve("notes.txt"), "not ours");

        InsightStores after = newStores();
        StoreRestorer.Restored restored;
        try (TestingLogCapture log = new TestingLogCapture()) {
            restored = open(after, dir.toUri().toString()).restore();
            assertThat(log.linesAt("WARN")).hasSize(2).allMatch(l -> l.contains("skipped"));
            assertThat(log.linesAt("INFO"))
                    .anyMatch(
                            l -> l.contains("left alone 1 entries") && l.contains(dir.toString()));
        }
        assertThat(restored.damagedFiles()).isEqualTo(2);
        assertThat(samples(after, HEAP)).hasSize(samples(before, HEAP).size());
        assertThat(dir.resolve("notes.txt")).exists();
    }

    @Test
    void aDirectoryThatCannotBeWrittenLeavesTheStoresInMemoryAndSaysSoOnce() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        InsightStores stores = newStores();
        DurableStores durable = open(stores, file.toUri() + "/stores");
        try (TestingLogCapture log = new TestingLogCapture()) {
            durable.restore();
            sample(stores, 2);
            durable.writeNow();
            durable.writeNow();
            assertThat(log.linesAt("WARN")).hasSize(1);
            assertThat(log.linesAt("WARN").get(0)).contains("keeps them in memory");
        }
        assertThat(durable.status().failures()).isEqualTo(2);
        assertThat(samples(stores, HEAP)).hasSize(24);
    }

    @Test
    void retentionAndTheByteBoundDeleteTheOldestFilesAndReplaceTheTail() throws IOException {
        InsightStores stores = newStores();
        DurableStores durable = open(stores, dir.toUri().toString());
        for (int i = 0; i < 20; i++) {
            sample(stores, 10);
            durable.writeNow();
        }
        List<String> names;
        try (Stream<Path> list = Files.list(dir)) {
            names = list.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(names.stream().filter(n -> n.startsWith("tail"))).hasSize(1);
        long cutoff = clock.millis() - Duration.ofHours(1).toMillis();
        assertThat(names)
                .allMatch(n -> StoreFileName.parse(n).newestMillis() >= cutoff, "within retention");
    }

    @Test
    void memoryOnlyWithoutHighAvailabilityOrWithNoneAndUnderTheHaStorageDirWithIt() {
        DurableSettings defaults = DurableSettings.defaults();
        assertThat(defaults.resolve(Map.of()).uri()).isNull();
        assertThat(
                        defaults.resolve(
                                        Map.of(
                                                "high-availability.type", "zookeeper",
                                                "high-availability.storageDir", "s3://bucket/ha/",
                                                "high-availability.cluster-id", "/session-a"))
                                .uri())
                .isEqualTo("s3://bucket/ha/session-a/insight");
        assertThat(
                        defaults.resolve(
                                        Map.of(
                                                "high-availability", "ZOOKEEPER",
                                                "high-availability.storageDir", "hdfs:///flink/ha"))
                                .uri())
                .isEqualTo("hdfs:///flink/ha/default/insight");
        assertThat(
                        defaults.resolve(
                                        Map.of(
                                                "high-availability.type", "kubernetes",
                                                "high-availability.storageDir", "s3://b/ha",
                                                "kubernetes.cluster-id", "insight-session"))
                                .uri())
                .isEqualTo("s3://b/ha/insight-session/insight");
        DurableSettings none =
                new DurableSettings(
                        "none", 1L << 30, Duration.ofHours(1), Duration.ofMinutes(1), 1 << 20);
        assertThat(
                        none.resolve(
                                        Map.of(
                                                "high-availability.type", "zookeeper",
                                                "high-availability.storageDir", "s3://b/ha"))
                                .uri())
                .isNull();
    }

    private static QuerySample query(String text, long end, long e2e, long clusterRun) {
        return QuerySample.of(
                text,
                "gateway-1",
                null,
                "SUCCEEDED",
                end - e2e,
                end,
                e2e,
                null,
                null,
                null,
                null,
                0L,
                5L,
                20L,
                clusterRun,
                e2e - 25 - clusterRun,
                4L,
                0L,
                false);
    }

    @Test
    void statementsAndHowFarEachGatewayWasReadComeBackTogether() {
        InsightStores before = newStores();
        DurableStores durable = open(before, dir.toUri().toString());
        durable.restore();
        List<QuerySample> read = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            read.add(query("SELECT * FROM t WHERE id = " + i, START + i * 1_000, 100 + i, 50));
            read.add(query("SELECT count(*) FROM u", START + i * 1_000 + 500, 900 + i * 7, 800));
        }
        before.statements()
                .addRead(read, "gateway-1", new StatementsSnapshot.FeedPosition("log-a", 60));
        durable.writeNow();

        InsightStores after = newStores();
        StoreRestorer.Restored restored = open(after, dir.toUri().toString()).restore();

        assertThat(restored.statements()).isEqualTo(2);
        assertThat(after.statements().rows(StatementOrder.TOTAL, 10))
                .isEqualTo(before.statements().rows(StatementOrder.TOTAL, 10));
        String id = before.statements().rows(StatementOrder.TOTAL, 1).get(0).id();
        assertThat(after.statements().kept(id)).isEqualTo(before.statements().kept(id));
        assertThat(after.statements().newest(100).queries())
                .isEqualTo(before.statements().newest(100).queries());
        assertThat(after.statements().readPosition("gateway-1"))
                .isEqualTo(new StatementsSnapshot.FeedPosition("log-a", 60));
    }

    @Test
    void whatNeverChangesIsWrittenAgainBeforeItsFilesExpire() {
        InsightStores before = newStores();
        before.jobs().onStatus(JOB, "steady", "RUNNING", START);
        before.checkpoints().add(checkpoint(1));
        DurableStores durable = open(before, dir.toUri().toString());
        durable.restore();
        for (int i = 0; i < 6; i++) { // three hours, a write every half hour
            sample(before, 30);
            durable.writeNow();
        }

        InsightStores after = newStores();
        open(after, dir.toUri().toString()).restore();
        assertThat(after.jobs().get(JOB)).as("a job unchanged for three hours").isNotNull();
        assertThat(after.checkpoints().newestFirst(JOB, 10)).hasSize(1);
    }

    @Test
    void aSeriesNoLongerWrittenGoesToDiskOnceNotInEveryTail() throws IOException {
        InsightStores stores = newStores();
        DurableStores durable = open(stores, dir.toUri().toString());
        SeriesKey finished =
                TestingSeriesKeys.key(
                        "flink_taskmanager_job_task_numRecordsIn", "job_id", "f".repeat(32));
        stores.series().record(finished, clock.millis(), 1);
        stores.series().record(finished, clock.millis() + 5_000, 2);
        sample(stores, 2); // the finished job's series is not written any more
        durable.writeNow();

        Path tail;
        try (Stream<Path> list = Files.list(dir)) {
            tail =
                    list.filter(p -> p.getFileName().toString().startsWith("tail"))
                            .findFirst()
                            .orElseThrow();
        }
        assertThat(SegmentFormat.read(Files.readAllBytes(tail)).chunks())
                .extracting(SegmentFormat.KeyedChunk::key)
                .contains(HEAP)
                .doesNotContain(finished);
        InsightStores after = newStores();
        open(after, dir.toUri().toString()).restore();
        assertThat(samples(after, finished)).hasSize(2);
    }
}
