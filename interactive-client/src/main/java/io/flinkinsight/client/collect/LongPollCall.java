package io.flinkinsight.client.collect;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One call of the collect fetcher, answered by the query's {@link CollectLongPoll}: polls until
 * results arrive, the job ends, or the budget is spent, at the pace {@link LongPollPacing} gives.
 */
final class LongPollCall {

    // the long poll's one logger name, by which its logging is configured
    private static final Logger LOG = LoggerFactory.getLogger(CollectLongPoll.class);

    private final QueryPolling query;
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

    /**
     * Questions for the end this poll asked, for the strategy's pace between them (5 ms, growing to
     * 50 ms).
     */
    private long endQuestions; // only on the thread of the one step in flight

    @Nullable private volatile ScheduledFuture<?> nextSend;

    LongPollCall(QueryPolling query, String operatorUid, String version, long offset) {
        this.query = query;
        this.operatorUid = operatorUid;
        this.version = version;
        this.offset = offset;
        this.deadlineNanos = query.pacing.deadlineNanos(now());
    }

    private long now() {
        return query.nanoClock.getAsLong();
    }

    /** The answer to the fetcher's call; complete once this poll has stopped. */
    CompletableFuture<CoordinationResponse> answer() {
        return answer;
    }

    /**
     * Sends the first request, now or once a wait the pacing gives is over; returns the call's
     * answer.
     */
    CompletableFuture<CoordinationResponse> start() {
        long now = now();
        long waitNanos = query.pacing.firstRequestDelayNanos(now, query.notBeforeNanos());
        LongPollCall previous = query.lastHandedBack();
        if (LongPollPacing.pastDeadline(now, waitNanos, deadlineNanos)
                && previous != null
                && previous.lastEmpty != null
                && previous.offset == offset
                && previous.version.equals(version)
                && previous.operatorUid.equals(operatorUid)) {
            // The back-off outlasts this poll's budget: the same empty answer again at the budget's
            // end, as the
            // cluster would give it, and no request.
            lastEmpty = previous.lastEmpty;
            try {
                nextSend =
                        query.scheduler.schedule(
                                this::handBack, deadlineNanos - now, TimeUnit.NANOSECONDS);
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
                nextSend = query.scheduler.schedule(this::send, waitNanos, TimeUnit.NANOSECONDS);
            } catch (Throwable t) {
                // e.g. shutting down: send now rather than never
                send();
            }
        }
        return answer;
    }

    /**
     * Sends nothing more: a scheduled poll is cancelled, and the answer is the last one (or the
     * failure).
     */
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

    /**
     * Sends the next collect poll, after a question for the end when the pacing says so ({@link
     * LongPollPacing#questionFirst}). A poll that reaches a job its JobManager no longer runs fails
     * there with an ERROR and the whole stack trace in Flink's log (its REST handler does not
     * expect a job not found), and costs the JobManager more than the question; the question's
     * answer that shows the end also brings the result.
     */
    private void send() {
        if (stopped) {
            return;
        }
        if (query.isCancelled()) {
            // a poll now would likely reach a job that is gone
            handBack();
            return;
        }
        if (!query.pacing.questionFirst(now(), query.sinkSeenAlive())) {
            poll();
            return;
        }
        // running, or unknown: the poll tells the rest, as Flink's fetcher would learn it
        askThen(this::poll, this::poll);
    }

    /**
     * Asks whether the job has ended (its status), then: nothing if this poll has stopped
     * meanwhile; hands the last answer back if the query is being cancelled; the end if the job has
     * ended; else {@code ifRunning}, or {@code ifUnknown} if the question failed (also when it
     * fails at once).
     */
    private void askThen(Runnable ifRunning, Runnable ifUnknown) {
        CompletableFuture<JobStatus> question;
        try {
            question = query.job.status();
        } catch (Throwable t) {
            question = CompletableFuture.failedFuture(t);
        }
        question.whenComplete(
                (status, failure) -> {
                    if (stopped) {
                        return;
                    }
                    if (query.isCancelled()) {
                        handBack();
                    } else if (failure != null) {
                        ifUnknown.run();
                    } else if (status.isGloballyTerminalState()) {
                        jobEnded(status);
                    } else {
                        ifRunning.run();
                    }
                });
    }

    private void poll() {
        lastSentNanos = now();
        query.countPoll(version, offset);
        CompletableFuture<CoordinationResponse> response;
        try {
            response =
                    query.job.sendCollectRequest(
                            operatorUid, new CollectCoordinationRequest(version, offset));
        } catch (Throwable t) {
            // a request that fails at once is a failed poll like any other, which the fetcher waits
            // for
            response = CompletableFuture.failedFuture(t);
        }
        response.whenComplete(this::polled);
    }

