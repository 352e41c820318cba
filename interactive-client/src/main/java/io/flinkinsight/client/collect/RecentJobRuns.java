package io.flinkinsight.client.collect;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long the jobs of recent queries ran on the cluster (the JobManager's net runtime, which the
 * client's polling does not stretch), over all queries and per job shape ({@link JobShape}: the
 * same query, whatever its operators' ids); tells a new query when its job may have ended. A short
 * query's rows mostly come with its job's end, so polls before the shortest usual run only cost the
 * JobManager requests.
 *
 * <p>The shortest usual run is the {@link #QUANTILE} of the last {@link #SHAPE_WINDOW} runs of the
 * query's shape once {@link #SHAPE_MIN_RUNS} are known, else of the last {@link #WINDOW} runs of
 * any shape once {@link #MIN_RUNS} are known, else 0; the longest usual run is their {@link
 * #LONG_QUANTILE}. A job's end is expected from its shortest usual run until twice its longest
 * ({@link PollTimes}). The first poll waits for the shortest, at most {@link #MAX_FIRST_POLL_DELAY}
 * (Flink's own fetcher polls every 100 ms, so no row is seen later than it would have shown it). At
 * most {@link #MAX_SHAPES} shapes are kept, the least recently used going first, so this holds at
 * most about 64 KB. Thread-safe.
 */
public final class RecentJobRuns {

    @VisibleForTesting static final int WINDOW = 32;
    @VisibleForTesting static final int MIN_RUNS = 8;
    @VisibleForTesting static final int SHAPE_WINDOW = 16;
    @VisibleForTesting static final int SHAPE_MIN_RUNS = 3;
    @VisibleForTesting static final int MAX_SHAPES = 256;
    static final double QUANTILE = 0.1;

    /**
     * The quantile of the same runs taken as the longest usual run (with 3 runs of a shape known,
     * their median).
     */
    static final double LONG_QUANTILE = 0.9;

    @VisibleForTesting public static final Duration MAX_FIRST_POLL_DELAY = Duration.ofMillis(100);

    /**
     * How long after its acceptance a job is still one of the usual runs at least: twice the
     * longest usual run, never less than this (and this while none is known).
     */
    @VisibleForTesting static final Duration MIN_USUAL_RUNS_OVER = Duration.ofSeconds(1);

    /**
     * How long after the shortest usual run a job is one of the usual runs at most, however long
     * jobs like it once ran: while it is, its end is expected and each poll goes after a question.
     */
    @VisibleForTesting static final Duration MAX_EXPECTED_END = Duration.ofSeconds(10);

    /**
     * When, after a query's job was accepted (ns), its collect long poll sends its first poll (the
     * shortest usual run, at most {@link #MAX_FIRST_POLL_DELAY}), the job may have ended (the
     * shortest usual run: before then polls meant to see its end soon are not worth sending), and
     * the job has outlived the usual runs of jobs like it (a long one: its polls no longer expect
     * its end).
     */
    public record PollTimes(
            long firstPollDelayNanos, long mayHaveEndedNanos, long usualRunsOverNanos) {}

    private final Runs all = new Runs(WINDOW, MIN_RUNS);
    // guarded by this; in access order, so the eldest is the shape least recently run or asked
    // about
    private final Map<Long, Runs> byShape =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Runs> eldest) {
                    return size() > MAX_SHAPES;
                }
            };

    /** A query's job, of {@code shape}, ran this long (ms) on the cluster. */
    public synchronized void add(long shape, long millis) {
        if (millis >= 0) {
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            all.add(nanos);
            byShape.computeIfAbsent(shape, s -> new Runs(SHAPE_WINDOW, SHAPE_MIN_RUNS)).add(nanos);
        }
    }

    /** The poll times of a new query whose job is of {@code shape}. */
    public PollTimes pollTimes(long shape) {
        long[] sorted = knownRuns(shape);
        long shortest = quantile(sorted, QUANTILE);
        long longest = quantile(sorted, LONG_QUANTILE);
        return new PollTimes(
                Math.min(shortest, MAX_FIRST_POLL_DELAY.toNanos()),
                shortest,
                Math.max(
                        Math.min(2 * longest, shortest + MAX_EXPECTED_END.toNanos()),
                        MIN_USUAL_RUNS_OVER.toNanos()));
    }

    /** The runs that tell of {@code shape}, sorted; empty while too few are known. */
    private long[] knownRuns(long shape) {
        long[] sorted;
        synchronized (this) {
            Runs ofShape = byShape.get(shape);
            Runs known = ofShape != null && ofShape.enough() ? ofShape : all;
            if (!known.enough()) {
                return new long[0];
            }
            sorted = known.copy();
        }
        Arrays.sort(sorted);
        return sorted;
    }

    private static long quantile(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.floor(q * (sorted.length - 1))];
    }

    /** The last runs, a ring; guarded by the enclosing instance. */
    private static final class Runs {
        private final long[] runs;
        private final int minRuns;
        private long count;

        Runs(int window, int minRuns) {
            this.runs = new long[window];
            this.minRuns = minRuns;
        }

        void add(long nanos) {
            runs[(int) (count % runs.length)] = nanos;
            count++;
        }

        boolean enough() {
            return count >= minRuns;
        }

        long[] copy() {
            return Arrays.copyOf(runs, (int) Math.min(count, runs.length));
        }
    }
}
