package io.flinkinsight.plugin.store;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.flinkinsight.plugin.store.TestingSeriesKeys.key;
import static org.assertj.core.api.Assertions.assertThat;

class SeriesStoreTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final long STEP = 5_000;

    private final TestingClock clock = new TestingClock(T0);

    private static List<double[]> readAll(SeriesStore store, SeriesKey key) {
        List<double[]> out = new ArrayList<>();
        store.read(key, Long.MIN_VALUE, Long.MAX_VALUE, (t, v) -> out.add(new double[] {t, v}));
        return out;
    }

    /** Writes one sample per step for {@code samples} steps, moving the clock along. */
    private void writeSteps(SeriesStore store, SeriesKey key, int samples) {
        for (int i = 0; i < samples; i++) {
            store.record(key, clock.millis(), i);
            clock.advance(STEP);
        }
    }

    @Test
    void samplesAreReadBackInOrderWithinTheRequestedWindow() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesKey k = key("flink_jobmanager_numRunningJobs", "host", "a");
        writeSteps(store, k, 10);

        List<double[]> window = new ArrayList<>();
        store.read(k, T0 + 2 * STEP, T0 + 4 * STEP, (t, v) -> window.add(new double[] {t, v}));

        assertThat(window)
                .extracting(p -> (long) p[0])
                .containsExactly(T0 + 2 * STEP, T0 + 3 * STEP, T0 + 4 * STEP);
        assertThat(window).extracting(p -> p[1]).containsExactly(2.0, 3.0, 4.0);
        assertThat(store.sampleCount()).isEqualTo(10);
    }

    @Test
    void samplesOlderThanTheRetentionAreNeitherReturnedNorKeptBeyondOneChunk() {
        Duration retention = Duration.ofMinutes(10);
        StoreSettings settings = new StoreSettings(retention, Duration.ofSeconds(5), 100, 10, 10);
        SeriesStore store = new SeriesStore(settings, clock);
        SeriesKey k = key("m");
        int perRetention = (int) (retention.toMillis() / STEP);
        writeSteps(store, k, 3 * perRetention);

        List<double[]> points = readAll(store, k);
        long edge = clock.millis() - retention.toMillis();
        assertThat(points).isNotEmpty();
        assertThat((long) points.get(0)[0]).isGreaterThanOrEqualTo(edge);
        assertThat((long) points.get(0)[0]).isLessThan(edge + STEP);
        // whole chunks (1/6 of the retention each) are dropped at the edge: at most one extra chunk
        // is held
        assertThat(store.sampleCount())
                .isBetween((long) perRetention, (long) (perRetention + perRetention / 6 + 1));
    }

    @Test
    void newSeriesBeyondMaxSeriesWrittenInOneRoundAreDroppedAndCounted() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults().withMaxSeries(3), clock);
        for (int i = 0; i < 5; i++) {
            store.record(key("m", "i", Integer.toString(i)), clock.millis(), i);
        }
        store.record(key("m", "i", "0"), clock.millis() + 1, 7);

        assertThat(store.seriesCount()).isEqualTo(3);
        assertThat(store.droppedForSeriesLimit())
                .as("all three were written this round: none is traded")
                .isEqualTo(2);
        assertThat(store.evictedSeries()).isZero();
        assertThat(readAll(store, key("m", "i", "4"))).isEmpty();
        assertThat(readAll(store, key("m", "i", "0"))).hasSize(2);
    }

    @Test
    void whenFullTheSeriesWrittenLongestAgoMakeRoomSoANewJobGetsHistory() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults().withMaxSeries(3), clock);
        SeriesKey finished = key("m", "job_id", "finished");
        SeriesKey running = key("m", "job_id", "running");
        SeriesKey other = key("m", "job_id", "other");
        store.record(finished, clock.millis(), 1);
        clock.advance(STEP);
        store.record(other, clock.millis(), 1);
        for (int i = 0; i < 3; i++) {
            clock.advance(STEP);
            store.record(running, clock.millis(), i);
            store.record(other, clock.millis(), i);
        }

        SeriesKey newJob = key("m", "job_id", "new");
        store.record(newJob, clock.millis(), 5);

        assertThat(store.seriesCount()).isEqualTo(3);
        assertThat(store.evictedSeries()).isEqualTo(1);
        assertThat(store.droppedForSeriesLimit()).isZero();
        assertThat(readAll(store, finished)).as("written longest ago").isEmpty();
        assertThat(readAll(store, newJob)).hasSize(1);
        assertThat(readAll(store, running)).hasSize(3);
        assertThat(readAll(store, other)).hasSize(4);
    }

    @Test
    void seriesNotWrittenForLongerThanTheRetentionAreRemovedAndFreeTheirSlot() {
        StoreSettings settings = StoreSettings.defaults().withMaxSeries(2);
        SeriesStore store = new SeriesStore(settings, clock);
        SeriesKey finishedJob = key("m", "job_id", "finished");
        SeriesKey runningJob = key("m", "job_id", "running");
        store.record(finishedJob, clock.millis(), 1);
        long bytesWithTwo = 0;
        for (int i = 0; i < 800; i++) { // a bit more than one hour at 5 s
            store.record(runningJob, clock.millis(), i);
            if (i == 1) {
                bytesWithTwo = store.estimatedBytes();
            }
            clock.advance(STEP);
        }

        assertThat(store.seriesCount()).isEqualTo(1);
        assertThat(store.expiredSeries()).isEqualTo(1);
        assertThat(readAll(store, finishedJob)).isEmpty();
        assertThat(store.estimatedBytes()).isLessThan(bytesWithTwo + 2_000);
        store.record(key("m", "job_id", "new"), clock.millis(), 1);
        assertThat(store.droppedForSeriesLimit()).isZero();
    }

    @Test
    void evictExpiredRemovesStaleSeriesEvenWithoutFurtherWrites() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        store.record(key("m"), clock.millis(), 1);
        clock.advance(Duration.ofHours(1).toMillis() + 1);

        store.evictExpired();

        assertThat(store.seriesCount()).isZero();
        assertThat(store.sampleCount()).isZero();
    }

    @Test
    void samplesNotNewerThanTheLastAreDroppedAndCounted() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesKey k = key("m");
        store.record(k, T0 + STEP, 1);
        store.record(k, T0 + STEP, 2);
        store.record(k, T0, 3);

        assertThat(readAll(store, k)).hasSize(1);
        assertThat(store.droppedOutOfOrder()).isEqualTo(2);
    }

    @Test
    void latestReturnsTheNewestValueInsideTheRetention() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesKey k = key("m");
        writeSteps(store, k, 3);
        assertThat(store.latest(k)).hasValue(2.0);
        clock.advance(Duration.ofHours(2).toMillis());
        assertThat(store.latest(k)).isEmpty();
        assertThat(store.latest(key("unknown"))).isEmpty();
    }

    @Test
    void readersSeeOrderedCompleteSamplesWhileTheWriterAppends() throws Exception {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesKey k = key("m");
        int total = 20_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread writer =
                new Thread(
                        () -> {
                            for (int i = 0; i < total; i++) {
                                store.record(
                                        k, T0 + i,
                                        i); // value == offset from T0: readers can check every pair
                            }
                            done.countDown();
                        });
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(
                    new Thread(
                            () -> {
                                try {
                                    while (done.getCount() > 0) {
                                        long[] last = {Long.MIN_VALUE};
                                        store.read(
                                                k,
                                                Long.MIN_VALUE,
                                                Long.MAX_VALUE,
                                                (t, v) -> {
                                                    if (t <= last[0] || v != t - T0) {
                                                        throw new AssertionError(
                                                                "bad sample "
                                                                        + t
                                                                        + "="
                                                                        + v
                                                                        + " after "
                                                                        + last[0]);
                                                    }
                                                    last[0] = t;
                                                });
                                    }
                                } catch (Throwable t) {
                                    failure.compareAndSet(null, t);
                                }
                            }));
        }
        readers.forEach(Thread::start);
        writer.start();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        for (Thread reader : readers) {
            reader.join(10_000);
        }
        assertThat(failure.get()).isNull();
        assertThat(readAll(store, k)).hasSize(total);
    }

    @Test
    void defaultSettingsHoldTenThousandSeriesForAnHourUnderSixtyFourMegabytes() {
        SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
        int seriesCount = 10_000;
        SeriesKey[] keys = new SeriesKey[seriesCount];
        for (int i = 0; i < seriesCount; i++) {
            keys[i] =
                    key(
                            "flink_taskmanager_job_task_operator_numRecordsOut",
                            "job_id",
                            "0123456789abcdef0123456789abcdef",
                            "task_id",
                            "t" + (i / 100),
                            "subtask_index",
                            Integer.toString(i % 100));
        }
        int samples = 720;
        for (int s = 0; s < samples; s++) {
            long ts = clock.millis() + (s % 3); // scheduling jitter of a few ms
            for (int i = 0; i < seriesCount; i++) {
                // counters rise by a varying amount; one in five series is a fractional gauge
                double value =
                        i % 5 == 0
                                ? Math.sin(s / 30.0 + i) * 100
                                : (double) s * (1_000 + i % 17) + (s * i % 13);
                store.record(keys[i], ts, value);
            }
            clock.advance(STEP);
        }

        assertThat(store.seriesCount()).isEqualTo(seriesCount);
        assertThat(store.sampleCount()).isEqualTo((long) seriesCount * samples);
        assertThat(store.estimatedBytes()).isLessThan(64L * 1024 * 1024);
    }

    @Test
    void estimatedBytesCountsTheKeyObjectsButNotTheirSharedStrings() {
        SeriesStore shortStrings = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesStore longStrings = new SeriesStore(StoreSettings.defaults(), clock);
        SeriesStore moreLabels = new SeriesStore(StoreSettings.defaults(), clock);
        String longValue = "x".repeat(10_000);

        shortStrings.record(key("m", "a", "1", "b", "2", "c", "3"), clock.millis(), 1);
        longStrings.record(
                key("m" + longValue, "a", longValue, "b", longValue, "c", longValue),
                clock.millis(),
                1);
        moreLabels.record(
                key("m", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6"),
                clock.millis(),
                1);

        assertThat(longStrings.estimatedBytes()).isEqualTo(shortStrings.estimatedBytes());
        assertThat(moreLabels.estimatedBytes()).isGreaterThan(shortStrings.estimatedBytes());
        assertThat(shortStrings.estimatedBytes()).isLessThan(1_024);
    }
}
