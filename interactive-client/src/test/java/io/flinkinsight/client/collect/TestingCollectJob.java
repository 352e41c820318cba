package io.flinkinsight.client.collect;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.accumulators.SerializedListAccumulator;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.messages.FlinkJobNotFoundException;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectSinkFunction;
import org.apache.flink.util.FlinkException;
import org.apache.flink.util.OptionalFailure;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A job with a collect sink that speaks the sink's protocol (version, acknowledged offset,
 * unacknowledged results) without a cluster. Time is counted in polls: rows scheduled for poll n
 * appear just before poll n is answered, and the job finishes just before poll {@code
 * finishAtPoll}, leaving its unacknowledged rows in the accumulator, after which polls fail as they
 * do against a JobManager that no longer runs the job. With {@link #sinkGoneAt}, the sink ends
 * before the job: from that poll on the coordinator answers as for a sink it cannot reach (offset
 * -1), and the job finishes when its status is next asked. With {@link #sinkReachedAt}, polls
 * before that one find no sink yet: the coordinator answers as it does before the sink told it its
 * address (the request's version, offset -1), or, {@link #sinkNotDeployedUntil}, the JobManager
 * fails them as it does while the sink's vertex is not initialized. With {@link #endsAtStatusCall},
 * the job finishes when its status is asked that often.
 */
final class TestingCollectJob implements JobClientGateway {

    static final String ACCUMULATOR = "collect-accumulator";
    static final String SINK_VERSION = "sink-version-1";

    private final JobID jobId = new JobID();
    private final Map<Integer, List<String>> rowsAtPoll = new HashMap<>();
    private final int finishAtPoll;
    private final List<byte[]> unacknowledged = new ArrayList<>();
    private final CompletableFuture<JobExecutionResult> result = new CompletableFuture<>();
    private long acknowledgedOffset;
    private JobStatus status = JobStatus.RUNNING;
    private int sinkGoneAtPoll = Integer.MAX_VALUE;
    private int endAtStatusCall = Integer.MAX_VALUE;
    private int sinkReachedAtPoll = 1;
    private boolean notDeployedBefore;

    private int statusFailures;
    private Throwable statusFailure;
    private int resultFailures;
    private Throwable resultFailure;
    private int endFailures;
    private Throwable endFailure;

    private LongSupplier clock;
    private long endsAtNanos;

    int polls;

    /** Polls that reached the job after it had ended: each an ERROR in a real JobManager's log. */
    int pollsOfAnEndedJob;

    int statusCalls;
    int resultCalls;
    int endCalls;
    int cancelCalls;

    TestingCollectJob(int finishAtPoll) {
        this.finishAtPoll = finishAtPoll;
    }

    TestingCollectJob rowsAt(int poll, String... rows) {
        rowsAtPoll.put(poll, List.of(rows));
        return this;
    }

    /** The next {@code count} status requests fail with {@code failure}. */
    synchronized TestingCollectJob failStatus(int count, Throwable failure) {
        statusFailures = count;
        statusFailure = failure;
        return this;
    }

    /**
     * The next {@code count} questions for the end ({@link #endIfEnded}) fail with {@code failure}.
     */
    synchronized TestingCollectJob failEnd(int count, Throwable failure) {
        endFailures = count;
        endFailure = failure;
        return this;
    }

    /** The next {@code count} result requests fail with {@code failure}. */
    synchronized TestingCollectJob failResult(int count, Throwable failure) {
        resultFailures = count;
        resultFailure = failure;
        return this;
    }

    /**
     * Polls before {@code poll} find no sink yet: answered like a coordinator that has no sink
     * address.
     */
    TestingCollectJob sinkReachedAt(int poll) {
        sinkReachedAtPoll = poll;
        return this;
    }

    /** Polls before {@code poll} fail as they do while the sink's vertex is not initialized. */
    TestingCollectJob sinkNotDeployedUntil(int poll) {
        sinkReachedAtPoll = poll;
        notDeployedBefore = true;
        return this;
    }

    TestingCollectJob sinkGoneAt(int poll) {
        sinkGoneAtPoll = poll;
        return this;
    }

    /**
     * The job finishes just before status request {@code call} is answered, if no poll finished it
     * before.
     */
    TestingCollectJob endsAtStatusCall(int call) {
        endAtStatusCall = call;
        return this;
    }

    /** The job finishes once {@code clock} reads {@code nanos}, whatever it is asked. */
    TestingCollectJob endsAt(LongSupplier clock, long nanos) {
        this.clock = clock;
        this.endsAtNanos = nanos;
        return this;
    }

    private void finishIfDue() {
        if (clock != null && clock.getAsLong() - endsAtNanos >= 0 && status == JobStatus.RUNNING) {
            finish();
        }
    }

    /** This job as the long poll sees it: every status is asked of it, none is known in advance. */
    CollectLongPoll.Job asLongPolledJob() {
        return asLongPolledJob(uid -> {}, () -> {});
    }

    /**
     * {@link #asLongPolledJob()}, telling {@code beforeCollectRequest} the sink of each collect
     * request and running {@code beforeStatus} at each status request, as they go out.
     */
    CollectLongPoll.Job asLongPolledJob(
            Consumer<String> beforeCollectRequest, Runnable beforeStatus) {
        return new CollectLongPoll.Job() {
            @Override
            public CompletableFuture<CoordinationResponse> sendCollectRequest(
                    String operatorUid, CollectCoordinationRequest request) {
                beforeCollectRequest.accept(operatorUid);
                return sendCoordinationRequest(operatorUid, request);
            }

            @Override
            public CompletableFuture<JobStatus> status() {
                beforeStatus.run();
                return getJobStatus();
            }

            @Override
            public JobStatus knownTerminalStatus() {
                return null;
            }

            @Override
            public CompletableFuture<JobExecutionResult> result() {
                return getJobExecutionResult();
            }
        };
    }

    @Override
    public synchronized CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request) {
        polls++;
        for (String row : rowsAtPoll.getOrDefault(polls, List.of())) {
            unacknowledged.add(serialize(row));
        }
        if (polls >= finishAtPoll && status == JobStatus.RUNNING) {
            finish();
        }
        finishIfDue();
        if (status != JobStatus.RUNNING) {
            pollsOfAnEndedJob++;
            return CompletableFuture.failedFuture(new FlinkJobNotFoundException(jobId));
        }
        CollectCoordinationRequest collect = (CollectCoordinationRequest) request;
        if (polls < sinkReachedAtPoll) {
            if (notDeployedBefore) {
                // as Flink 2.x's JobManager says it through the REST API (1.20 says the same
                // without the class)
                return CompletableFuture.failedFuture(
                        new RuntimeException(
                                new FlinkException(
                                        "org.apache.flink.runtime.scheduler.CoordinatorNotExistException: Coordinator of operator"
                                                + " cbc357ccb763df2852fee8c4fc7d55f2 does not exist or the job vertex this operator"
                                                + " belongs to is not initialized.")));
            }
            return CompletableFuture.completedFuture(
                    new CollectCoordinationResponse(collect.getVersion(), -1, List.of()));
        }
        if (polls >= sinkGoneAtPoll) {
            return CompletableFuture.completedFuture(
                    new CollectCoordinationResponse(collect.getVersion(), -1, List.of()));
        }
        if (!SINK_VERSION.equals(collect.getVersion())
                || collect.getOffset() < acknowledgedOffset) {
            return CompletableFuture.completedFuture(
                    new CollectCoordinationResponse(SINK_VERSION, 0, List.of()));
        }
        int acknowledged = (int) (collect.getOffset() - acknowledgedOffset);
        unacknowledged.subList(0, Math.min(acknowledged, unacknowledged.size())).clear();
        acknowledgedOffset = collect.getOffset();
        return CompletableFuture.completedFuture(
                new CollectCoordinationResponse(SINK_VERSION, 0, new ArrayList<>(unacknowledged)));
    }

    private void finish() {
        status = JobStatus.FINISHED;
        try {
            byte[] accumulated =
                    CollectSinkFunction.serializeAccumulatorResult(
                            acknowledgedOffset, SINK_VERSION, 0, unacknowledged);
            SerializedListAccumulator<byte[]> accumulator = new SerializedListAccumulator<>();
            accumulator.add(accumulated, BytePrimitiveArraySerializer.INSTANCE);
            Map<String, OptionalFailure<Object>> accumulators = new HashMap<>();
            accumulators.put(ACCUMULATOR, OptionalFailure.of(accumulator.getLocalValue()));
            // an unrelated accumulator must not confuse the client
            accumulators.put("numRecords", OptionalFailure.of(42L));
            result.complete(new JobExecutionResult(jobId, 1, accumulators));
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
    }

    static byte[] serialize(String row) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            StringSerializer.INSTANCE.serialize(row, new DataOutputViewStreamWrapper(bytes));
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public JobID getJobID() {
        return jobId;
    }

    @Override
    public synchronized CompletableFuture<JobStatus> getJobStatus() {
        statusCalls++;
        if (statusFailures > 0) {
            statusFailures--;
            return CompletableFuture.failedFuture(statusFailure);
        }
        if ((polls >= sinkGoneAtPoll || statusCalls >= endAtStatusCall)
                && status == JobStatus.RUNNING) {
            finish();
        }
        finishIfDue();
        return CompletableFuture.completedFuture(status);
    }

    /** One call, as the pooled job client's one request for the execution result. */
    @Override
    public synchronized CompletableFuture<Optional<Ended>> endIfEnded() {
        endCalls++;
        if (endFailures > 0) {
            endFailures--;
            return CompletableFuture.failedFuture(endFailure);
        }
        if (polls >= sinkGoneAtPoll && status == JobStatus.RUNNING) {
            finish();
        }
        finishIfDue();
        return CompletableFuture.completedFuture(
                status.isGloballyTerminalState()
                        ? Optional.of(new Ended(status, result.copy()))
                        : Optional.empty());
    }

    @Override
    public synchronized CompletableFuture<Void> cancel() {
        cancelCalls++;
        if (status == JobStatus.RUNNING) {
            status = JobStatus.CANCELED;
            result.completeExceptionally(new IllegalStateException("Job was cancelled"));
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            boolean drain, String dir, SavepointFormatType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String dir, SavepointFormatType type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        resultCalls++;
        if (resultFailures > 0) {
            resultFailures--;
            return CompletableFuture.failedFuture(resultFailure);
        }
        return result.copy();
    }
}
