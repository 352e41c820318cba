package io.flinkinsight.client.collect;

import io.flinkinsight.client.QueryRecord;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The job client a query gets from the interactive executor. It delegates to a pooled job client and adds: a cached
 * terminal status; the configured collect strategy, applied as a long poll inside {@link #sendCoordinationRequest};
 * counts of collect requests and retries; and the query's timeline ({@link QueryRecord}), ended exactly once.
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
 * end (from the accumulator). So the status is asked right after a poll failed, right after the sink stopped
 * answering (the coordinator answers for a sink it cannot reach with offset -1), and while {@code fastPolls} says so
 * (the query runs alone, early on; see {@code execution.interactive.fast-start}) after every empty poll, with the
 * strategy's first delay between polls; otherwise every {@value #STATUS_CHECK_EVERY_EMPTY_POLLS}th empty poll, with
 * the strategy's back-off.
 *
 * <p>{@link #prefetchFirstResults} runs the first long poll before the caller has the job client, so that the
 * executor can hand the job over only once its results are in (see {@code JobHandOver}).
 */
public final class InstrumentedJobClient implements JobClientGateway {

    private static final Logger LOG = LoggerFactory.getLogger(InstrumentedJobClient.class);

    /** Longest time one long poll keeps re-sending before it hands an empty answer back to the fetcher. */
    public static final Duration LONG_POLL_BUDGET = Duration.ofSeconds(1);

    /** Empty (not failed) polls in a row after which the long poll also asks for the job status. */
    static final int STATUS_CHECK_EVERY_EMPTY_POLLS = 4;

    private final JobClientGateway delegate;
    private final CollectRetryStrategy strategy;
    private final ScheduledExecutorService scheduler;
    private final ClientMetrics metrics;
    private final QueryRecord record;
    private final LongSupplier nanoClock;
    private final long longPollBudgetNanos;
    private final BooleanSupplier fastPolls;

    @Nullable private volatile JobStatus terminalStatus;
    private volatile boolean cancelRequested;

    private final Object resultLock = new Object();
    @Nullable private CompletableFuture<JobExecutionResult> result; // guarded by resultLock

    /** The first poll, started by {@link #prefetchFirstResults}; taken by the fetcher's first request. */
    @Nullable private volatile Prefetch prefetch;

    private final Object pollLock = new Object();
    @Nullable private String lastPolledVersion; // guarded by pollLock
    private long lastPolledOffset = -1; // guarded by pollLock
    private long emptyPollsInRow; // guarded by pollLock

    public InstrumentedJobClient(
            JobClientGateway delegate,
            CollectRetryStrategy strategy,
            ScheduledExecutorService scheduler,
            ClientMetrics metrics,
            QueryRecord record,
            LongSupplier nanoClock,
            Duration longPollBudget,
            BooleanSupplier fastPolls) {
        this.delegate = delegate;
        this.strategy = strategy;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.record = record;
        this.nanoClock = nanoClock;
        this.longPollBudgetNanos = longPollBudget.toNanos();
        this.fastPolls = fastPolls;
    }

    @Override
    public JobID getJobID() {
        return delegate.getJobID();
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        JobStatus known = terminalStatus;
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        return delegate.getJobStatus().thenApply(status -> {
            statusSeen(status);
            return status;
        });
    }

    private void statusSeen(JobStatus status) {
        record.statusSeen(status);
        if (status.isGloballyTerminalState()) {
            terminalStatus = status;
        }
    }

    /** Cancels the job; the query counts as failed (it did not run to its end). */
    @Override
    public CompletableFuture<Void> cancel() {
        cancelRequested = true;
        return delegate.cancel().whenComplete((ignored, failure) -> record.finish(false));
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            boolean advanceToEndOfEventTime, @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return delegate.stopWithSavepoint(advanceToEndOfEventTime, savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(
            @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return delegate.triggerSavepoint(savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        return delegate.getAccumulators();
    }

    /** The job's result; its completion ends the query's timeline (the fetcher asks for it last). */
    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return jobResult().whenComplete((value, failure) -> {
            if (failure == null) {
                statusSeen(JobStatus.FINISHED);
            }
            record.finish(failure == null);
        });
    }

    /** The job's result, requested once (again only after a failure) and shared by the fetcher and the long poll. */
    private CompletableFuture<JobExecutionResult> jobResult() {
        synchronized (resultLock) {
            if (result == null || result.isCompletedExceptionally()) {
                result = delegate.getJobExecutionResult();
            }
            // a copy, so no caller can complete or cancel the shared future
            return result.copy();
        }
    }

    @Override
    public void reportHeartbeat(long expiredTimestamp) {
        delegate.reportHeartbeat(expiredTimestamp);
    }

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request) {
        if (!(request instanceof CollectCoordinationRequest)) {
            return delegate.sendCoordinationRequest(operatorUid, request);
        }
        CollectCoordinationRequest collect = (CollectCoordinationRequest) request;
        CoordinationResponse prefetched = takePrefetched(operatorUid, collect);
        if (prefetched != null) {
            return CompletableFuture.completedFuture(prefetched);
        }
        return new LongPoll(operatorUid, collect.getVersion(), collect.getOffset()).start();
    }

    /**
     * Polls for the query's first results now, before anyone asked, as the collect fetcher's first request would:
     * (no version, offset 0) to the sink {@code operatorUid}. Completes, never exceptionally, once results are in,
     * the job has ended or the long-poll budget is spent; a fetcher's first request then gets those results without
     * asking the cluster again, and one after the job ended finds the end already known.
     */
    public CompletableFuture<Void> prefetchFirstResults(String operatorUid) {
        CompletableFuture<CoordinationResponse> answer =
                new LongPoll(operatorUid, CollectResponses.INIT_VERSION, 0).start();
        prefetch = new Prefetch(operatorUid, answer);
        return answer.handle((response, failure) -> null);
    }

    /** The prefetched answer, if {@code request} is the first request it stands for and it carries results. */
    @Nullable
    private CoordinationResponse takePrefetched(String operatorUid, CollectCoordinationRequest request) {
        Prefetch first = prefetch;
        if (first == null
                || request.getOffset() != 0
                || !CollectResponses.INIT_VERSION.equals(request.getVersion())
                || !first.operatorUid.equals(operatorUid)) {
            return null;
        }
        prefetch = null;
        try {
            CoordinationResponse response = first.answer.getNow(null);
            // An empty or failed answer is not kept: the fetcher would sleep 100 ms on it, a fresh long poll would not.
            return response != null && CollectResponses.resultCount((CollectCoordinationResponse) response) > 0
                    ? response
                    : null;
        } catch (Exception e) {
            return null;
        }
    }

    private record Prefetch(String operatorUid, CompletableFuture<CoordinationResponse> answer) {}

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
        record.runningSeen();
    }

    /** One call of the fetcher: polls until results arrive, the job ends, or the budget is spent. */
    private final class LongPoll {
        private final String operatorUid;
        private final long offset;
        private final long deadlineNanos;
        private final CompletableFuture<CoordinationResponse> answer = new CompletableFuture<>();
        private String version;
        @Nullable private CollectCoordinationResponse lastEmpty;
        @Nullable private Throwable lastFailure;

        LongPoll(String operatorUid, String version, long offset) {
            this.operatorUid = operatorUid;
            this.version = version;
            this.offset = offset;
            this.deadlineNanos = nanoClock.getAsLong() + longPollBudgetNanos;
        }

        CompletableFuture<CoordinationResponse> start() {
            send();
            return answer;
        }

        private void send() {
            countPoll(version, offset);
            CompletableFuture<CoordinationResponse> response;
            try {
                response = delegate.sendCoordinationRequest(
                        operatorUid, new CollectCoordinationRequest(version, offset));
            } catch (Throwable t) {
                response = CompletableFuture.failedFuture(t);
            }
            response.whenComplete(this::polled);
        }

        private void polled(@Nullable CoordinationResponse response, @Nullable Throwable failure) {
            try {
                // a failed poll, or a sink that answered before (its version is known) and now cannot be reached:
                // the job has ended or failed
                boolean endLikely = failure != null;
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
                    endLikely = collected.getLastCheckpointedOffset() < 0
                            && !CollectResponses.INIT_VERSION.equals(version);
                } else {
                    lastFailure = failure;
                }
                afterEmptyPoll(emptyPoll(), endLikely);
            } catch (Throwable t) {
                LOG.debug("Unexpected failure in the collect long poll; handing back to the fetcher.", t);
                if (response != null) {
                    answer.complete(response);
                } else {
                    answer.completeExceptionally(failure != null ? failure : t);
                }
            }
        }

        private void afterEmptyPoll(long emptyPolls, boolean endLikely) {
            if (cancelRequested) {
                handBack();
                return;
            }
            JobStatus known = terminalStatus;
            if (known != null) {
                jobEnded(known);
                return;
            }
            boolean fast = fastPolls.getAsBoolean();
            if (!endLikely && !fast && emptyPolls % STATUS_CHECK_EVERY_EMPTY_POLLS != 0) {
                // A running job answers; once it has ended, polls fail (its JobMaster is gone). So under load the
                // status is only asked when the end is likely, and now and then in case it was missed.
                pollAgainLater(emptyPolls, false);
                return;
            }
            getJobStatus().whenComplete((status, failure) -> {
                if (failure != null) {
                    // the fetcher has its own rule for an unknown status
                    handBack();
                } else if (status.isGloballyTerminalState()) {
                    jobEnded(status);
                } else {
                    pollAgainLater(emptyPolls, fast);
                }
            });
        }

        private void pollAgainLater(long emptyPolls, boolean fast) {
            long delayMillis = strategy.delayMillis(fast ? 1 : emptyPolls);
            if (nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(delayMillis) > deadlineNanos) {
                handBack();
                return;
            }
            try {
                scheduler.schedule(this::send, delayMillis, TimeUnit.MILLISECONDS);
            } catch (Throwable t) {
                handBack();
            }
        }

        private void jobEnded(JobStatus status) {
            if (status != JobStatus.FINISHED) {
                handBack();
                return;
            }
            jobResult().whenComplete((jobResult, failure) -> {
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
                answer.complete(lastEmpty);
            } else {
                answer.completeExceptionally(
                        lastFailure != null ? lastFailure : new IllegalStateException("No collect response"));
            }
        }
    }
}
