package io.flinkinsight.client.collect;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A job client that can also talk to the job's operator coordinators, as Flink's collect fetcher requires. */
public interface JobClientGateway extends JobClient, CoordinationRequestGateway {

    /** A job that has ended: its terminal status and its result (failed unless the job finished). */
    record Ended(JobStatus status, CompletableFuture<JobExecutionResult> result) {}

    /**
     * Whether the job has ended, and if so its end; empty while it runs. A pooled job client answers with one
     * request (the job's execution result, which also tells that it is still in progress); this default asks for
     * the status, and for the result only once the status is terminal.
     */
    default CompletableFuture<Optional<Ended>> endIfEnded() {
        return getJobStatus().thenApply(status -> status.isGloballyTerminalState()
                ? Optional.of(new Ended(status, getJobExecutionResult()))
                : Optional.empty());
    }
}
