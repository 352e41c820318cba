package io.flinkinsight.client.transport;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.harness.LocalFlinkCluster;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.messages.DashboardConfigurationHeaders;
import org.apache.flink.runtime.rest.util.RestClientException;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperatorFactory;
import org.apache.flink.streaming.api.operators.collect.CollectStreamSink;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The keep-alive transport against a real Flink 2.2 JobManager (separate JVMs, 127.0.0.1): listing
 * jobs, a multipart job submission, job status, a collect coordination request and an error, with
 * the connections counted; then a latency comparison with Flink's own client (printed, not
 * asserted).
 */
class KeepAliveTransportITCase {

    private static final String COLLECT_UID = "insight-it-collect";
    private static final int LATENCY_SAMPLES = 300;

    private static LocalFlinkCluster cluster;
    private static NioEventLoopGroup sharedGroup;

    @BeforeAll
    static void startCluster() throws Exception {
        Path work = Path.of(System.getProperty("insight.work", "target/clusters"));
        Files.createDirectories(work);
        cluster =
                LocalFlinkCluster.builder()
                        .workDir(Files.createTempDirectory(work, "keep-alive-"))
                        .sqlGateway(false)
                        .taskManagers(1)
                        .slotsPerTaskManager(1)
                        .start();
        sharedGroup = new NioEventLoopGroup(2, new ExecutorThreadFactory("it-shared-io"));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (sharedGroup != null) {
            sharedGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Configuration clientConfiguration() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, cluster.ports().rest());
        conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
        return conf;
    }

