package io.flinkinsight.client.collect;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * How long the jobs of recent queries ran on the cluster (the JobManager's net runtime, which the client's polling
 * does not stretch); tells a new query how long its first poll for results may wait. A short query's rows mostly come with its job's end, so polls
 * before the shortest usual run only cost the JobManager requests: the first poll waits for the {@link
 * #QUANTILE} of the last {@link #WINDOW} runs, at most {@link #MAX_FIRST_POLL_DELAY} (Flink's own fetcher polls every
 * 100 ms, so no row is seen later than it would have shown it), and not at all before {@link #MIN_RUNS} runs are
 * known. Thread-safe.
 */
public final class RecentJobRuns {

    static final int WINDOW = 32;
    static final int MIN_RUNS = 8;
    static final double QUANTILE = 0.1;
    public static final Duration MAX_FIRST_POLL_DELAY = Duration.ofMillis(100);

    private final long[] runs = new long[WINDOW];
    private long count; // guarded by this

    /** A query's job ran this long (ms) on the cluster. */
    public synchronized void add(long millis) {
        if (millis >= 0) {
            runs[(int) (count % WINDOW)] = TimeUnit.MILLISECONDS.toNanos(millis);
            count++;
        }
    }

    /** How long a new query's first poll for results waits after its job was accepted (ns). */
    public long firstPollDelayNanos() {
        return Math.min(shortestUsualRunNanos(), MAX_FIRST_POLL_DELAY.toNanos());
    }

    /**
     * The {@link #QUANTILE} of the last {@link #WINDOW} runs (ns), 0 before {@link #MIN_RUNS} are known: before then a
     * new query's job is not likely to have ended, so polls meant to see its end soon are not worth sending yet.
     */
    public long shortestUsualRunNanos() {
        long[] sorted;
        synchronized (this) {
            if (count < MIN_RUNS) {
                return 0;
            }
            sorted = Arrays.copyOf(runs, (int) Math.min(count, WINDOW));
        }
        Arrays.sort(sorted);
        return sorted[(int) Math.floor(QUANTILE * (sorted.length - 1))];
    }
}
