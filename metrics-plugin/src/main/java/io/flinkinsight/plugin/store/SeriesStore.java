package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.store.series.ChunkData;
import io.flinkinsight.plugin.store.series.SampleVisitor;
import io.flinkinsight.plugin.store.series.Series;

import org.apache.flink.annotation.VisibleForTesting;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Bounded history of sampled metric values: one Gorilla-compressed {@link Series} per {@link
 * SeriesKey}, kept for the retention, at most {@code maxSeries} series (when full, those written
 * longest ago make room for new ones; the stores' budget removes finished jobs' series and those no
 * longer written). Writes come from the plugin's sampler (and the hub), reads from HTTP threads;
 * both are safe concurrently. Nothing here blocks for longer than one series' decode.
 */
public final class SeriesStore {

    private static final Logger LOG = LoggerFactory.getLogger(SeriesStore.class);

    /**
     * The label that names a series' job, as Flink's {@code <job_id>} variable becomes it (and the
     * hub writes it).
     */
    public static final String JOB_ID_LABEL = "job_id";

    /** How far past this process's clock a chunk read back may reach. */
    static final long MAX_AHEAD_MILLIS = 60_000;

    /** The most samples in one compressed chunk; the retention edge moves in whole chunks. */
    static final int MAX_CHUNK_SAMPLES = 240;

    /**
     * The retention is cut into this many chunk spans, so at most 1/6 extra history is held before
     * a drop.
     */
    private static final int CHUNKS_PER_RETENTION = 6;

    private final Clock clock;
    private final long retentionMillis;
    private final long resolutionMillis;
    private final long chunkSpanMillis;
    private final long sweepIntervalMillis;
    private final int maxSeries;
    private final ConcurrentHashMap<SeriesKey, Series> series = new ConcurrentHashMap<>();
    private final AtomicInteger seriesCount = new AtomicInteger();
    private final AtomicLong nextSweepMillis = new AtomicLong(Long.MIN_VALUE);

    /** The full store warns at most once per this interval. */
    private static final long LIMIT_WARN_INTERVAL_MILLIS = 10 * 60_000;

    private final AtomicLong limitWarnedAtMillis = new AtomicLong(Long.MIN_VALUE / 2);
    private final LongAdder evictedSeries = new LongAdder();
    private final LongAdder droppedForLimit = new LongAdder();
    private final LongAdder droppedOutOfOrder = new LongAdder();
    private final LongAdder expiredSeries = new LongAdder();

    public SeriesStore(StoreSettings settings, Clock clock) {
        this.clock = clock;
        this.retentionMillis = settings.retention().toMillis();
        this.resolutionMillis = settings.resolution().toMillis();
        this.chunkSpanMillis = Math.max(1, retentionMillis / CHUNKS_PER_RETENTION);
        this.sweepIntervalMillis =
                Math.max(1_000, Math.min(settings.resolution().toMillis(), 60_000));
        this.maxSeries = settings.maxSeries();
    }

    /**
     * Appends one sample; called from the plugin's own sampling thread (and the hub's), never a
     * Flink thread.
     */
    public void record(SeriesKey key, long timestampMillis, double value) {
        long now = clock.millis();
        maybeSweep(now);
        for (int attempt = 0; attempt < 2; attempt++) {
            Series s = series.get(key);
            if (s == null) {
                s = create(key);
                if (s == null) {
                    return;
                }
            }
            if (s.append(timestampMillis, value, now, MAX_CHUNK_SAMPLES, chunkSpanMillis)) {
                return;
            }
            if (!s.isRemoved()) {
                droppedOutOfOrder.increment();
                return;
            }
            // The sweep removed it between our lookup and the append: retry once with a fresh
            // series.
        }
    }

    private Series create(SeriesKey key) {
        if (seriesCount.incrementAndGet() > maxSeries) {
            seriesCount.decrementAndGet();
            if (evictLeastRecentlyWritten(key) == 0) {
                droppedForLimit.increment();
                return null;
            }
            if (seriesCount.incrementAndGet() > maxSeries) {
                seriesCount.decrementAndGet();
                droppedForLimit.increment();
                return null;
            }
        }
        // the map node, the key record and its two label lists; the strings they point to are
        // shared (see estimatedBytes())
        Series fresh = new Series(32 /* map node */ + key.estimatedBytes());
        Series previous = series.putIfAbsent(key, fresh);
        if (previous != null) {
            seriesCount.decrementAndGet();
            return previous;
        }
        return fresh;
    }

