package io.flinkinsight.client.flink1;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.collect.CollectLongPoll;
import io.flinkinsight.client.collect.InstrumentedJobClient;
import io.flinkinsight.client.collect.JobClientGateway;
import io.flinkinsight.client.collect.JobShape;
import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.client.pool.ClusterClientPool;
import io.flinkinsight.client.pool.LeasedClusterClient;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.highavailability.DefaultClientHighAvailabilityServicesFactory;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.MetricRegistry;
import org.apache.flink.runtime.metrics.MetricRegistryConfiguration;
import org.apache.flink.runtime.metrics.MetricRegistryImpl;
import org.apache.flink.runtime.metrics.ReporterSetup;
import org.apache.flink.runtime.metrics.TraceReporterSetup;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperator;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperatorFactory;
import org.apache.flink.util.StringUtils;

import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The Flink 1.20 line: jobs are submitted as {@link JobGraph}s (there is no {@code ExecutionPlan}),
 * coordination requests address an operator by its {@link OperatorID} (the client's key is its hex
 * string), Flink's own RestClient makes an event loop of its own, and the metric registry takes
 * metric and trace reporters (events arrive in 2.1). Job status listeners are not notified: 1.20's
 * client has none to notify.
 */
public final class Flink1Api implements FlinkLine {

    @Override
    public String describe() {
        if (!FLINK1) {
            return "not a Flink 1.x API (ClusterClient takes no JobGraph): queries run on Flink's own client; for"
                    + " Flink 2.x use the interactive-client jar";
        }
        return "Flink 1.20 API, without: RestClient on a shared event loop (large uploads and the fallback client get"
                + " one each); event reporters (the client's figures go to metric and trace reporters)";
    }

    /**
     * Probed once: 1.x submits a JobGraph, 2.x an ExecutionPlan (its ClusterClient has no
     * submitJob(JobGraph)).
     */
    private static final boolean FLINK1 = submitsJobGraphs();

    private static boolean submitsJobGraphs() {
        try {
            ClusterClient.class.getMethod("submitJob", JobGraph.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Override
    public boolean runsOnThisFlink() {
        return FLINK1;
    }

    @Override
    public PreparedJob prepare(
            Pipeline pipeline,
            Configuration configuration,
            ClassLoader userCodeClassloader,
            Executor listenerExecutor)
            throws Exception {
        // translating completes the collect sink's operator id (its coordinator provider is made on
        // the way)
        JobGraph jobGraph =
                PipelineExecutorUtils.getJobGraph(pipeline, configuration, userCodeClassloader);
        String collectSinkKey = collectSinkOperatorId(pipeline);
        List<String> operatorNames = new ArrayList<>();
        jobGraph.getVertices().forEach(vertex -> operatorNames.add(vertex.getName()));
        long shape = JobShape.of(operatorNames);
        return new PreparedJob() {
            @Override
            public long shape() {
                return shape;
            }

            @Override
            public String jobName() {
                return jobGraph.getName();
            }

            @Nullable
            @Override
            public String collectSinkKey() {
                return collectSinkKey;
            }

            @Override
            public CompletableFuture<JobID> submit(RestClusterClient<StandaloneClusterId> client) {
                return client.submitJob(jobGraph);
            }

            @Override
            public JobID jobId() {
                return jobGraph.getJobID();
            }

            @Override
            public void submitted() {}
        };
    }

    /**
     * The hex id of the job's collect sink, as 1.20's collect fetcher addresses it, or null if it
     * has none.
     */
    @Nullable
    static String collectSinkOperatorId(Pipeline pipeline) {
        if (!(pipeline instanceof StreamGraph streamGraph)) {
            return null;
        }
        return streamGraph.getStreamNodes().stream()
                .filter(node -> node.getOperatorFactory() instanceof CollectSinkOperatorFactory)
                .map(
                        node ->
                                ((CollectSinkOperatorFactory<?>) node.getOperatorFactory())
                                        .getOperator())
                .map(
                        operator ->
                                ((CollectSinkOperator<?>) operator)
                                        .getOperatorIdFuture()
                                        .getNow(null))
                .filter(id -> id != null)
                .map(OperatorID::toHexString)
                .findFirst()
                .orElse(null);
    }

    static OperatorID operatorId(String key) {
        return new OperatorID(StringUtils.hexStringToByte(key));
    }

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            RestClusterClient<StandaloneClusterId> client,
            JobID jobId,
            String operatorKey,
            CoordinationRequest request) {
        return client.sendCoordinationRequest(jobId, operatorId(operatorKey), request);
    }

    @Override
    public InstrumentedJobClient newJobClient(
            JobClientGateway delegate,
            QueryRecord record,
            Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
        return new CollectingJobClient(delegate, record, longPoll);
    }

    /**
     * Takes 1.20's collect fetcher's requests, which address the sink by its {@link OperatorID}.
     */
    static final class CollectingJobClient extends InstrumentedJobClient
            implements CoordinationRequestGateway {
        CollectingJobClient(
                JobClientGateway delegate,
                QueryRecord record,
                Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
            super(delegate, record, longPoll);
        }

        @Override
        public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
                OperatorID operatorId, CoordinationRequest request) {
            return sendCoordinationRequest(operatorId.toHexString(), request);
        }
    }

    @Override
    public ClusterClient<StandaloneClusterId> leasedClusterClient(ClusterClientPool.Lease lease) {
        return new Flink1LeasedClusterClient(lease);
    }

    /** Adds the calls whose signatures are 1.20's. */
    private static final class Flink1LeasedClusterClient extends LeasedClusterClient {
        Flink1LeasedClusterClient(ClusterClientPool.Lease lease) {
            super(lease);
        }

        @Override
        public CompletableFuture<JobID> submitJob(JobGraph jobGraph) {
            return observed(client().submitJob(jobGraph));
        }

        @Override
        public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
                JobID jobId, OperatorID operatorId, CoordinationRequest request) {
            return observed(client().sendCoordinationRequest(jobId, operatorId, request));
        }
    }

    @Override
    public RestClient newRestClient(
            Configuration configuration, Executor executor, String host, int port)
            throws Exception {
        return new RestClient(configuration, executor, host, port);
    }

    @Override
    public RestClusterClient<StandaloneClusterId> newStockClusterClient(
            Configuration configuration, EventLoopGroup sharedGroup) throws Exception {
        // 1.20's RestClusterClient takes no event loop: it makes its own
        return new RestClusterClient<>(
                configuration,
                StandaloneClusterId.getInstance(),
                DefaultClientHighAvailabilityServicesFactory.INSTANCE);
    }

    @Override
    public MetricRegistry newMetricRegistry(Configuration configuration, PluginManager plugins) {
        return new MetricRegistryImpl(
                MetricRegistryConfiguration.fromConfiguration(configuration, Long.MAX_VALUE),
                ReporterSetup.fromConfiguration(configuration, plugins),
                TraceReporterSetup.fromConfiguration(configuration, plugins));
    }
}
