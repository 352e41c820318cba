package io.flinkinsight.client.flink2;

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
import org.apache.flink.core.execution.JobStatusChangedListener;
import org.apache.flink.core.execution.JobStatusChangedListenerUtils;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.highavailability.DefaultClientHighAvailabilityServicesFactory;
import org.apache.flink.runtime.metrics.MetricRegistry;
import org.apache.flink.runtime.metrics.MetricRegistryConfiguration;
import org.apache.flink.runtime.metrics.MetricRegistryImpl;
import org.apache.flink.runtime.metrics.ReporterSetupBuilder;
import org.apache.flink.runtime.metrics.filter.DefaultReporterFilters;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.streaming.api.graph.ExecutionPlan;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperatorFactory;

import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;

import javax.annotation.Nullable;

import java.lang.reflect.InvocationTargetException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The Flink 2.x line (2.0 to 2.3): jobs are submitted as {@link StreamGraph}s, coordination
 * requests address an operator by its uid. Where 2.0 lacks what 2.1+ gives (see {@link
 * Flink2Capabilities}), the probed 2.0 call is made instead.
 */
public final class Flink2Api implements FlinkLine {

    private final Flink2Capabilities capabilities = Flink2Capabilities.loaded();

    @Override
    public String describe() {
        return capabilities.describe();
    }

    @Override
    public boolean runsOnThisFlink() {
        return capabilities.flink2();
    }

    @Override
    public PreparedJob prepare(
            Pipeline pipeline,
            Configuration configuration,
            ClassLoader userCodeClassloader,
            Executor listenerExecutor)
            throws Exception {
        StreamGraph streamGraph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
        List<JobStatusChangedListener> listeners =
                JobStatusChangedListenerUtils.createJobStatusChangedListeners(
                        userCodeClassloader, configuration, listenerExecutor);
        // the collect fetcher addresses the sink by its uid; Flink's table and DataStream collect
        // sinks both set one
        String collectSinkUid =
                collectSink(streamGraph).map(StreamNode::getTransformationUID).orElse(null);
        long shape =
                JobShape.of(
                        streamGraph.getStreamNodes().stream()
                                .map(StreamNode::getOperatorName)
                                .toList());
        return new PreparedJob() {
            @Override
            public long shape() {
                return shape;
            }

            @Override
            public String jobName() {
                return streamGraph.getJobName();
            }

            @Nullable
            @Override
            public String collectSinkKey() {
                return collectSinkUid;
            }

            @Override
            public CompletableFuture<JobID> submit(RestClusterClient<StandaloneClusterId> client)
                    throws Exception {
                streamGraph.serializeUserDefinedInstances();
                return client.submitJob(streamGraph);
            }

            @Nullable
            @Override
            public JobID jobId() {
                return streamGraph.getJobID();
            }

            @Override
            public void submitted() {
                PipelineExecutorUtils.notifyJobStatusListeners(pipeline, streamGraph, listeners);
            }
        };
    }

    /** The job's collect sink, present if the job returns results to this client (a query). */
    static Optional<StreamNode> collectSink(StreamGraph streamGraph) {
        return streamGraph.getStreamNodes().stream()
                .filter(node -> node.getOperatorFactory() instanceof CollectSinkOperatorFactory)
                .findFirst();
    }