    /**
     * The store is full and {@code key} is new: the series written longest ago (a finished job's,
     * typically) make room, a batch of them at once so the scan is paid rarely, and never one
     * written in the last resolution (so a running job's series are not traded for each other).
     * Returns how many went.
     */
    private synchronized int evictLeastRecentlyWritten(SeriesKey key) {
        if (seriesCount.get() < maxSeries) {
            return 1; // another writer made room meanwhile
        }
        long recent = clock.millis() - resolutionMillis;
        int batch = Math.max(1, maxSeries / 100);
        PriorityQueue<Map.Entry<SeriesKey, Series>> oldest =
                new PriorityQueue<>(
                        batch,
                        (a, b) ->
                                Long.compare(
                                        b.getValue().lastWriteMillis(),
                                        a.getValue().lastWriteMillis()));
        for (Map.Entry<SeriesKey, Series> e : series.entrySet()) {
            if (e.getValue().lastWriteMillis() < recent) {
                oldest.add(e);
                if (oldest.size() > batch) {
                    oldest.poll(); // keeps the batch of least recently written
                }
            }
        }
        int evicted = 0;
        for (Map.Entry<SeriesKey, Series> e : oldest) {
            if (series.remove(e.getKey(), e.getValue())) {
                e.getValue().remove();
                seriesCount.decrementAndGet();
                evictedSeries.increment();
                evicted++;
            }
        }
        long now = clock.millis();
        long last = limitWarnedAtMillis.get();
        if (now - last >= LIMIT_WARN_INTERVAL_MILLIS
                && limitWarnedAtMillis.compareAndSet(last, now)) {
            LOG.warn(
                    "Flink Insight keeps at most {} series: {} written longest ago made room for new ones (such"
                            + " as {}); {} evicted and {} samples dropped so far. Raise the history.max-series option"
                            + " or filter metrics.",
                    maxSeries,
                    evicted,
                    key.name(),
                    evictedSeries.sum(),
                    droppedForLimit.sum());
        }
        return evicted;
    }

    private void maybeSweep(long now) {
        long next = nextSweepMillis.get();
        if (now >= next && nextSweepMillis.compareAndSet(next, now + sweepIntervalMillis)) {
            evictExpired();
        }
    }

    /**
     * Drops chunks older than the retention and removes series not written for longer than the
     * retention. Runs by itself every resolution from {@link #record}; public so tests (and a quiet
     * process) can run it.
     */
    @VisibleForTesting
    public void evictExpired() {
        long cutoff = clock.millis() - retentionMillis;
        for (Map.Entry<SeriesKey, Series> e : series.entrySet()) {
            if (e.getValue().evict(cutoff, cutoff) && series.remove(e.getKey(), e.getValue())) {
                seriesCount.decrementAndGet();
                expiredSeries.increment();
            }
        }
    }

    /** Visits every series with its key, in no particular order: what the durable stores write. */
    public void forEachSeries(BiConsumer<SeriesKey, Series> visitor) {
        series.forEach(visitor);
    }

    /**
     * Puts chunks read back from disk into the series of {@code key} (made if absent, within {@code
     * maxSeries}), newest first, each before what the series holds; a chunk that overlaps what is
     * held, that ended before the retention or that reaches more than {@value #MAX_AHEAD_MILLIS} ms
     * past now (another JobManager's clock ahead of this one's, which would hold every new sample
     * of the series back as out of order) is left out. Returns how many samples were kept.
     */
    public long restore(SeriesKey key, List<ChunkData> newestFirst) {
        long start = retentionStartMillis();
        long latest = clock.millis() + MAX_AHEAD_MILLIS;
        Series s = series.get(key);
        if (s == null) {
            s = create(key);
            if (s == null) {
                return 0;
            }
        }
        long kept = 0;
        for (ChunkData chunk : newestFirst) {
            if (chunk.lastTimestamp() < start) {
                break; // the rest are older still
            }
            if (chunk.lastTimestamp() <= latest && s.restoreOlder(chunk)) {
                kept += chunk.count();
            }
        }
        return kept;
    }

    /** The oldest timestamp still inside the retention window, by the injected clock. */
    public long retentionStartMillis() {
        return clock.millis() - retentionMillis;
    }

    /** The sampling interval the history is written at. */
    public long resolutionMillis() {
        return resolutionMillis;
    }

    public Clock clock() {
        return clock;
    }

    /** Keys of the series whose key matches, in no particular order. */
    public List<SeriesKey> keys(Predicate<SeriesKey> filter) {
        List<SeriesKey> out = new ArrayList<>();
        for (SeriesKey key : series.keySet()) {
            if (filter.test(key)) {
                out.add(key);
            }
        }
        return out;
    }

    /** The distinct series names, sorted. */
    public TreeSet<String> names() {
        TreeSet<String> names = new TreeSet<>();
        for (SeriesKey key : series.keySet()) {
            names.add(key.name());
        }
        return names;
    }

