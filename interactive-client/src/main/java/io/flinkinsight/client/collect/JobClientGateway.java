package io.flinkinsight.client.collect;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A job client that can also talk to the job's operator coordinators, as Flink's collect fetcher
 * requires. Operators are addressed by a key: on Flink 2.x the operator's uid (so this is {@code
 * CoordinationRequestGateway}'s own method), on 1.20 the hex string of its {@code OperatorID}.
 */
public interface JobClientGateway extends JobClient {

    /** Sends {@code request} to the coordinator of the operator {@code operatorUid} of this job. */
    CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            String operatorUid, CoordinationRequest request);

    /**
     * A job that has ended: its terminal status and its result (failed unless the job finished).
     */
    record Ended(JobStatus status, CompletableFuture<JobExecutionResult> result) {}

    /**
     * Whether the job has ended, and if so its end; empty while it runs. A pooled job client
     * answers with one request (the job's execution result, which also tells that it is still in
     * progress); this default asks for the status, and for the result only once the status is
     * terminal.
     */
    default CompletableFuture<Optional<Ended>> endIfEnded() {
        return getJobStatus()
                .thenApply(
                        status ->
                                status.isGloballyTerminalState()
                                        ? Optional.of(new Ended(status, getJobExecutionResult()))
                                        : Optional.empty());
    }
}
