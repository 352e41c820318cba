package io.flinkinsight.client.collect;

import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.client.pool.ClusterClientPool;
import io.flinkinsight.client.pool.ClusterIdentity;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ProgramInvocationException;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.JobMessageParameters;
import org.apache.flink.runtime.rest.messages.job.JobExecutionResultHeaders;
import org.apache.flink.runtime.rest.messages.queue.QueueStatus;
import org.apache.flink.util.ExceptionUtils;

import javax.annotation.Nullable;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A job client whose every call runs on the pooled cluster client of the job's cluster (a lease per
 * call), where Flink's {@code ClusterClientJobClientAdapter} builds and closes a new {@code
 * RestClusterClient} per call.
 */
public final class PooledJobClient implements JobClientGateway {

    private final ClusterClientPool pool;
    private final ClusterIdentity cluster;
    private final JobID jobId;
    private final ClassLoader userCodeClassLoader;
    private final FlinkApi flink;

    public PooledJobClient(
            ClusterClientPool pool,
            ClusterIdentity cluster,
            JobID jobId,
            ClassLoader userCodeClassLoader,
            FlinkApi flink) {
        this.pool = pool;
        this.cluster = cluster;
        this.jobId = jobId;
        this.userCodeClassLoader = userCodeClassLoader;
        this.flink = flink;
    }

    @Override
    public JobID getJobID() {
        return jobId;
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        return pool.call(cluster, client -> client.getJobStatus(jobId));
    }

    @Override
    public CompletableFuture<Void> cancel() {
        return pool.call(cluster, client -> client.cancel(jobId).thenApply(ack -> null));
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            boolean advanceToEndOfEventTime,
            @Nullable String savepointDirectory,
            SavepointFormatType formatType) {
        return pool.call(
                cluster,
                client ->
                        client.stopWithSavepoint(
                                jobId, advanceToEndOfEventTime, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(
            @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return pool.call(
                cluster, client -> client.triggerSavepoint(jobId, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        return pool.call(cluster, client -> client.getAccumulators(jobId, userCodeClassLoader));
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return pool.call(cluster, client -> client.requestJobResult(jobId))
                .thenApply(this::toExecutionResult);
    }

    /**
     * One {@code GET /jobs/:jobid/execution-result}: the JobManager answers "in progress" while the
     * job runs, else the job's result, which also gives its terminal status; so the end of a job
     * costs one request, not a status request and then a result request.
     */
    @Override
    public CompletableFuture<Optional<Ended>> endIfEnded() {
        JobMessageParameters parameters = new JobMessageParameters();
        parameters.jobPathParameter.resolve(jobId);
        return pool.call(
                        cluster,
                        client ->
                                client.sendRequest(
                                        JobExecutionResultHeaders.getInstance(),
                                        parameters,
                                        EmptyRequestBody.getInstance()))
                .thenApply(
                        body -> {
                            if (body.getStatus().getId() != QueueStatus.Id.COMPLETED) {
                                return Optional.empty();
                            }
                            JobResult jobResult = body.getJobExecutionResult();
                            CompletableFuture<JobExecutionResult> result =
                                    new CompletableFuture<>();
                            try {
                                result.complete(toExecutionResult(jobResult));
                            } catch (Throwable t) {
                                // the job ended: whatever reading its result failed with is the
                                // result's failure
                                result.completeExceptionally(t);
                            }
                            return Optional.of(new Ended(terminalStatus(jobResult), result));
                        });
    }

    /**
     * The terminal status a job result stands for, from what every supported Flink's JobResult
     * gives (2.3 replaced its application status by an optional job status): success, else the
     * failure it carries.
     */
    private JobStatus terminalStatus(JobResult jobResult) {
        if (jobResult.isSuccess()) {
            return JobStatus.FINISHED;
        }
        Throwable failure =
                jobResult
                        .getSerializedThrowable()
                        .map(serialized -> serialized.deserializeError(userCodeClassLoader))
                        .orElse(null);
        return ExceptionUtils.findThrowable(failure, JobCancellationException.class).isPresent()
                ? JobStatus.CANCELED
                : JobStatus.FAILED;
    }

    private JobExecutionResult toExecutionResult(JobResult jobResult) {
        try {
            return jobResult.toJobExecutionResult(userCodeClassLoader);
        } catch (Throwable t) {
            // same failure as Flink's own job client
            throw new CompletionException(new ProgramInvocationException("Job failed", jobId, t));
        }
    }

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request) {
        return pool.call(
                cluster,
                client -> flink.sendCoordinationRequest(client, jobId, operatorUid, request));
    }

    @Override
    public void reportHeartbeat(long expiredTimestamp) {
        pool.call(cluster, client -> client.reportHeartbeat(jobId, expiredTimestamp));
    }
}