    /**
     * Visits the samples of {@code key} with {@code from <= t <= to} inside the retention, in time
     * order.
     */
    public void read(SeriesKey key, long fromMillis, long toMillis, SampleVisitor visitor) {
        Series s = series.get(key);
        if (s != null) {
            s.read(Math.max(fromMillis, retentionStartMillis()), toMillis, visitor);
        }
    }

    /** The newest sample's value of {@code key} inside the retention, if any. */
    public OptionalDouble latest(SeriesKey key) {
        return latest(key, Long.MIN_VALUE);
    }

    /**
     * The newest sample's value of {@code key} if it is inside the retention and not older than
     * {@code notBefore}.
     */
    public OptionalDouble latest(SeriesKey key, long notBeforeMillis) {
        Series s = series.get(key);
        if (s == null) {
            return OptionalDouble.empty();
        }
        long last = s.lastTimestamp();
        if (last < retentionStartMillis() || last < notBeforeMillis) {
            return OptionalDouble.empty();
        }
        double[] value = {Double.NaN};
        boolean[] found = {false};
        s.read(
                last,
                last,
                (t, v) -> {
                    value[0] = v;
                    found[0] = true;
                });
        return found[0] ? OptionalDouble.of(value[0]) : OptionalDouble.empty();
    }

    public int seriesCount() {
        return seriesCount.get();
    }

    public long sampleCount() {
        long n = 0;
        for (Series s : series.values()) {
            n += s.sampleCount();
        }
        return n;
    }

    /**
     * An estimate of the heap this store owns, i.e. what dropping the history would free: the map
     * and its entries, each series' key object and label lists, its chunks and their compressed
     * payloads. The name and label strings are not counted: they are Flink's metric-group strings,
     * shared with the metric index and held by Flink whether or not history is kept. Object sizes
     * assume a 64-bit JVM with compressed references (heaps below 32 GiB); the benchmark {@code
     * scripts/bench-history-memory.sh} prints this beside the measured heap.
     */
    public long estimatedBytes() {
        long bytes = 64 + 16L + 8L * series.size() * 2; // the map and its table, about half full
        for (Series s : series.values()) {
            bytes += s.estimatedBytes();
        }
        return bytes;
    }

    /**
     * Series removed, written longest ago, to make room for new ones under {@code maxSeries} or the
     * stores' budget.
     */
    public long evictedSeries() {
        return evictedSeries.sum();
    }

    /**
     * The keys of the series of each of {@code jobIds} (by their {@code job_id} label), in one
     * pass.
     */
    public Map<String, List<SeriesKey>> keysByJob(Set<String> jobIds) {
        Map<String, List<SeriesKey>> out = new HashMap<>();
        for (SeriesKey key : series.keySet()) {
            String job = key.label(JOB_ID_LABEL);
            if (job != null && jobIds.contains(job)) {
                out.computeIfAbsent(job, j -> new ArrayList<>()).add(key);
            }
        }
        return out;
    }

    /**
     * Removes these series (a finished job's, for the stores' budget); returns the estimated bytes
     * freed.
     */
    public long remove(Collection<SeriesKey> keys) {
        long freed = 0;
        for (SeriesKey key : keys) {
            Series s = series.get(key);
            if (s != null && series.remove(key, s)) {
                freed += s.estimatedBytes();
                s.remove();
                seriesCount.decrementAndGet();
                evictedSeries.increment();
            }
        }
        return freed;
    }

    /**
     * Removes series not written in the last resolution (no longer reported), the least recently
     * written first, until {@code bytes} are freed (for the stores' budget); a series written in
     * the last resolution stays, so every running job keeps its history. Returns the estimated
     * bytes freed.
     */
    public long evictNotWrittenRecently(long bytes) {
        long recent = clock.millis() - resolutionMillis;
        List<Map.Entry<SeriesKey, Series>> stale = new ArrayList<>();
        for (Map.Entry<SeriesKey, Series> e : series.entrySet()) {
            if (e.getValue().lastWriteMillis() < recent) {
                stale.add(e);
            }
        }
        stale.sort(Comparator.comparingLong(e -> e.getValue().lastWriteMillis()));
        long freed = 0;
        for (int i = 0; i < stale.size() && freed < bytes; i++) {
            freed += remove(List.of(stale.get(i).getKey()));
        }
        return freed;
    }

    /**
     * Samples dropped because the store was full of series all written within the last resolution.
     */
    public long droppedForSeriesLimit() {
        return droppedForLimit.sum();
    }

    /** Samples dropped because they were not newer than their series' last sample. */
    @VisibleForTesting
    public long droppedOutOfOrder() {
        return droppedOutOfOrder.sum();
    }

    /** Series removed because they were not written for longer than the retention. */
    @VisibleForTesting
    public long expiredSeries() {
        return expiredSeries.sum();
    }
}
