package io.flinkinsight.client.collect;

import io.flinkinsight.client.config.CollectRetryStrategy;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The collect long poll of one query: answers the collect fetcher's requests for results, applying
 * the configured collect strategy between polls, and counts collect requests and retries.
 *
 * <p>Why a long poll: Flink's collect fetcher sleeps a fixed 100 ms after every poll that brings no
 * results, and cannot be changed from outside. So a poll that comes back empty while the job runs
 * is sent again here, after the strategy's delay, until results arrive, the job ends or a time
 * budget is spent; only then does the fetcher see the (empty) answer. Re-sending the same (version,
 * offset) is what the fetcher itself does after an empty answer, so results and exactly-once
 * hand-over stay as they are. When the job finishes during the long poll, the results its collect
 * sink left in the job's accumulator are handed over as the poll's answer, which spares the fetcher
 * one more 100 ms sleep before it looks at the job status; the fetcher then reads the same
 * accumulator and finds nothing new.
 *
 * <p>How soon the end of a job is seen decides a short query's latency, since its results mostly
 * arrive with the end (from the accumulator); how many requests it takes decides what a query costs
 * the JobManager. So the first poll waits for the shortest usual run of recent jobs ({@link
 * RecentJobRuns}). A poll that reaches a job that has ended costs its JobManager an ERROR with a
 * stack trace in its log (and one that reaches a sink closing, a WARN); so once the job may have
 * ended, a poll goes only after the end was asked for (one request that also brings the result, see
 * {@code JobClientGateway#endIfEnded}) and the job still runs. Only a long job's sink, seen alive
 * after the usual runs of jobs like it, is polled alone: it answers -1 when it is gone, and only
 * then is the end asked for. A poll that fails because the job's sink is not deployed yet (its
 * vertex not initialized, or the job itself initializing: what Flink's fetcher also reads as "not
 * started") shows no end.
 *
 * <p>Each call of the fetcher is a {@link LongPollCall}; when its next request goes out is {@link
 * LongPollPacing}'s decision, and what the calls of one query share (counts, a back-off carried
 * over, cancellation) is {@link QueryPolling}'s.
 *
 * <p>{@link #prefetchFirstResults} runs the first long poll before the caller has the job client,
 * so that the executor can hand the job over only once its results are in (see {@code
 * JobHandOver}).
 */
public final class CollectLongPoll {

    /**
     * Longest time one long poll keeps re-sending before it hands an empty answer back to the
     * fetcher.
     */
    public static final Duration BUDGET = Duration.ofSeconds(1);

    /** The query's job, as the long poll needs it. */
    public interface Job {
        /** Sends one collect request to the job's collect sink, as it is. */
        CompletableFuture<CoordinationResponse> sendCollectRequest(
                String operatorUid, CollectCoordinationRequest request);

        /** The job's collect sink answered a poll: the job runs. */
        default void sinkAnswered() {}

        /**
         * The JobManager answered a poll for the job, though not from its sink: the job has not
         * ended.
         */
        default void jobAnswered() {}

        /**
         * The job's status, as far as it tells whether the job has ended (a terminal status then).
         */
        CompletableFuture<JobStatus> status();

        /** The job's terminal status if it has been seen already, else null. */
        @Nullable
        JobStatus knownTerminalStatus();

        /** The job's result, which the long poll reads the collect sink's last results from. */
        CompletableFuture<JobExecutionResult> result();
    }

    private final QueryPolling query;

    /**
     * The first poll, started by {@link #prefetchFirstResults}; taken by the fetcher's first
     * request.
     */
    @Nullable private volatile Prefetch prefetch;

    /**
     * @param strategy the waits between polls that came back empty
     * @param scheduler runs the next poll after a wait
     * @param metrics and {@code record}: where collect requests and retries are counted
     * @param nanoClock the time source of the budget, {@code System::nanoTime} outside tests
     * @param budget how long one long poll may keep re-sending, {@link #BUDGET} outside tests
     * @param fastPolls whether an empty poll that did not reach the sink should now ask whether the
     *     job has ended
     */
    @VisibleForTesting
    public CollectLongPoll(
            Job job,
            CollectRetryStrategy strategy,
            ScheduledExecutorService scheduler,
            ClientMetrics metrics,
            QueryRecord record,
            LongSupplier nanoClock,
            Duration budget,
            BooleanSupplier fastPolls) {
        this(
                job,
                strategy,
                scheduler,
                metrics,
                record,
                nanoClock,
                budget,
                fastPolls,
                new RecentJobRuns.PollTimes(0, 0, 0));
    }

    /**
     * @param times from now: when the query's first poll goes, when the job may have ended (from
     *     then a poll of a sink not seen alive goes after a question for the end), and when it has
     *     outlived the usual runs (until then a sink seen alive is polled that way too); see {@link
     *     RecentJobRuns#pollTimes}
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
            RecentJobRuns.PollTimes times) {
        long now = nanoClock.getAsLong();
        LongPollPacing pacing =
                new LongPollPacing(
                        strategy,
                        budget,
                        now + times.firstPollDelayNanos(),
                        now + times.mayHaveEndedNanos(),
                        now + times.usualRunsOverNanos());
        this.query =
                new QueryPolling(job, scheduler, nanoClock, fastPolls, pacing, metrics, record);
    }

    /**
     * The answer to one collect request of the fetcher: the prefetched first results if this is the
     * request they stand for, else a long poll's answer.
     */
    public CompletableFuture<CoordinationResponse> answer(
            String operatorUid, CollectCoordinationRequest request) {
        CoordinationResponse prefetched = takePrefetch(operatorUid, request);
        if (prefetched != null) {
            return CompletableFuture.completedFuture(prefetched);
        }
        return new LongPollCall(query, operatorUid, request.getVersion(), request.getOffset())
                .start();
    }

    /**
     * Polls for the query's first results now, before anyone asked, as the collect fetcher's first
     * request would: (no version, offset 0) to the sink {@code operatorUid}. Completes, never
     * exceptionally, once results are in, the job has ended or the budget is spent; a fetcher's
     * first request then gets those results without asking the cluster again, and one after the job
     * ended finds the end already known.
     */
    public CompletableFuture<Void> prefetchFirstResults(String operatorUid) {
        LongPollCall first = new LongPollCall(query, operatorUid, CollectResponses.INIT_VERSION, 0);
        prefetch = new Prefetch(operatorUid, first);
        return first.start().handle((response, failure) -> null);
    }

    /**
     * The job is being cancelled: every running poll hands its last answer back to the fetcher at
     * its next step, and a prefetch stops at once.
     */
    public void cancel() {
        query.cancel();
        Prefetch first = prefetch;
        if (first != null) {
            first.poll.stop();
        }
    }

    /**
     * Takes the prefetch, if any: its answer, if {@code request} is the first request it stands for
     * and it carries results; else it is dropped, and its poll stops at once (nobody will read what
     * it finds).
     */
    @Nullable
    private CoordinationResponse takePrefetch(
            String operatorUid, CollectCoordinationRequest request) {
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
            CoordinationResponse response = first.poll.answer().getNow(null);
            // An empty or failed answer is not kept: the fetcher would sleep 100 ms on it, a fresh
            // long poll would not.
            return response != null
                            && CollectResponses.resultCount((CollectCoordinationResponse) response)
                                    > 0
                    ? response
                    : null;
        } catch (Exception e) {
            return null;
        }
    }

    private record Prefetch(String operatorUid, LongPollCall poll) {}
}
