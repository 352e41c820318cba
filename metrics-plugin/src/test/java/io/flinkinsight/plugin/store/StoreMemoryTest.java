package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementStore;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stores' byte estimates against the heap they really take: each store is filled with what a
 * busy JobManager gives it, and the heap used after full collections before and after is compared
 * with its estimate. The strings a store shares with Flink (metric-group variables) exist before
 * the first reading, so they count as Flink's, as the estimates say; strings that come from spans
 * and REST answers are fresh, as they are in Flink.
 */
class StoreMemoryTest {

    /**
     * How far an estimate may be from the measured heap: the budget is a bound an operator sizes
     * heaps with.
     */
    private static final double TOLERANCE = 0.15;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    @Test
    void checkpointEstimateMatchesTheHeapOfAFilledStore() {
        // 20 jobs x 200 checkpoints of 30 tasks at parallelism 4, per-subtask spans as Flink 2.2
        // sends them
        List<String> jobIds = new ArrayList<>();
        for (int j = 0; j < 20; j++) {
            jobIds.add(String.format("%032x", 0xc0ffee00L + j));
        }
        measure(
                () -> new CheckpointStore(1_000, 1_000),
                store -> {
                    for (int id = 1; id <= 200; id++) {
                        for (String job : jobIds) {
                            store.add(
                                    CheckpointParser.fromSpan(
                                            FlinkTelemetry.checkpointSpan(
                                                    job,
                                                    id,
                                                    1_700_000_000_000L + id * 10_000,
                                                    30,
                                                    4),
                                            true));
                        }
                    }
                    return store.estimatedBytes();
                });
    }

    @Test
    void jobEstimateMatchesTheHeapOfAFilledStore() {
        TestingClock clock = new TestingClock(1_700_000_000_000L);
        measure(
                () -> new JobStore(3_000, clock),
                store -> {
                    for (int j = 0; j < 3_000; j++) {
                        String job = String.format("%032x", 0xb0b00000L + j);
                        for (String status :
                                List.of("INITIALIZING", "CREATED", "RUNNING", "FINISHED")) {
                            store.onStatus(
                                    job,
                                    "select count(*) from orders where id > " + j,
                                    status,
                                    clock.millis() + j);
                        }
                        Map<String, String> vertices = new LinkedHashMap<>();
                        for (int v = 0; v < 5; v++) {
                            vertices.put(
                                    String.format("%032x", j * 100L + v),
                                    "Source: orders[" + v + "] -> Calc -> Sink");
                        }
                        store.onVertices(job, vertices);
                        store.onSettings(
                                job,
                                new JobSettings(
                                        true,
                                        new String("EmbeddedRocksDBStateBackend"),
                                        "FileSystem" + j,
                                        true,
                                        "job",
                                        false,
                                        600_000L,
                                        null,
                                        10_000L,
                                        new String("exactly_once"),
                                        false,
                                        4));
                    }
                    return store.estimatedBytes();
                });
    }

    @Test
    void historyEstimateMatchesTheHeapOfAFilledStore() {
        TestingClock clock = new TestingClock(1_700_000_000_000L);
        // Label values are Flink's metric-group strings, held by Flink before the store exists
        List<List<String>> labelValues = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            labelValues.add(
                    List.of(
                            String.format("%032x", 0xfeed0000L + i / 100),
                            String.valueOf(i % 100),
                            "taskmanager-" + (i % 7)));
        }
        List<String> labelNames = List.of("job_id", "subtask_index", "tm_id");
        measure(
                () ->
                        new SeriesStore(
                                new StoreSettings(
                                        Duration.ofHours(1), Duration.ofSeconds(5), 10_000, 10, 10),
                                clock),
                store -> {
                    for (int round = 0; round < 360; round++) {
                        for (int i = 0; i < labelValues.size(); i++) {
                            store.record(
                                    new SeriesKey(
                                            "flink_taskmanager_job_task_numRecordsInPerSecond",
                                            labelNames,
                                            labelValues.get(i)),
                                    clock.millis(),
                                    (round * 31 + i) % 1000 / 10.0);
                        }
                        clock.advance(5_000);
                    }
                    return store.estimatedBytes();
                });
        Reference.reachabilityFence(labelValues);
    }

    @Test
    void statementEstimateMatchesTheHeapOfAFilledStore() {
        // 1,000 statements of some 300 characters, 30 queries each of times over three orders of
        // magnitude (so each statement's histograms and kept queries fill), the log full
        int statements = 1_000;
        int queriesEach = 30;
        measure(
                () -> new StatementStore(statements, 1L << 30),
                store -> {
                    for (int q = 0; q < queriesEach; q++) {
                        for (int s = 0; s < statements; s++) {
                            long start = 1_700_000_000_000L + q * 60_000L;
                            long e2e = 40 + (q * 7919L + s * 104729L) % 4_000;
                            store.add(
                                    QuerySample.of(
                                            "SELECT o.id, o.customer, o.amount, c.region FROM"
                                                    + " orders_"
                                                    + s
                                                    + " o JOIN customers c ON o.customer = c.id"
                                                    + " WHERE o.amount > "
                                                    + q
                                                    + " AND c.region IN ('EU', 'US') AND"
                                                    + " o.created_at > TIMESTAMP '2026-11-27"
                                                    + " 00:00:00' ORDER BY o.amount DESC LIMIT"
                                                    + " 100",
                                            "gateway-1.example:9250",
                                            String.format("%032x", (long) q * statements + s),
                                            "SUCCEEDED",
                                            start,
                                            start + e2e,
                                            e2e,
                                            start + 1,
                                            start + 20,
                                            start + 30,
                                            start + e2e - 5,
                                            1L,
                                            20L,
                                            10L,
                                            e2e - 35,
                                            5L,
                                            6L,
                                            0L,
                                            false));
                        }
                    }
                    long bytes = store.estimatedBytes();
                    System.out.printf(
                            "StatementStore: %d statements of %d queries, %d logged: %d bytes,"
                                    + " about %d a statement with its 10 kept queries%n",
                            store.size(),
                            queriesEach,
                            StatementStore.MAX_LOGGED,
                            bytes,
                            bytes / statements);
                    return bytes;
                });
    }

    /** Fills a store made by {@code create} and checks its estimate against the heap it adds. */
    private static <S> void measure(Supplier<S> create, ToLongFunction<S> fillAndEstimate) {
        long before = usedAfterFullCollection();
        S store = create.get();
        long estimate = fillAndEstimate.applyAsLong(store);
        long after = usedAfterFullCollection();
        Reference.reachabilityFence(store);

        long measured = after - before;
        System.out.printf(
                "%s: estimated %.2f MiB, measured %.2f MiB (%.1f%%)%n",
                store.getClass().getSimpleName(),
                estimate / 1048576.0,
                measured / 1048576.0,
                100.0 * (estimate - measured) / measured);
        assertThat(measured)
                .as("the store holds megabytes, far above the noise of one reading")
                .isGreaterThan(4L << 20);
        assertThat((double) estimate)
                .as(
                        "estimate of %s against %d bytes measured",
                        store.getClass().getSimpleName(), measured)
                .isBetween(measured * (1 - TOLERANCE), measured * (1 + TOLERANCE));
    }

    /**
     * Heap used after full collections, once two readings in a row agree within 64 KiB (at most 20
     * tries).
     */
    private static long usedAfterFullCollection() {
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            System.gc();
            long used = MEMORY.getHeapMemoryUsage().getUsed();
            if (Math.abs(used - previous) < 64 * 1024) {
                return used;
            }
            previous = used;
        }
        return previous;
    }
}
