package io.flinkinsight.client.collect;

import io.flinkinsight.client.metrics.ClientMetrics;

import javax.annotation.Nullable;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * What the long poll calls of one query share: the job and the means to pace its polls, the counts
 * of polls, a back-off that goes on into the fetcher's next call, whether the last poll answered
 * (of a call still waited for) reached the sink alive, and whether the job is being cancelled.
 */
final class QueryPolling {

    final CollectLongPoll.Job job;
    final ScheduledExecutorService scheduler;
    final LongSupplier nanoClock;
    final BooleanSupplier fastPolls;
    final LongPollPacing pacing;
    private final ClientMetrics metrics;
    private final QueryRecord record;

    /**
     * When (nanoClock) the next poll may go out: a back-off longer than what was left of a long
     * poll's budget goes on into the fetcher's next request, so that back-offs beyond the budget
     * hold.
     */
    private volatile long notBeforeNanos;

    /**
     * The last empty answer handed back, which a repeated request gets again while the back-off
     * lasts.
     */
    @Nullable private volatile LongPollCall lastHandedBack;

    private volatile boolean cancelled;

    /** Whether the last poll answered reached the job's collect sink, alive. */
    private volatile boolean sinkSeenAlive;

    private final Object pollLock = new Object();
    @Nullable private String lastPolledVersion; // guarded by pollLock
    private long lastPolledOffset = -1; // guarded by pollLock
    private long emptyPollsInRow; // guarded by pollLock

    QueryPolling(
            CollectLongPoll.Job job,
            ScheduledExecutorService scheduler,
            LongSupplier nanoClock,
            BooleanSupplier fastPolls,
            LongPollPacing pacing,
            ClientMetrics metrics,
            QueryRecord record) {
        this.job = job;
        this.scheduler = scheduler;
        this.nanoClock = nanoClock;
        this.fastPolls = fastPolls;
        this.pacing = pacing;
        this.metrics = metrics;
        this.record = record;
    }

    long notBeforeNanos() {
        return notBeforeNanos;
    }

    /**
     * A back-off outlasts the budget of the call that set it: the next call waits until {@code
     * nanos}.
     */
    void holdUntil(long nanos) {
        notBeforeNanos = nanos;
    }

    @Nullable
    LongPollCall lastHandedBack() {
        return lastHandedBack;
    }

    void handedBack(LongPollCall call) {
        lastHandedBack = call;
    }

    boolean sinkSeenAlive() {
        return sinkSeenAlive;
    }

    void sinkSeen(boolean alive) {
        sinkSeenAlive = alive;
    }

    boolean isCancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
    }

    /** Counts one poll; a poll repeating the previous (version, offset) is a retry. */
    void countPoll(String version, long offset) {
        metrics.collectRequests.inc();
        boolean repeated;
        synchronized (pollLock) {
            repeated = version.equals(lastPolledVersion) && offset == lastPolledOffset;
            lastPolledVersion = version;
            lastPolledOffset = offset;
        }
        if (repeated) {
            metrics.collectRetries.inc();
            record.collectRetried();
        }
    }

    /** Counts one empty poll; returns how many came in a row. */
    long emptyPoll() {
        synchronized (pollLock) {
            return ++emptyPollsInRow;
        }
    }

    void resultsArrived() {
        synchronized (pollLock) {
            emptyPollsInRow = 0;
        }
        notBeforeNanos = 0;
        lastHandedBack = null;
        record.runningSeen();
    }
}
