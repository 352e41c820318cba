package io.flinkinsight.client.flink;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.metrics.MetricRegistry;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.rest.RestClient;

import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;

import javax.annotation.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The calls into Flink whose signatures differ between the Flink lines the interactive client is
 * built for; every other class compiles unchanged against each line. This is the version seam as
 * the client's mechanisms see it: Flink types only, handed to them by constructor. Each jar holds
 * one implementation, {@code flink2.Flink2Api} in {@code interactive-client} (Flink 2.0 to 2.3,
 * probing at run time what this 2.x gives) and {@code flink1.Flink1Api} in {@code
 * interactive-client-flink1} (the 1.20 line: {@code JobGraph} instead of {@code ExecutionPlan},
 * {@code OperatorID} instead of a uid in coordination requests, no {@code ReporterSetupBuilder}),
 * loaded once at the top as a {@code FlinkLine}.
 */
public interface FlinkApi {

    /** What this Flink gives the client and what not, for the log line at start. */
    String describe();

    /**
     * Whether this jar's line matches the Flink that loaded it (probed once); if not, every query
     * and cluster action runs on Flink's own client, and {@link #describe} says which jar to use.
     */
    boolean runsOnThisFlink();

    /**
     * Translates a pipeline for submission to a session cluster, as Flink's own session executor
     * does.
     */
    PreparedJob prepare(
            Pipeline pipeline,
            Configuration configuration,
            ClassLoader userCodeClassloader,
            Executor listenerExecutor)
            throws Exception;

    /** One translated pipeline. */
    interface PreparedJob {
        /**
         * The key of the job's collect sink as the collect fetcher of this Flink addresses it in
         * coordination requests (see {@link #sendCoordinationRequest}), or null if the job returns
         * no results to this client.
         */
        @Nullable
        String collectSinkKey();

        /** The job's shape ({@code collect.JobShape}), for how long jobs like it ran. */
        long shape();

        /**
         * The job's name: {@code pipeline.name}, or what Flink names a job without one (the SQL of
         * a table query, {@code insert-into_<sinks>}).
         */
        String jobName();

        /** Submits the job; called once. */
        CompletableFuture<JobID> submit(RestClusterClient<StandaloneClusterId> client)
                throws Exception;

        /**
         * The id the job was submitted with, once {@link #submit} was called (null if it has none).
         */
        @Nullable
        JobID jobId();

        /**
         * Tells the job status listeners (where this Flink has them) that the job was submitted.
         */
        void submitted();
    }

    /**
     * Sends a coordination request to the operator of {@code operatorKey} (see {@link
     * PreparedJob#collectSinkKey}).
     */
    CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            RestClusterClient<StandaloneClusterId> client,
            JobID jobId,
            String operatorKey,
            CoordinationRequest request);

    /**
     * Flink's own RestClient with an event loop of its own, checking SSL host names against {@code
     * host}:{@code port}; for requests that Flink's own code must send (large uploads).
     */
    RestClient newRestClient(Configuration configuration, Executor executor, String host, int port)
            throws Exception;

    /**
     * Flink's own cluster client, on {@code sharedGroup} where this Flink can take one; one
     * connection per request.
     */
    RestClusterClient<StandaloneClusterId> newStockClusterClient(
            Configuration configuration, EventLoopGroup sharedGroup) throws Exception;

    /**
     * A metric registry with the metric (and where this Flink has them, trace and event) reporters
     * of {@code configuration}, or null if this Flink offers no way to build one; then {@link
     * #describe} says so.
     */
    @Nullable
    MetricRegistry newMetricRegistry(Configuration configuration, PluginManager plugins)
            throws Exception;
}
