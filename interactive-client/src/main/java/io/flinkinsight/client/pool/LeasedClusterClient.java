package io.flinkinsight.client.pool;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.messages.Acknowledge;
import org.apache.flink.util.AbstractID;
import org.apache.flink.util.FlinkException;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link ClusterClient} handed to Flink code that closes what it gets (the SQL Gateway's STOP
 * JOB, SHOW JOBS, DESCRIBE JOB): every call goes to the pooled client; {@link #close()} only ends
 * the lease. The calls whose signatures differ between Flink lines (job submission, coordination
 * requests) are added by each line's subclass ({@code FlinkApi#leasedClusterClient}).
 */
public abstract class LeasedClusterClient implements ClusterClient<StandaloneClusterId> {

    private final ClusterClientPool.Lease lease;
    private final RestClusterClient<StandaloneClusterId> client;

    protected LeasedClusterClient(ClusterClientPool.Lease lease) {
        this.lease = lease;
        this.client = lease.client();
    }

    /** Ends the lease; the pooled client stays open for others. */
    @Override
    public void close() {
        lease.close();
    }

    /** The pooled client the lease is on. */
    protected RestClusterClient<StandaloneClusterId> client() {
        return client;
    }

    /**
     * Reports a failure of {@code future} to the lease (a connection failure evicts the client).
     */
    protected <T> CompletableFuture<T> observed(CompletableFuture<T> future) {
        return future.whenComplete(
                (value, failure) -> {
                    if (failure != null) {
                        lease.failed(failure);
                    }
                });
    }

    @Override
    public StandaloneClusterId getClusterId() {
        return client.getClusterId();
    }

    @Override
    public Configuration getFlinkConfiguration() {
        return client.getFlinkConfiguration();
    }

    @Override
    public void shutDownCluster() {
        client.shutDownCluster();
    }

    @Override
    public String getWebInterfaceURL() {
        return client.getWebInterfaceURL();
    }

    @Override
    public CompletableFuture<Collection<JobStatusMessage>> listJobs() throws Exception {
        return observed(client.listJobs());
    }

    @Override
    public CompletableFuture<Acknowledge> disposeSavepoint(String savepointPath)
            throws FlinkException {
        return observed(client.disposeSavepoint(savepointPath));
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus(JobID jobId) {
        return observed(client.getJobStatus(jobId));
    }

    @Override
    public CompletableFuture<JobResult> requestJobResult(JobID jobId) {
        return observed(client.requestJobResult(jobId));
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators(JobID jobID, ClassLoader loader) {
        return observed(client.getAccumulators(jobID, loader));
    }

    @Override
    public CompletableFuture<Acknowledge> cancel(JobID jobId) {
        return observed(client.cancel(jobId));
    }

    @Override
    public CompletableFuture<String> cancelWithSavepoint(
            JobID jobId, @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return observed(client.cancelWithSavepoint(jobId, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            JobID jobId,
            boolean advanceToEndOfEventTime,
            @Nullable String savepointDirectory,
            SavepointFormatType formatType) {
        return observed(
                client.stopWithSavepoint(
                        jobId, advanceToEndOfEventTime, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<String> stopWithDetachedSavepoint(
            JobID jobId,
            boolean advanceToEndOfEventTime,
            @Nullable String savepointDirectory,
            SavepointFormatType formatType) {
        return observed(
                client.stopWithDetachedSavepoint(
                        jobId, advanceToEndOfEventTime, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(
            JobID jobId, @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return observed(client.triggerSavepoint(jobId, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<Long> triggerCheckpoint(JobID jobId, CheckpointType checkpointType) {
        return observed(client.triggerCheckpoint(jobId, checkpointType));
    }

    @Override
    public CompletableFuture<String> triggerDetachedSavepoint(
            JobID jobId, @Nullable String savepointDirectory, SavepointFormatType formatType) {
        return observed(client.triggerDetachedSavepoint(jobId, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<Set<AbstractID>> listCompletedClusterDatasetIds() {
        return observed(client.listCompletedClusterDatasetIds());
    }

    @Override
    public CompletableFuture<Void> invalidateClusterDataset(AbstractID clusterDatasetId) {
        return observed(client.invalidateClusterDataset(clusterDatasetId));
    }

    @Override
    public CompletableFuture<Void> reportHeartbeat(JobID jobId, long expiredTimestamp) {
        return observed(client.reportHeartbeat(jobId, expiredTimestamp));
    }
}