    private void polled(@Nullable CoordinationResponse response, @Nullable Throwable failure) {
        if (stopped) {
            // nobody waits for this poll any more: what it found must not change the query's state
            return;
        }
        try {
            // a failed poll (unless the sink is merely not deployed yet), or a sink that answered
            // before (its
            // version is known) and now cannot be reached: the job has ended or failed
            boolean endLikely = failure != null && !CollectResponses.sinkNotStarted(failure);
            boolean sinkAlive = false;
            if (failure == null) {
                CollectCoordinationResponse collected = (CollectCoordinationResponse) response;
                if (CollectResponses.resultCount(collected) > 0) {
                    query.sinkSeen(true);
                    query.resultsArrived();
                    answer.complete(collected);
                    return;
                }
                if (!version.equals(collected.getVersion())) {
                    query.sinkSeen(true);
                    if (CollectResponses.INIT_VERSION.equals(version)) {
                        // The sink told its version; asking with it at once is what the fetcher
                        // would do next.
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
                query.sinkSeen(sinkAlive);
                if (sinkAlive) {
                    query.job.sinkAnswered();
                } else if (!sinkKnown) {
                    query.job.jobAnswered();
                }
            } else {
                query.sinkSeen(false);
                lastFailure = failure;
                if (!endLikely) {
                    query.job.jobAnswered();
                }
            }
            afterEmptyPoll(new LongPollPacing.EmptyPoll(query.emptyPoll(), endLikely, sinkAlive));
        } catch (Throwable t) {
            LOG.debug(
                    "Unexpected failure in the collect long poll; handing back to the fetcher.", t);
            if (response != null) {
                answer.complete(response);
            } else {
                answer.completeExceptionally(failure != null ? failure : t);
            }
        }
    }

    private void afterEmptyPoll(LongPollPacing.EmptyPoll emptyPoll) {
        if (query.isCancelled()) {
            handBack();
            return;
        }
        JobStatus known = query.job.knownTerminalStatus();
        if (known != null) {
            jobEnded(known);
            return;
        }
        boolean fast = query.fastPolls.getAsBoolean();
        LongPollPacing.Next next = query.pacing.afterEmptyPoll(emptyPoll, now(), fast);
        switch (next.step()) {
            case ASK_END -> askEndLater();
            case POLL -> stepLater(this::send, next.pollDelayMillis());
            case ASK_END_THEN_POLL ->
                    // an unknown status: the fetcher has its own rule for it
                    askThen(() -> stepLater(this::send, next.pollDelayMillis()), this::handBack);
        }
    }

    /**
     * Asks whether the job has ended ({@link #askEnd}) after the wait the pacing gives the next
     * question.
     */
    private void askEndLater() {
        long delayMillis = query.pacing.questionDelayMillis(++endQuestions, now(), lastSentNanos);
        stepLater(this::askEnd, delayMillis);
    }

    /**
     * While the sink is polled as one not reached (see {@link LongPollPacing}), fast and once the
     * job may have ended: a question for the end instead of a collect poll, whose answer is the end
     * and the result at once; a collect poll still goes out at Flink's pace, for rows, after a
     * question of its own.
     */
    private void askEnd() {
        if (stopped) {
            return;
        }
        if (query.isCancelled()) {
            handBack();
            return;
        }
        boolean fast = query.fastPolls.getAsBoolean();
        if (query.pacing.pollInsteadOfQuestion(now(), lastSentNanos, fast)) {
            send();
            return;
        }
        // an unknown status: the collect poll tells the rest (a second question would fail as well)
        askThen(this::askEndLater, this::poll);
    }

    /**
     * Runs {@code step} of this poll after {@code delayMillis}, or hands the last answer back now
     * if that would be past the budget (the wait then goes on into the fetcher's next request).
     */
    private void stepLater(Runnable step, long delayMillis) {
        long now = now();
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
        if (LongPollPacing.pastDeadline(now, delayNanos, deadlineNanos)) {
            query.holdUntil(now + delayNanos);
            handBack();
            return;
        }
        try {
            nextSend = query.scheduler.schedule(step, delayMillis, TimeUnit.MILLISECONDS);
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
        query.job
                .result()
                .whenComplete(
                        (jobResult, failure) -> {
                            CollectCoordinationResponse last = null;
                            if (failure == null) {
                                try {
                                    last =
                                            CollectResponses.finalResults(
                                                    jobResult.getAllAccumulatorResults(),
                                                    version,
                                                    offset);
                                } catch (Throwable t) {
                                    LOG.debug(
                                            "Cannot read the collect accumulator; the fetcher will.",
                                            t);
                                }
                            }
                            if (last != null) {
                                query.resultsArrived();
                                answer.complete(last);
                            } else {
                                handBack();
                            }
                        });
    }

    /**
     * Gives the fetcher the last empty answer (else the last failure), as if there had been no long
     * poll.
     */
    private void handBack() {
        if (lastEmpty != null) {
            query.handedBack(this);
            answer.complete(lastEmpty);
        } else if (lastFailure != null) {
            answer.completeExceptionally(lastFailure);
        } else {
            // nothing was polled (a question came first and showed the end, or the query is
            // cancelled): what the sink's coordinator answers when it cannot reach the sink, which
            // has the fetcher look at the job's status, as it does after any empty answer. An
            // exception would be logged as a WARN by Flink's fetcher in the SQL Gateway's log.
            answer.complete(new CollectCoordinationResponse(version, -1, List.of()));
        }
    }
}
