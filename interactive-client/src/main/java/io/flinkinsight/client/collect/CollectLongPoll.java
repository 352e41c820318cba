package io.flinkinsight.client.collect;

import io.flinkinsight.client.QueryRecord;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The collect long poll of one query: answers the collect fetcher's requests for results, applying the configured
 * collect strategy between polls, and counts collect requests and retries.
 *
 * <p>Why a long poll: Flink's collect fetcher sleeps a fixed 100 ms after every poll that brings no results, and
 * cannot be changed from outside. So a poll that comes back empty while the job runs is sent again here, after the
 * strategy's delay, until results arrive, the job ends or a time budget is spent; only then does the fetcher see the
 * (empty) answer. Re-sending the same (version, offset) is what the fetcher itself does after an empty answer, so
 * results and exactly-once hand-over stay as they are. When the job finishes during the long poll, the results its
 * collect sink left in the job's accumulator are handed over as the poll's answer, which spares the fetcher one more
 * 100 ms sleep before it looks at the job status; the fetcher then reads the same accumulator and finds nothing new.
 *
 * <p>How soon the end of a job is seen decides a short query's latency, since its results mostly arrive with the
 * end (from the accumulator); how many requests it takes decides what a query costs the JobManager. So the first
 * poll waits for the shortest usual run of recent jobs ({@link RecentJobRuns}), and the polls themselves show the
 * end: once a job has ended its JobManager no longer answers for it (the poll fails), and a sink that answered
 * before answers -1 when it is gone. Only then is the end asked for (one request that also brings the result, see
 * {@code JobClientGateway#endIfEnded}). A poll that fails because the job's sink is not deployed yet (its vertex not
 * initialized, or the job itself initializing: what Flink's fetcher also reads as "not started") shows no end. When
 * each next request goes out is {@link LongPollPacing}'s decision.
 *
 * <p>{@link #prefetchFirstResults} runs the first long poll before the caller has the job client, so that the
 * executor can hand the job over only once its results are in (see {@code JobHandOver}).
 */
public final class CollectLongPoll {

    private static final Logger LOG = LoggerFactory.getLogger(CollectLongPoll.class);

    /** Longest time one long poll keeps re-sending before it hands an empty answer back to the fetcher. */
    public static final Duration BUDGET = Duration.ofSeconds(1);

    /** The query's job, as the long poll needs it. */
    public interface Job {
        /** Sends one collect request to the job's collect sink, as it is. */
        CompletableFuture<CoordinationResponse> sendCollectRequest(
                String operatorUid, CollectCoordinationRequest request);

        /** The job's collect sink answered a poll: the job runs. */
        default void sinkAnswered() {}

        /** The JobManager answered a poll for the job, though not from its sink: the job has not ended. */
        default void jobAnswered() {}

        /** The job's status, as far as it tells whether the job has ended (a terminal status then). */
        CompletableFuture<JobStatus> status();

        /** The job's terminal status if it has been seen already, else null. */
        @Nullable
        JobStatus knownTerminalStatus();

        /** The job's result, which the long poll reads the collect sink's last results from. */
        CompletableFuture<JobExecutionResult> result();
    }

    private final Job job;
    private final ScheduledExecutorService scheduler;
    private final ClientMetrics metrics;
    private final QueryRecord record;
    private final LongSupplier nanoClock;
    private final BooleanSupplier fastPolls;
    private final LongPollPacing pacing;
    /**
     * When (nanoClock) the next poll may go out: a back-off longer than what was left of a long poll's budget goes on
     * into the fetcher's next request, so that back-offs beyond the budget hold.
     */
    private volatile long notBeforeNanos;
    /** The last empty answer handed back, which a repeated request gets again while the back-off lasts. */
    @Nullable private volatile Poll lastHandedBack;

    private volatile boolean cancelled;

    /** The first poll, started by {@link #prefetchFirstResults}; taken by the fetcher's first request. */
    @Nullable private volatile Prefetch prefetch;

    private final Object pollLock = new Object();
    @Nullable private String lastPolledVersion; // guarded by pollLock
    private long lastPolledOffset = -1; // guarded by pollLock
    private long emptyPollsInRow; // guarded by pollLock

    /**
     * @param strategy the waits between polls that came back empty
     * @param scheduler runs the next poll after a wait
     * @param metrics and {@code record}: where collect requests and retries are counted
     * @param nanoClock the time source of the budget, {@code System::nanoTime} outside tests
     * @param budget how long one long poll may keep re-sending, {@link #BUDGET} outside tests
     * @param fastPolls whether an empty poll that did not reach the sink should now ask whether the job has ended
     */
    public CollectLongPoll(
            Job job,
            CollectRetryStrategy strategy,
            ScheduledExecutorService scheduler,
            ClientMetrics metrics,
            QueryRecord record,
            LongSupplier nanoClock,
            Duration budget,
            BooleanSupplier fastPolls) {
        this(job, strategy, scheduler, metrics, record, nanoClock, budget, fastPolls, 0, 0);
    }

    /**
     * @param firstPollDelayNanos how long after now the query's first poll waits ({@link
     *     RecentJobRuns#firstPollDelayNanos})
     * @param fastPollsFromDelayNanos how long after now the job may have ended ({@link
     *     RecentJobRuns#shortestUsualRunNanos}): before then, {@code fastPolls} polls an unreached sink at Flink's pace
     */
    public CollectLongPoll(
            Job job,
            CollectRetryStrategy strategy,
            ScheduledExecutorService scheduler,
            ClientMetrics metrics,
            QueryRecord record,
            LongSupplier nanoClock,
            Duration budget,
            BooleanSupplier fastPolls,
            long firstPollDelayNanos,
            long fastPollsFromDelayNanos) {
        long now = nanoClock.getAsLong();
        this.pacing = new LongPollPacing(strategy, budget, now + firstPollDelayNanos, now + fastPollsFromDelayNanos);
        this.job = job;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.record = record;
        this.nanoClock = nanoClock;
        this.fastPolls = fastPolls;
    }

    /**
     * The answer to one collect request of the fetcher: the prefetched first results if this is the request they
     * stand for, else a long poll's answer.
     */
    public CompletableFuture<CoordinationResponse> answer(String operatorUid, CollectCoordinationRequest request) {
        CoordinationResponse prefetched = takePrefetch(operatorUid, request);
        if (prefetched != null) {
            return CompletableFuture.completedFuture(prefetched);
        }
        return new Poll(operatorUid, request.getVersion(), request.getOffset()).start();
    }

    /**
     * Polls for the query's first results now, before anyone asked, as the collect fetcher's first request would:
     * (no version, offset 0) to the sink {@code operatorUid}. Completes, never exceptionally, once results are in,
     * the job has ended or the budget is spent; a fetcher's first request then gets those results without asking
     * the cluster again, and one after the job ended finds the end already known.
     */
    public CompletableFuture<Void> prefetchFirstResults(String operatorUid) {
        Poll first = new Poll(operatorUid, CollectResponses.INIT_VERSION, 0);
        prefetch = new Prefetch(operatorUid, first);
        return first.start().handle((response, failure) -> null);
    }

    /**
     * The job is being cancelled: every running poll hands its last answer back to the fetcher at its next step, and
     * a prefetch stops at once.
     */
    public void cancel() {
        cancelled = true;
        Prefetch first = prefetch;
        if (first != null) {
            first.poll.stop();
        }
    }

    /**
     * Takes the prefetch, if any: its answer, if {@code request} is the first request it stands for and it carries
     * results; else it is dropped, and its poll stops at once (nobody will read what it finds).
     */
    @Nullable
    private CoordinationResponse takePrefetch(String operatorUid, CollectCoordinationRequest request) {
        Prefetch first = prefetch;
        if (first == null) {
            return null;
        }
        prefetch = null;
        if (request.getOffset() != 0
                || !CollectResponses.INIT_VERSION.equals(request.getVersion())
                || !first.operatorUid.equals(operatorUid)) {
            first.poll.stop();
            return null;
        }
        first.poll.stop();
        try {
            CoordinationResponse response = first.poll.answer.getNow(null);
            // An empty or failed answer is not kept: the fetcher would sleep 100 ms on it, a fresh long poll would not.
            return response != null && CollectResponses.resultCount((CollectCoordinationResponse) response) > 0
                    ? response
                    : null;
        } catch (Exception e) {
            return null;
        }
    }

    private record Prefetch(String operatorUid, Poll poll) {}

    /** Counts one poll; a poll repeating the previous (version, offset) is a retry. */
    private void countPoll(String version, long offset) {
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

    private long emptyPoll() {
        synchronized (pollLock) {
            return ++emptyPollsInRow;
        }
    }

    private void resultsArrived() {
        synchronized (pollLock) {
            emptyPollsInRow = 0;
        }
        notBeforeNanos = 0;
        lastHandedBack = null;
        record.runningSeen();
    }

    /** One call of the fetcher: polls until results arrive, the job ends, or the budget is spent. */
    private final class Poll {
        private final String operatorUid;
        private final long offset;
        private final long deadlineNanos;
        private final CompletableFuture<CoordinationResponse> answer = new CompletableFuture<>();
        private volatile String version;
        @Nullable private volatile CollectCoordinationResponse lastEmpty;
        @Nullable private Throwable lastFailure;
        /** Set once nobody waits for this poll any more: it sends nothing more. */
        private volatile boolean stopped;
        /** When (nanoClock) this poll last sent a collect request. */
        private volatile long lastSentNanos;
        /** Questions for the end this poll asked, for the strategy's pace between them (5 ms, growing to 50 ms). */
        private long endQuestions; // only on the thread of the one step in flight
        @Nullable private volatile ScheduledFuture<?> nextSend;

        Poll(String operatorUid, String version, long offset) {
            this.operatorUid = operatorUid;
            this.version = version;
            this.offset = offset;
            this.deadlineNanos = pacing.deadlineNanos(nanoClock.getAsLong());
        }

        CompletableFuture<CoordinationResponse> start() {
            long now = nanoClock.getAsLong();
            long waitNanos = pacing.firstRequestDelayNanos(now, notBeforeNanos);
            Poll previous = lastHandedBack;
            if (LongPollPacing.pastDeadline(now, waitNanos, deadlineNanos) && previous != null && previous.lastEmpty != null
                    && previous.offset == offset && previous.version.equals(version)
                    && previous.operatorUid.equals(operatorUid)) {
                // The back-off outlasts this poll's budget: the same empty answer again at the budget's end, as the
                // cluster would give it, and no request.
                lastEmpty = previous.lastEmpty;
                try {
                    nextSend = scheduler.schedule(this::handBack, deadlineNanos - now, TimeUnit.NANOSECONDS);
                } catch (Throwable t) {
                    // e.g. shutting down: answer now rather than never
                    handBack();
                }
                return answer;
            }
            if (waitNanos <= 0) {
                send();
            } else {
                try {
                    nextSend = scheduler.schedule(this::send, waitNanos, TimeUnit.NANOSECONDS);
                } catch (Throwable t) {
                    // e.g. shutting down: send now rather than never
                    send();
                }
            }
            return answer;
        }

        /** Sends nothing more: a scheduled poll is cancelled, and the answer is the last one (or the failure). */
        void stop() {
            stopped = true;
            ScheduledFuture<?> next = nextSend;
            if (next != null) {
                next.cancel(false);
            }
            if (!answer.isDone()) {
                handBack();
            }
        }

        private void send() {
            if (stopped) {
                return;
            }
            lastSentNanos = nanoClock.getAsLong();
            countPoll(version, offset);
            CompletableFuture<CoordinationResponse> response;
            try {
                response = job.sendCollectRequest(operatorUid, new CollectCoordinationRequest(version, offset));
            } catch (Throwable t) {
                // a request that fails at once is a failed poll like any other, which the fetcher waits for
                response = CompletableFuture.failedFuture(t);
            }
            response.whenComplete(this::polled);
        }

        private void polled(@Nullable CoordinationResponse response, @Nullable Throwable failure) {
            try {
                // a failed poll (unless the sink is merely not deployed yet), or a sink that answered before (its
                // version is known) and now cannot be reached: the job has ended or failed
                boolean endLikely = failure != null && !CollectResponses.sinkNotStarted(failure);
                boolean sinkAlive = false;
                if (failure == null) {
                    CollectCoordinationResponse collected = (CollectCoordinationResponse) response;
                    if (CollectResponses.resultCount(collected) > 0) {
                        resultsArrived();
                        answer.complete(collected);
                        return;
                    }
                    if (!version.equals(collected.getVersion())) {
                        if (CollectResponses.INIT_VERSION.equals(version)) {
                            // The sink told its version; asking with it at once is what the fetcher would do next.
                            version = collected.getVersion();
                            send();
                        } else {
                            // The sink restarted: the fetcher must see that at once.
                            answer.complete(collected);
                        }
                        return;
                    }
                    lastEmpty = collected;
                    lastFailure = null;
                    boolean sinkKnown = !CollectResponses.INIT_VERSION.equals(version);
                    endLikely = collected.getLastCheckpointedOffset() < 0 && sinkKnown;
                    sinkAlive = sinkKnown && !endLikely;
                    if (sinkAlive) {
                        job.sinkAnswered();
                    } else if (!sinkKnown) {
                        job.jobAnswered();
                    }
                } else {
                    lastFailure = failure;
                    if (!endLikely) {
                        job.jobAnswered();
                    }
                }
                afterEmptyPoll(new LongPollPacing.EmptyPoll(emptyPoll(), endLikely, sinkAlive));
            } catch (Throwable t) {
                LOG.debug("Unexpected failure in the collect long poll; handing back to the fetcher.", t);
                if (response != null) {
                    answer.complete(response);
                } else {
                    answer.completeExceptionally(failure != null ? failure : t);
                }
            }
        }

        private void afterEmptyPoll(LongPollPacing.EmptyPoll emptyPoll) {
            if (cancelled) {
                handBack();
                return;
            }
            JobStatus known = job.knownTerminalStatus();
            if (known != null) {
                jobEnded(known);
                return;
            }
            LongPollPacing.Next next = pacing.afterEmptyPoll(emptyPoll, nanoClock.getAsLong(), fastPolls.getAsBoolean());
            switch (next.step()) {
                case ASK_END -> askEndLater();
                case POLL -> stepLater(this::send, next.pollDelayMillis());
                case ASK_END_THEN_POLL -> job.status().whenComplete((status, failure) -> {
                    if (failure != null) {
                        // the fetcher has its own rule for an unknown status
                        handBack();
                    } else if (status.isGloballyTerminalState()) {
                        jobEnded(status);
                    } else {
                        stepLater(this::send, next.pollDelayMillis());
                    }
                });
            }
        }

        /** Asks whether the job has ended ({@link #askEnd}) after the wait the pacing gives the next question. */
        private void askEndLater() {
            stepLater(this::askEnd, pacing.questionDelayMillis(++endQuestions, nanoClock.getAsLong(), lastSentNanos));
        }

        /**
         * While the sink has not been reached, fast and once the job may have ended: a question for the end instead
         * of a collect poll, whose answer is the end and the result at once (a collect poll would only fail once the
         * job is gone, and the end would be asked for next); a collect poll still goes out at Flink's pace, for rows.
         */
        private void askEnd() {
            if (stopped) {
                return;
            }
            if (cancelled) {
                handBack();
                return;
            }
            if (pacing.pollInsteadOfQuestion(nanoClock.getAsLong(), lastSentNanos, fastPolls.getAsBoolean())) {
                send();
                return;
            }
            job.status().whenComplete((status, failure) -> {
                if (failure != null) {
                    // the collect poll tells the rest
                    send();
                } else if (status.isGloballyTerminalState()) {
                    jobEnded(status);
                } else {
                    askEndLater();
                }
            });
        }

        /**
         * Runs {@code step} of this poll after {@code delayMillis}, or hands the last answer back now if that would be
         * past the budget (the wait then goes on into the fetcher's next request).
         */
        private void stepLater(Runnable step, long delayMillis) {
            long now = nanoClock.getAsLong();
            long delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
            if (LongPollPacing.pastDeadline(now, delayNanos, deadlineNanos)) {
                notBeforeNanos = now + delayNanos;
                handBack();
                return;
            }
            try {
                nextSend = scheduler.schedule(step, delayMillis, TimeUnit.MILLISECONDS);
            } catch (Throwable t) {
                // e.g. shutting down: answer now rather than never
                handBack();
            }
        }

        private void jobEnded(JobStatus status) {
            if (status != JobStatus.FINISHED) {
                handBack();
                return;
            }
            job.result().whenComplete((jobResult, failure) -> {
                CollectCoordinationResponse last = null;
                if (failure == null) {
                    try {
                        last = CollectResponses.finalResults(jobResult.getAllAccumulatorResults(), version, offset);
                    } catch (Throwable t) {
                        LOG.debug("Cannot read the collect accumulator; the fetcher will.", t);
                    }
                }
                if (last != null) {
                    resultsArrived();
                    answer.complete(last);
                } else {
                    handBack();
                }
            });
        }

        /** Gives the fetcher the last empty answer (else the last failure), as if there had been no long poll. */
        private void handBack() {
            if (lastEmpty != null) {
                lastHandedBack = this;
                answer.complete(lastEmpty);
            } else {
                answer.completeExceptionally(
                        lastFailure != null ? lastFailure : new IllegalStateException("No collect response"));
            }
        }
    }
}
