package io.flinkinsight.client.collect;

import io.flinkinsight.client.config.CollectRetryStrategy;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * When the collect long poll of one query sends its next request, asks whether the job has ended,
 * or hands an empty answer back: a pure function of the time and of what the last poll showed, as
 * Flink's {@code RetryStrategy} is of the attempt. {@link CollectLongPoll} keeps the requests and
 * their state, reads its clock and asks this class at each step.
 *
 * <p>Three phases of a job's run, from {@link RecentJobRuns.PollTimes}: before it may have ended
 * (its shortest usual run), while its end is expected (until it has outlived the usual runs of jobs
 * like it), and after, when it is a long one.
 *
 * <ul>
 *   <li>A sink not reached yet (the job starts, or ended before its sink ever answered) is polled
 *       at most every {@value #UNREACHED_SINK_POLL_MILLIS} ms, Flink's own fetcher's pace: such a
 *       poll can find no rows, and after it reaches the sink Flink's fetcher needs another poll 100
 *       ms later for rows, so no row is shown later than that fetcher would show it. Before the job
 *       may have ended, every {@value #STATUS_CHECK_EVERY_EMPTY_POLLS}th such poll also asks for
 *       the end (a safety net, about once a second); from then on each poll goes after a question
 *       ({@link #questionFirst}). While polls are fast (the query runs alone, early on; see {@code
 *       execution.interactive.fast-start}) the end is also asked for at the strategy's pace between
 *       those polls: the answer that shows the end comes within a few ms of it and brings the
 *       result too; while other queries share the cluster, the JobManager's capacity goes first.
 *   <li>A sink that answers is polled at the strategy's pace before the job may have ended and once
 *       it is a long one, its answers showing the end; while the end is expected it is polled as
 *       one not reached, since a short query's rows come with its end.
 * </ul>
 */
final class LongPollPacing {

    /**
     * Polls in a row that did not reach the sink after which the long poll also asks whether the
     * job has ended, before the job may have ended.
     */
    @VisibleForTesting static final int STATUS_CHECK_EVERY_EMPTY_POLLS = 10;

    /**
     * The shortest wait between polls while the job's collect sink has not been reached: Flink's
     * fetcher's pace.
     */
    @VisibleForTesting static final long UNREACHED_SINK_POLL_MILLIS = 100;

    private static final long UNREACHED_SINK_POLL_NANOS =
            TimeUnit.MILLISECONDS.toNanos(UNREACHED_SINK_POLL_MILLIS);

    /**
     * What an empty poll showed: its place in a row of empty polls (1 = the first), and what it
     * tells of the job.
     */
    record EmptyPoll(long inRow, boolean endLikely, boolean sinkAlive) {}

    /** The long poll's step after an empty poll. */
    enum Step {
        /** Poll again after the delay. */
        POLL,
        /** Ask now whether the job has ended; if it runs, poll again after the delay. */
        ASK_END_THEN_POLL,
        /**
         * Ask whether the job has ended after {@link #questionDelayMillis}, at the strategy's pace.
         */
        ASK_END
    }

    /**
     * A step and, for {@link Step#POLL} and {@link Step#ASK_END_THEN_POLL}, the wait before the
     * next poll.
     */
    record Next(Step step, long pollDelayMillis) {}

    private final CollectRetryStrategy strategy;
    private final long budgetNanos;
    private final long firstPollAtNanos;
    private final long mayHaveEndedNanos;
    private final long usualRunsOverNanos;

    /**
     * @param strategy the waits between polls that came back empty
     * @param budget how long one long poll may keep re-sending
     * @param firstPollAtNanos when (on the long poll's clock) the query's first poll may go out
     * @param mayHaveEndedNanos from when the job may have ended, so that fast polls ask for its end
     * @param usualRunsOverNanos from when the job is a long one: a sink seen alive is polled
     *     without a question first
     */
    LongPollPacing(
            CollectRetryStrategy strategy,
            Duration budget,
            long firstPollAtNanos,
            long mayHaveEndedNanos,
            long usualRunsOverNanos) {
        this.strategy = strategy;
        this.budgetNanos = budget.toNanos();
        this.firstPollAtNanos = firstPollAtNanos;
        this.mayHaveEndedNanos = mayHaveEndedNanos;
        this.usualRunsOverNanos = usualRunsOverNanos;
    }

    /** When a long poll that starts at {@code startNanos} hands its answer back at the latest. */
    long deadlineNanos(long startNanos) {
        return startNanos + budgetNanos;
    }

    /**
     * How long a long poll waits before its first request: until the query's first poll may go out,
     * or until {@code notBeforeNanos}, the end of a back-off that outlasted the previous long
     * poll's budget.
     */
    long firstRequestDelayNanos(long nowNanos, long notBeforeNanos) {
        return Math.max(firstPollAtNanos, notBeforeNanos) - nowNanos;
    }

    /**
     * Whether a step {@code delayNanos} from now would come after the long poll's deadline (it
     * hands back then).
     */
    static boolean pastDeadline(long nowNanos, long delayNanos, long deadlineNanos) {
        return delayNanos > deadlineNanos - nowNanos;
    }

    /**
     * The step after an empty poll: a sink that answers shows its job's end itself, unless the end
     * is expected now ({@link #pollsLiveSink}); an unreached sink has the end asked now and then,
     * or, while {@code fast} and once the job may have ended, at the strategy's pace between polls
     * for rows at Flink's pace.
     */
    Next afterEmptyPoll(EmptyPoll poll, long nowNanos, boolean fast) {
        boolean polledForRows = pollsLiveSink(poll.sinkAlive(), nowNanos);
        long minDelayMillis = polledForRows ? 0 : unreachedSinkPollMillis(nowNanos, fast);
        if (!poll.endLikely() && !polledForRows && minDelayMillis == 0) {
            return new Next(Step.ASK_END, 0);
        }
        long pollDelayMillis = Math.max(strategy.delayMillis(poll.inRow()), minDelayMillis);
        // the safety net is needed only before the job may have ended: from then on each poll of
        // an unreached sink goes after a question anyway
        boolean askEnd =
                poll.endLikely()
                        || (!polledForRows
                                && !mayHaveEnded(nowNanos)
                                && poll.inRow() % STATUS_CHECK_EVERY_EMPTY_POLLS == 0);
        return new Next(askEnd ? Step.ASK_END_THEN_POLL : Step.POLL, pollDelayMillis);
    }

    /**
     * The wait before question {@code question} (1 = the first of this long poll) for the end: the
     * strategy's, or less if the next poll for rows is due sooner at Flink's pace after the last
     * one, sent at {@code lastSentNanos}.
     */
    long questionDelayMillis(long question, long nowNanos, long lastSentNanos) {
        long untilPoll = lastSentNanos + UNREACHED_SINK_POLL_NANOS - nowNanos;
        return Math.min(
                strategy.delayMillis(question), Math.max(0, (untilPoll + 999_999) / 1_000_000));
    }

    /**
     * Whether the job may have ended by now: past the shortest usual run of jobs like it ({@link
     * RecentJobRuns.PollTimes#mayHaveEndedNanos}).
     */
    boolean mayHaveEnded(long nowNanos) {
        return nowNanos - mayHaveEndedNanos >= 0;
    }

    /**
     * Whether the next poll goes only after a question for the end answers that the job runs: once
     * the job may have ended, for a sink not seen alive, and for one seen alive while the job is
     * still one of the usual runs (a short query's rows mostly come with its end, so that is when a
     * poll would find the sink closing or the job gone). A poll that reaches a job that has ended
     * costs its JobManager an ERROR with a stack trace in its log.
     */
    boolean questionFirst(long nowNanos, boolean sinkSeenAlive) {
        return mayHaveEnded(nowNanos) && !pollsLiveSink(sinkSeenAlive, nowNanos);
    }

    /**
     * Whether a sink seen alive is polled for rows at the strategy's pace, its answers showing the
     * end: before the job may have ended, and once it has outlived the usual runs (a long job). In
     * between, when the end is expected, it is polled as a sink not reached: a short query's rows
     * mostly come with its end, which a question shows with them, and each poll then risks finding
     * the sink closing or the job gone.
     */
    private boolean pollsLiveSink(boolean sinkAlive, long nowNanos) {
        return sinkAlive && (!mayHaveEnded(nowNanos) || nowNanos - usualRunsOverNanos >= 0);
    }

    /**
     * Whether a due question for the end gives way to a poll for rows: Flink's pace since the last
     * poll, sent at {@code lastSentNanos}, has passed, or polls are no longer fast (another query
     * started, or fast-start is over).
     */
    boolean pollInsteadOfQuestion(long nowNanos, long lastSentNanos, boolean fast) {
        return nowNanos - lastSentNanos >= UNREACHED_SINK_POLL_NANOS
                || unreachedSinkPollMillis(nowNanos, fast) != 0;
    }

    /**
     * The shortest wait before polling a sink not reached yet: Flink's pace, except while {@code
     * fast} once the job may have ended (none then), or until then if that comes sooner.
     */
    @VisibleForTesting
    long unreachedSinkPollMillis(long nowNanos, boolean fast) {
        if (!fast) {
            return UNREACHED_SINK_POLL_MILLIS;
        }
        long untilFast = mayHaveEndedNanos - nowNanos;
        return untilFast <= 0
                ? 0
                : Math.min(
                        UNREACHED_SINK_POLL_MILLIS,
                        TimeUnit.NANOSECONDS.toMillis(untilFast + 999_999));
    }
}
