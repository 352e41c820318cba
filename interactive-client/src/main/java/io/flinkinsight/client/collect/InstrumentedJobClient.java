package io.flinkinsight.client.collect;

import io.flinkinsight.client.metrics.QueryTimeline;
import io.flinkinsight.client.transport.ChannelAcquireTimeoutException;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.util.ExceptionUtils;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The job client a query gets from the interactive executor. It delegates to a pooled job client
 * and adds: a cached terminal status; a status the client saw less than {@link
 * #FRESH_STATUS_MILLIS} ago answered without asking again; the job's result, requested once (or
 * taken from the answer that showed the job's end) and shared; the query's timeline ({@link
 * QueryRecord}), ended exactly once, with the REST requests sent for it counted; and the collect
 * fetcher's requests answered by the query's {@link CollectLongPoll}. Each Flink line subclasses it
 * to take the fetcher's requests as that line sends them ({@code FlinkApi#newJobClient}).
 */
public class InstrumentedJobClient implements JobClientGateway {

    /**
     * How long a status the client saw (the job accepted, the JobManager answering a poll for it, a
     * status or result request) answers a status request without a new one. Flink's collect fetcher
     * asks before every poll for results, after sleeping 100 ms on an empty answer; the long poll
     * hands that answer back right after a poll, so the status it saw then is a little over 100 ms
     * old when the fetcher asks. Two of the fetcher's periods keep that from costing a request, and
     * the long poll sees the job's end by itself meanwhile.
     */
    @VisibleForTesting static final long FRESH_STATUS_MILLIS = 200;

    /**
     * How long a status or result request waits for a pooled connection, asking again, before the
     * fetcher gets the error.
     */
    @VisibleForTesting static final Duration BUSY_POOL_PATIENCE = Duration.ofMinutes(2);

    /**
     * Between two such requests, so a pool with a tiny acquire timeout is not asked in a busy loop.
     */
    static final long BUSY_POOL_RETRY_DELAY_MILLIS = 20;

    private final JobClientGateway delegate;
    private final QueryRecord record;
    private final CollectLongPoll longPoll;
    private final LongSupplier nanoClock;

    @Nullable private volatile JobStatus terminalStatus;
    private volatile boolean cancelled;

    /**
     * The last status seen that is not terminal, and when (nanoClock), so that a fresh one can be
     * answered.
     */
    @Nullable private volatile SeenStatus liveStatus;

    private final Object resultLock = new Object();
    @Nullable private CompletableFuture<JobExecutionResult> result; // guarded by resultLock

    /**
     * @param longPoll builds the query's long poll on the job as this client sees it (terminal
     *     status cached, result shared)
     */
    public InstrumentedJobClient(
            JobClientGateway delegate,
            QueryRecord record,
            Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
        this(delegate, record, longPoll, System::nanoTime);
    }

    /**
     * @param nanoClock the time source of a status's freshness, {@code System::nanoTime} outside
     *     tests
     */
    public InstrumentedJobClient(
            JobClientGateway delegate,
            QueryRecord record,
            Function<CollectLongPoll.Job, CollectLongPoll> longPoll,
            LongSupplier nanoClock) {
        this.delegate = delegate;
        this.record = record;
        this.nanoClock = nanoClock;
        this.longPoll = longPoll.apply(new PolledJob());
    }

    private record SeenStatus(JobStatus status, long atNanos) {}

    /** The job was just accepted by the JobManager, so it has not ended (it initializes). */
    public InstrumentedJobClient accepted() {
        liveSeen(JobStatus.INITIALIZING);
        return this;
    }

    private void liveSeen(JobStatus status) {
        liveStatus = new SeenStatus(status, nanoClock.getAsLong());
    }

    @Nullable
    private JobStatus freshLiveStatus() {
        SeenStatus seen = liveStatus;
        return seen != null
                        && nanoClock.getAsLong() - seen.atNanos()
                                < TimeUnit.MILLISECONDS.toNanos(FRESH_STATUS_MILLIS)
                ? seen.status()
                : null;
    }

    @Override
    public JobID getJobID() {
        return delegate.getJobID();
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        JobStatus known = terminalStatus;
        if (known == null) {
            known = freshLiveStatus();
        }
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        return askStatus();
    }

    /**
     * Asks the job's status, again as long as no pooled connection was free: Flink's collect
     * fetcher takes a failed status request for the job's end ("assume that the job has
     * terminated") and stops delivering rows, so a busy pool must make it wait, never fail. Other
     * failures (a JobManager that cannot be reached, after the cluster client's own retries) are
     * the fetcher's to judge, as with Flink's own client.
     */
    private CompletableFuture<JobStatus> askStatus() {
        return whilePoolBusy(delegate::getJobStatus)
                .thenApply(
                        status -> {
                            statusSeen(status);
                            return status;
                        });
    }

    /**
     * Sends an idempotent request, again as long as no pooled connection was free (a request that
     * got none never left, so it is not counted). The waiting ends with the query (cancelled) or
     * after {@link #BUSY_POOL_PATIENCE}, when the busy pool's error goes to the caller.
     */
    private <T> CompletableFuture<T> whilePoolBusy(Supplier<CompletableFuture<T>> request) {
        return whilePoolBusy(request, nanoClock.getAsLong() + BUSY_POOL_PATIENCE.toNanos());
    }

    private <T> CompletableFuture<T> whilePoolBusy(
            Supplier<CompletableFuture<T>> request, long giveUpAtNanos) {
        record.requestSent();
        return request.get()
                .handle(
                        (value, failure) -> {
                            if (failure == null) {
                                return CompletableFuture.completedFuture(value);
                            }
                            boolean poolBusy =
                                    ExceptionUtils.findThrowable(
                                                    failure, ChannelAcquireTimeoutException.class)
                                            .isPresent();
                            if (poolBusy) {
                                record.requestNotSent();
                            }
                            if (poolBusy
                                    && !cancelled
                                    && nanoClock.getAsLong() - giveUpAtNanos < 0) {
                                return CompletableFuture.runAsync(
                                                () -> {},
                                                CompletableFuture.delayedExecutor(
                                                        BUSY_POOL_RETRY_DELAY_MILLIS,
                                                        TimeUnit.MILLISECONDS))
                                        .thenCompose(
                                                ignored -> whilePoolBusy(request, giveUpAtNanos));
                            }
                            return CompletableFuture.<T>failedFuture(failure);
                        })
                .thenCompose(value -> value);
    }

    private void statusSeen(JobStatus status) {
        record.statusSeen(status);
        if (status.isGloballyTerminalState()) {
            terminalStatus = status;
        } else {
            liveSeen(status);
        }
    }

    /**
     * Asks whether the job has ended (one request with a pooled job client); an end found also
     * gives the result.
     */
    @Override
    public CompletableFuture<Optional<Ended>> endIfEnded() {
        JobStatus known = terminalStatus;
        if (known != null) {
            return CompletableFuture.completedFuture(Optional.of(new Ended(known, jobResult())));
        }
        // a question no pooled connection was free for is asked again, as a status request is
        return whilePoolBusy(delegate::endIfEnded)
                .thenApply(
                        ended -> {
                            if (ended.isEmpty()) {
                                SeenStatus seen = liveStatus;
                                liveSeen(seen != null ? seen.status() : JobStatus.INITIALIZING);
                                return ended;
                            }
                            synchronized (resultLock) {
                                if (result == null || result.isCompletedExceptionally()) {
                                    result = ended.get().result();
                                }
                            }
                            statusSeen(ended.get().status());
                            return Optional.of(new Ended(ended.get().status(), jobResult()));
                        });
    }

    /** Cancels the job; the query counts as failed (it did not run to its end). */
    @Override
    public CompletableFuture<Void> cancel() {
        cancelled = true;
        longPoll.cancel();
        record.requestSent();
        return delegate.cancel()
                .whenComplete((ignored, failure) -> record.finish(QueryTimeline.Outcome.CANCELED));
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            boolean advanceToEndOfEventTime,
            @Nullable String savepointDirectory,
            SavepointFormatType formatType) {
        record.requestSent();
        return delegate.stopWithSavepoint(advanceToEndOfEventTime, savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(
            @Nullable String savepointDirectory, SavepointFormatType formatType) {
        record.requestSent();
        return delegate.triggerSavepoint(savepointDirectory, formatType);
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        record.requestSent();
        return delegate.getAccumulators();
    }

    /**
     * The job's result; its completion ends the query's timeline (the fetcher asks for it last).
     */
    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return jobResult()
                .whenComplete(
                        (value, failure) -> {
                            if (failure == null) {
                                statusSeen(JobStatus.FINISHED);
                                record.jobRan(value.getNetRuntime());
                            }
                            record.finish(failure == null);
                        });
    }

    /**
     * The job's result, requested once (again only after a failure, and while the pool is busy, as
     * a status is: a failed result fails the query) and shared by the fetcher and the long poll.
     */
    private CompletableFuture<JobExecutionResult> jobResult() {
        synchronized (resultLock) {
            if (result == null || result.isCompletedExceptionally()) {
                result = whilePoolBusy(delegate::getJobExecutionResult);
            }
            // a copy, so no caller can complete or cancel the shared future
            return result.copy();
        }
    }

    @Override
    public void reportHeartbeat(long expiredTimestamp) {
        record.requestSent();
        delegate.reportHeartbeat(expiredTimestamp);
    }

    /**
     * Collect requests go to the long poll; other coordination requests go to the job as they are.
     */
    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request) {
        if (request instanceof CollectCoordinationRequest collect) {
            return longPoll.answer(operatorUid, collect);
        }
        record.requestSent();
        return delegate.sendCoordinationRequest(operatorUid, request);
    }

    /** See {@link CollectLongPoll#prefetchFirstResults}. */
    public CompletableFuture<Void> prefetchFirstResults(String operatorUid) {
        return longPoll.prefetchFirstResults(operatorUid);
    }

    /** The job as the long poll sees it: through this client's cached status and shared result. */
    private final class PolledJob implements CollectLongPoll.Job {
        @Override
        public CompletableFuture<CoordinationResponse> sendCollectRequest(
                String operatorUid, CollectCoordinationRequest request) {
            record.requestSent();
            return delegate.sendCoordinationRequest(operatorUid, request);
        }

        @Override
        public void sinkAnswered() {
            liveSeen(JobStatus.RUNNING);
            record.runningSeen();
        }

        @Override
        public void jobAnswered() {
            SeenStatus seen = liveStatus;
            liveSeen(seen != null ? seen.status() : JobStatus.INITIALIZING);
        }

        @Override
        public CompletableFuture<JobStatus> status() {
            JobStatus known = terminalStatus;
            if (known != null) {
                return CompletableFuture.completedFuture(known);
            }
            return endIfEnded()
                    .thenApply(ended -> ended.map(Ended::status).orElse(JobStatus.RUNNING));
        }

        @Nullable
        @Override
        public JobStatus knownTerminalStatus() {
            return terminalStatus;
        }

        @Override
        public CompletableFuture<JobExecutionResult> result() {
            return jobResult();
        }
    }
}
