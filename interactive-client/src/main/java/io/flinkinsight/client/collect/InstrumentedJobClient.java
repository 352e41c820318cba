package io.flinkinsight.client.collect;

import io.flinkinsight.client.QueryRecord;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;

import javax.annotation.Nullable;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The job client a query gets from the interactive executor. It delegates to a pooled job client and adds: a cached
 * terminal status; the job's result, requested once and shared; the query's timeline ({@link QueryRecord}), ended
 * exactly once; and the collect fetcher's requests answered by the query's {@link CollectLongPoll}.
 */
public final class InstrumentedJobClient implements JobClientGateway {

    private final JobClientGateway delegate;
    private final QueryRecord record;
    private final CollectLongPoll longPoll;

    @Nullable private volatile JobStatus terminalStatus;

    private final Object resultLock = new Object();
    @Nullable private CompletableFuture<JobExecutionResult> result; // guarded by resultLock

    /**
     * @param longPoll builds the query's long poll on the job as this client sees it (terminal status cached,
     *     result shared)
     */
    public InstrumentedJobClient(
            JobClientGateway delegate, QueryRecord record, Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
        this.delegate = delegate;
        this.record = record;
        this.longPoll = longPoll.apply(new PolledJob());
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
        longPoll.cancel();
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

    /** Collect requests go to the long poll; other coordination requests go to the job as they are. */
    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request) {
        if (request instanceof CollectCoordinationRequest collect) {
            return longPoll.answer(operatorUid, collect);
        }
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
            return delegate.sendCoordinationRequest(operatorUid, request);
        }

        @Override
        public CompletableFuture<JobStatus> status() {
            return getJobStatus();
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