    @Test
    void clusterClientRidesKeptAliveChannelsOnARealJobManager() throws Exception {
        CountingTransportListener listener = new CountingTransportListener();
        PooledTransport transport =
                KeepAliveClusterClients.create(
                        clientConfiguration(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        listener,
                        FlinkLine.get());
        try {
            assertThat(transport).isInstanceOf(KeepAliveClusterClients.KeepAliveTransport.class);
            RestClusterClient<StandaloneClusterId> client = transport.clusterClient();

            for (int i = 0; i < 5; i++) {
                client.listJobs().get(30, TimeUnit.SECONDS);
            }
            assertThat(listener.opened).hasValue(1);
            assertThat(listener.reused).hasValue(4);

            JobID jobId = client.submitJob(collectingJob()).get(60, TimeUnit.SECONDS);
            assertThat(listener.opened)
                    .as("the multipart job submission rides the kept-alive channel")
                    .hasValue(1);

            awaitStatus(client, jobId, JobStatus.RUNNING);
            CoordinationResponse response =
                    client.sendCoordinationRequest(
                                    jobId, COLLECT_UID, new CollectCoordinationRequest("", 0))
                            .get(30, TimeUnit.SECONDS);
            // the sink's own answer, decoded by Flink's client from our JSON (its content depends
            // on timing)
            assertThat(response).isInstanceOf(CollectCoordinationResponse.class);

            Throwable unknownJob =
                    catchThrowable(
                            () -> client.getJobDetails(new JobID()).get(30, TimeUnit.SECONDS));
            RestClientException notFound =
                    ExceptionUtils.findThrowable(unknownJob, RestClientException.class)
                            .orElseThrow();
            assertThat(notFound.getHttpResponseStatus()).isEqualTo(HttpResponseStatus.NOT_FOUND);

            client.cancel(jobId).get(30, TimeUnit.SECONDS);
            awaitStatus(client, jobId, JobStatus.CANCELED);

            int requests = listener.succeeded.get() + listener.failed.get();
            System.out.printf(
                    "KeepAliveTransportITCase: %d requests (one a multipart job submission), %d connections"
                            + " opened, %d reused%n",
                    requests, listener.opened.get(), listener.reused.get());
            // sequential requests: one pooled connection; every other request, the job submission
            // included, reused it
            assertThat(listener.opened).hasValue(1);
            assertThat(listener.reused).hasValue(requests - 1);
            assertThat(listener.inFlight).hasValue(0);
        } finally {
            transport.close();
        }
    }

    /**
     * Prints the median latency of {@code listJobs()} with kept-alive channels and with Flink's own
     * client.
     */
    @Test
    void reportLatencyAgainstFlinksOwnClient() throws Exception {
        CountingTransportListener listener = new CountingTransportListener();
        PooledTransport transport =
                KeepAliveClusterClients.create(
                        clientConfiguration(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        listener,
                        FlinkLine.get());
        double keepAliveMedian;
        try {
            keepAliveMedian = medianListJobsMillis(transport.clusterClient());
        } finally {
            transport.close();
        }
        double stockMedian;
        try (RestClusterClient<StandaloneClusterId> stock =
                new RestClusterClient<>(clientConfiguration(), StandaloneClusterId.getInstance())) {
            stockMedian = medianListJobsMillis(stock);
        }
        System.out.printf(
                "KeepAliveTransportITCase: median of %d sequential listJobs(): keep-alive %.3f ms,"
                        + " Flink's RestClusterClient (a connection per request) %.3f ms; %d connections opened%n",
                LATENCY_SAMPLES, keepAliveMedian, stockMedian, listener.opened.get());
        assertThat(listener.opened).hasValue(1);

        // the transport alone: GET /v1/config, which the JobManager answers without any RPC
        ExecutorService executor = Executors.newFixedThreadPool(4);
        KeepAliveRestClient keepAlive =
                KeepAliveRestClient.create(
                        clientConfiguration(),
                        "127.0.0.1",
                        cluster.ports().rest(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        TransportListener.NONE,
                        FlinkLine.get());
        RestClient stockRest = new RestClient(clientConfiguration(), executor);
        try {
            double keepAliveConfig = medianConfigMillis(keepAlive);
            double stockConfig = medianConfigMillis(stockRest);
            System.out.printf(
                    "KeepAliveTransportITCase: median of %d sequential GET /v1/config: keep-alive"
                            + " RestClient %.3f ms, Flink's RestClient %.3f ms%n",
                    LATENCY_SAMPLES, keepAliveConfig, stockConfig);
        } finally {
            keepAlive.closeAsync();
            stockRest.shutdown(Duration.ofSeconds(5));
            executor.shutdownNow();
        }
    }

    private static double medianConfigMillis(RestClient client) throws Exception {
        int port = cluster.ports().rest();
        for (int i = 0; i < 30; i++) { // warm-up
            client.sendRequest("127.0.0.1", port, DashboardConfigurationHeaders.getInstance())
                    .get(30, TimeUnit.SECONDS);
        }
        long[] nanos = new long[LATENCY_SAMPLES];
        for (int i = 0; i < LATENCY_SAMPLES; i++) {
            long start = System.nanoTime();
            client.sendRequest("127.0.0.1", port, DashboardConfigurationHeaders.getInstance())
                    .get(30, TimeUnit.SECONDS);
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[LATENCY_SAMPLES / 2] / 1_000_000.0;
    }

    private static double medianListJobsMillis(RestClusterClient<?> client) throws Exception {
        for (int i = 0; i < 30; i++) { // warm-up
            client.listJobs().get(30, TimeUnit.SECONDS);
        }
        long[] nanos = new long[LATENCY_SAMPLES];
        for (int i = 0; i < LATENCY_SAMPLES; i++) {
            long start = System.nanoTime();
            client.listJobs().get(30, TimeUnit.SECONDS);
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[LATENCY_SAMPLES / 2] / 1_000_000.0;
    }

    /**
     * An endless job whose collect sink fills its buffer and then waits (backpressure), so it stays
     * RUNNING idle.
     */
    private static StreamGraph collectingJob() throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(1);
        DataStream<Long> numbers = env.fromSequence(1, Long.MAX_VALUE);
        TypeSerializer<Long> serializer =
                numbers.getType().createSerializer(env.getConfig().getSerializerConfig());
        CollectStreamSink<Long> sink =
                new CollectStreamSink<>(
                        numbers,
                        new CollectSinkOperatorFactory<>(serializer, "insight-it-results"));
        sink.uid(COLLECT_UID);
        env.addOperator(sink.getTransformation());
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName("keep-alive-transport-it");
        graph.setJobId(
                new JobID()); // as Flink's executors do; since 2.3 a StreamGraph has none of its
        // own
        graph.serializeUserDefinedInstances();
        return graph;
    }

    private static void awaitStatus(RestClusterClient<?> client, JobID jobId, JobStatus wanted)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JobStatus status = null;
        while (System.nanoTime() < deadline) {
            status = client.getJobStatus(jobId).get(30, TimeUnit.SECONDS);
            if (status == wanted) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(
                "Job " + jobId + " is " + status + ", not " + wanted + ", after 60 s");
    }
}
