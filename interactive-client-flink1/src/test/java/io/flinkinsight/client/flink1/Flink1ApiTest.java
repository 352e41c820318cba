package io.flinkinsight.client.flink1;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.collect.CollectLongPoll;
import io.flinkinsight.client.collect.InstrumentedJobClient;
import io.flinkinsight.client.collect.JobClientGateway;
import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.client.config.CollectRetryStrategy;
import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 1.20 line against Flink 1.20's own classes: translation, the collect sink's key, coordination
 * requests.
 */
class Flink1ApiTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void thisJarsFlinkApiIsThe120Line() {
        assertThat(FlinkLine.get()).isInstanceOf(Flink1Api.class);
        assertThat(FlinkLine.get().runsOnThisFlink()).isTrue();
        assertThat(FlinkLine.get().describe()).startsWith("Flink 1.20 API");
    }

    @Test
    void aQuerysCollectSinkIsKeyedByTheOperatorIdOfItsJobGraph() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(1, 3).collectAsync();
        StreamGraph streamGraph = env.getStreamGraph();
        ClassLoader loader = getClass().getClassLoader();

        FlinkApi.PreparedJob prepared =
                FlinkLine.get().prepare(streamGraph, new Configuration(), loader, Runnable::run);

        String key = prepared.collectSinkKey();
        assertThat(key).hasSize(32);
        // the same translation again: operator ids are hashes of the graph, so the key names an
        // operator of the job
        JobGraph jobGraph =
                PipelineExecutorUtils.getJobGraph(streamGraph, new Configuration(), loader);
        List<String> operatorIds = new ArrayList<>();
        for (JobVertex vertex : jobGraph.getVertices()) {
            vertex.getOperatorIDs()
                    .forEach(pair -> operatorIds.add(pair.getGeneratedOperatorID().toHexString()));
        }
        assertThat(operatorIds).contains(key);
        assertThat(Flink1Api.operatorId(key).toHexString()).isEqualTo(key);
    }

    @Test
    void aJobWithoutCollectSinkHasNoKey() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(1, 3).print();

        FlinkApi.PreparedJob prepared =
                FlinkLine.get()
                        .prepare(
                                env.getStreamGraph(),
                                new Configuration(),
                                getClass().getClassLoader(),
                                Runnable::run);

        assertThat(prepared.collectSinkKey()).isNull();
    }

    @Test
    void theFetchersRequestsByOperatorIdReachTheJobUnderTheOperatorsKey() throws Exception {
        List<String> keys = new ArrayList<>();
        CoordinationResponse answer = new CoordinationResponse() {};
        JobClientGateway job =
                (JobClientGateway)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {JobClientGateway.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("sendCoordinationRequest")) {
                                        keys.add((String) args[0]);
                                        return CompletableFuture.completedFuture(answer);
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
        ClientMetrics metrics = new ClientMetrics();
        QueryRecord record = new QueryRecord(metrics, System::nanoTime);
        InstrumentedJobClient client =
                FlinkLine.get()
                        .newJobClient(
                                job,
                                record,
                                polled ->
                                        new CollectLongPoll(
                                                polled,
                                                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                                scheduler,
                                                metrics,
                                                record,
                                                System::nanoTime,
                                                Duration.ofMillis(50),
                                                () -> false));
        OperatorID sink = new OperatorID();

        // what 1.20's CollectResultFetcher does with the job client it is given
        assertThat(client).isInstanceOf(CoordinationRequestGateway.class);
        CoordinationResponse response =
                ((CoordinationRequestGateway) client)
                        .sendCoordinationRequest(sink, new CoordinationRequest() {})
                        .get(10, TimeUnit.SECONDS);

        assertThat(response).isSameAs(answer);
        assertThat(keys).containsExactly(sink.toHexString());
    }
}