    @Override
    public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
            RestClusterClient<StandaloneClusterId> client,
            JobID jobId,
            String operatorKey,
            CoordinationRequest request) {
        return client.sendCoordinationRequest(jobId, operatorKey, request);
    }

    @Override
    public InstrumentedJobClient newJobClient(
            JobClientGateway delegate,
            QueryRecord record,
            Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
        return new CollectingJobClient(delegate, record, longPoll);
    }

    /**
     * Takes the fetcher's requests as they are: on 2.x they address the sink by its uid, like the
     * client.
     */
    private static final class CollectingJobClient extends InstrumentedJobClient
            implements CoordinationRequestGateway {
        CollectingJobClient(
                JobClientGateway delegate,
                QueryRecord record,
                Function<CollectLongPoll.Job, CollectLongPoll> longPoll) {
            super(delegate, record, longPoll);
        }
    }

    @Override
    public ClusterClient<StandaloneClusterId> leasedClusterClient(ClusterClientPool.Lease lease) {
        return new Flink2LeasedClusterClient(lease);
    }

    /** Adds the calls whose signatures are 2.x's. */
    private static final class Flink2LeasedClusterClient extends LeasedClusterClient {
        Flink2LeasedClusterClient(ClusterClientPool.Lease lease) {
            super(lease);
        }

        @Override
        public CompletableFuture<JobID> submitJob(ExecutionPlan executionPlan) {
            return observed(client().submitJob(executionPlan));
        }

        @Override
        public CompletableFuture<CoordinationResponse> sendCoordinationRequest(
                JobID jobId, String operatorUid, CoordinationRequest request) {
            return observed(client().sendCoordinationRequest(jobId, operatorUid, request));
        }
    }

    @Override
    public RestClient newRestClient(
            Configuration configuration, Executor executor, String host, int port)
            throws Exception {
        if (capabilities.restClientOnSharedLoop()) {
            // no group given: the client makes and closes an event loop of its own
            return new RestClient(configuration, executor, host, port, null);
        }
        return (RestClient)
                construct(capabilities.restClientWithHost(), configuration, executor, host, port);
    }

    @Override
    public RestClusterClient<StandaloneClusterId> newStockClusterClient(
            Configuration configuration, EventLoopGroup sharedGroup) throws Exception {
        if (capabilities.clusterClientOnSharedLoop()) {
            return new RestClusterClient<>(
                    configuration,
                    StandaloneClusterId.getInstance(),
                    DefaultClientHighAvailabilityServicesFactory.INSTANCE,
                    sharedGroup);
        }
        return new RestClusterClient<>(
                configuration,
                StandaloneClusterId.getInstance(),
                DefaultClientHighAvailabilityServicesFactory.INSTANCE);
    }

    @Nullable
    @Override
    public MetricRegistry newMetricRegistry(Configuration configuration, PluginManager plugins)
            throws Exception {
        MetricRegistryConfiguration registryConfiguration =
                MetricRegistryConfiguration.fromConfiguration(configuration, Long.MAX_VALUE);
        if (capabilities.reporterSetupBuilder()) {
            return new MetricRegistryImpl(
                    registryConfiguration,
                    ReporterSetupBuilder.METRIC_SETUP_BUILDER.fromConfiguration(
                            configuration,
                            DefaultReporterFilters::metricsFromConfiguration,
                            plugins),
                    ReporterSetupBuilder.TRACE_SETUP_BUILDER.fromConfiguration(
                            configuration,
                            DefaultReporterFilters::tracesFromConfiguration,
                            plugins),
                    ReporterSetupBuilder.EVENT_SETUP_BUILDER.fromConfiguration(
                            configuration,
                            DefaultReporterFilters::eventsFromConfiguration,
                            plugins));
        }
        if (capabilities.reporterSetups()) {
            // 2.0: MetricRegistryImpl(config, ReporterSetup.fromConfiguration(..),
            // TraceReporterSetup.fromConfiguration(..))
            return (MetricRegistry)
                    construct(
                            capabilities.registryWithSetups(),
                            registryConfiguration,
                            (Collection<?>)
                                    capabilities
                                            .metricReporterSetups()
                                            .invoke(null, configuration, plugins),
                            (Collection<?>)
                                    capabilities
                                            .traceReporterSetups()
                                            .invoke(null, configuration, plugins));
        }
        return null;
    }

    private static Object construct(
            java.lang.reflect.Constructor<?> constructor, Object... arguments) throws Exception {
        try {
            return constructor.newInstance(arguments);
        } catch (InvocationTargetException e) {
            // the constructor's own failure, as a direct call would have thrown it
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw e;
        }
    }
}
