package io.flinkinsight.client.transport;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.config.ChannelPoolOptions;
import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.transport.TestMessages.Echo;
import io.flinkinsight.client.transport.TestMessages.Text;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rest.ConnectionClosedException;
import org.apache.flink.runtime.rest.FileUpload;
import org.apache.flink.runtime.rest.FileUploadHandler;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.RestClientConfiguration;
import org.apache.flink.runtime.rest.messages.EmptyMessageParameters;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.MessageHeaders;
import org.apache.flink.runtime.rest.util.RestClientException;
import org.apache.flink.runtime.rest.util.RestConstants;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelOption;
import org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.socket.nio.NioChannelOption;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;

import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link KeepAliveRestClient} against a real HTTP server on 127.0.0.1 that counts its TCP
 * connections.
 */
class KeepAliveRestClientITCase {

    private static final String HOST = "127.0.0.1";

    private final CountingTransportListener listener = new CountingTransportListener();
    private NioEventLoopGroup sharedGroup;
    private TestingRestServer server;
    private KeepAliveRestClient client;

    @BeforeEach
    void start() throws Exception {
        sharedGroup = new NioEventLoopGroup(2, new ExecutorThreadFactory("test-shared-io"));
        server = new TestingRestServer();
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.closeAsync();
        }
        server.releaseHeld();
        server.close();
        sharedGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private KeepAliveRestClient newClient(ChannelPoolSettings settings) throws Exception {
        client =
                KeepAliveRestClient.create(
                        new Configuration(),
                        HOST,
                        server.port(),
                        sharedGroup,
                        settings,
                        listener,
                        FlinkLine.get());
        return client;
    }

    private KeepAliveRestClient newClient() throws Exception {
        return newClient(ChannelPoolSettings.defaults());
    }

    private static CompletableFuture<Echo> get(RestClient client, int port, String path)
            throws Exception {
        return client.sendRequest(
                HOST,
                port,
                TestMessages.get(path),
                EmptyMessageParameters.getInstance(),
                EmptyRequestBody.getInstance());
    }

    private static CompletableFuture<Echo> post(
            RestClient client, int port, String path, String text) throws Exception {
        return client.sendRequest(
                HOST,
                port,
                TestMessages.post(path),
                EmptyMessageParameters.getInstance(),
                new Text(text));
    }

    /**
     * Opens {@code count} kept-alive channels (requests held until all are in, then answered), all
     * idle after.
     */
    private void openIdleChannels(int count) throws Exception {
        List<CompletableFuture<Echo>> held = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            held.add(get(client, server.port(), "/hold"));
        }
        Waiting.until(
                count + " requests held on " + count + " connections",
                () -> server.heldRequests() == count);
        server.releaseHeld();
        for (CompletableFuture<Echo> future : held) {
            future.get(10, TimeUnit.SECONDS);
        }
        assertThat(client.openChannelCount()).isEqualTo(count);
    }

    @Test
    void sequentialGetsShareOneConnection() throws Exception {
        newClient();
        int requests = 20;
        for (int i = 0; i < requests; i++) {
            Echo echo = get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
            assertThat(echo.path).isEqualTo("/v1/echo");
            assertThat(echo.connection).isEqualTo(1);
        }
        assertThat(server.acceptedConnections()).isEqualTo(1);
        assertThat(listener.opened).hasValue(1);
        assertThat(listener.reused).hasValue(requests - 1);
        assertThat(listener.succeeded).hasValue(requests);
        assertThat(listener.failed).hasValue(0);
        assertThat(listener.inFlight).hasValue(0);

        TestingRestServer.FullHttpRequestSnapshot last = server.lastRequest();
        assertThat(last.method()).isEqualTo("GET");
        assertThat(last.connection()).isEqualToIgnoringCase("keep-alive");
        assertThat(last.host()).isEqualTo(HOST + ':' + server.port());
        assertThat(last.contentType()).isEqualTo(RestConstants.REST_CONTENT_TYPE);
    }

    @Test
    void postBodyIsSentAsJsonOnTheKeptAliveChannel() throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        Echo echo =
                post(client, server.port(), "/echo", "hello \"there\"").get(10, TimeUnit.SECONDS);

        assertThat(echo.body).isEqualTo("{\"text\":\"hello \\\"there\\\"\"}");
        assertThat(echo.connection).isEqualTo(1);
        assertThat(server.lastRequest().method()).isEqualTo("POST");
    }

    @Test
    void concurrentRequestsOpenAtMostMaxConnections() throws Exception {
        int maxConnections = 3;
        newClient(
                new ChannelPoolSettings(
                        maxConnections, Duration.ofSeconds(30), Duration.ofSeconds(30)));
        List<CompletableFuture<Echo>> futures = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            futures.add(get(client, server.port(), "/hold"));
        }
        Waiting.until(
                "3 requests held by the server", () -> server.heldRequests() == maxConnections);
        assertThat(server.acceptedConnections()).isEqualTo(maxConnections);
        assertThat(listener.inFlight).hasValue(10);

        Waiting.until(
                "all requests answered",
                () -> {
                    server.releaseHeld();
                    return futures.stream().allMatch(CompletableFuture::isDone);
                });
        for (CompletableFuture<Echo> future : futures) {
            assertThat(future.get().path).isEqualTo("/v1/hold");
        }
        assertThat(server.acceptedConnections()).isEqualTo(maxConnections);
        assertThat(listener.opened).hasValue(maxConnections);
        assertThat(listener.reused).hasValue(10 - maxConnections);
        assertThat(listener.inFlight).hasValue(0);
    }

    @Test
    void idleChannelsAreClosedAfterIdleTimeout() throws Exception {
        newClient(new ChannelPoolSettings(4, Duration.ofSeconds(10), Duration.ofMillis(200)));
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        assertThat(client.openChannelCount()).isEqualTo(1);

        Waiting.until(
                "the idle channel closed",
                () -> client.openChannelCount() == 0 && server.openConnections() == 0);

        Echo echo = get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        assertThat(echo.connection).isEqualTo(2);
        assertThat(listener.opened).hasValue(2);
        assertThat(listener.reused).hasValue(0);
    }

    @Test
    void channelInUseIsNotClosedByTheIdleTimeout() throws Exception {
        newClient(new ChannelPoolSettings(4, Duration.ofSeconds(10), Duration.ofMillis(100)));
        CompletableFuture<Echo> held = get(client, server.port(), "/hold");
        Waiting.until("the request held", () -> server.heldRequests() == 1);
        Thread.sleep(500); // several idle timeouts with no byte moving
        assertThat(server.openConnections()).isEqualTo(1);

        server.releaseHeld();
        assertThat(held.get(10, TimeUnit.SECONDS).connection).isEqualTo(1);
    }

    @Test
    void serverClosedIdleChannelIsReplacedTransparently() throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        server.closeAllConnections();
        Waiting.until("the client saw the close", () -> client.openChannelCount() == 0);

        Echo echo = get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        assertThat(echo.connection).isEqualTo(2);
        assertThat(listener.failed).hasValue(0);
    }

    @Test
    void getOnStaleChannelIsRetriedOnceOnAFreshOne() throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        server.dropNextRequestOnUsedConnection();

        Echo echo = get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);

        assertThat(echo.connection).isEqualTo(2);
        assertThat(server.acceptedConnections()).isEqualTo(2);
        assertThat(listener.succeeded).hasValue(2);
        assertThat(listener.failed).hasValue(0);
        assertThat(listener.opened).hasValue(2);
    }

    @Test
    void channelsProbeTheirPeerWithTcpKeepAliveWithinSeconds() throws Exception {
        KeepAliveChannelPools pools =
                new KeepAliveChannelPools(
                        sharedGroup,
                        new Configuration(),
                        RestClientConfiguration.fromConfiguration(new Configuration()),
                        List.of(),
                        null,
                        -1,
                        ChannelPoolSettings.defaults(),
                        listener);
        try {
            KeepAliveChannelPools.HostPool pool = pools.poolFor(HOST, server.port());
            Channel channel = pool.acquire().get(10, TimeUnit.SECONDS);
            try {
                assertThat(channel.config().getOption(ChannelOption.SO_KEEPALIVE)).isTrue();
                assertThat(
                                channel.config()
                                        .getOption(
                                                NioChannelOption.of(
                                                        ExtendedSocketOptions.TCP_KEEPIDLE)))
                        .isEqualTo(KeepAliveSockets.KEEP_ALIVE_IDLE_SECONDS);
                assertThat(
                                channel.config()
                                        .getOption(
                                                NioChannelOption.of(
                                                        ExtendedSocketOptions.TCP_KEEPINTERVAL)))
                        .isEqualTo(KeepAliveSockets.KEEP_ALIVE_INTERVAL_SECONDS);
                assertThat(
                                channel.config()
                                        .getOption(
                                                NioChannelOption.of(
                                                        ExtendedSocketOptions.TCP_KEEPCOUNT)))
                        .isEqualTo(KeepAliveSockets.KEEP_ALIVE_PROBES);
            } finally {
                pool.release(channel);
            }
        } finally {
            pools.close();
        }
    }

    @Test
    void oneLostConnectionRetiresTheHostsOtherKeptAliveChannels() throws Exception {
        newClient(new ChannelPoolSettings(3, Duration.ofSeconds(30), Duration.ofSeconds(30)));
        openIdleChannels(3);
        server.dropNextRequestOnUsedConnection();

        // the drop loses one connection; the GET is sent once more, on a new connection, not on an
        // old idle one
        Echo echo = get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);

        assertThat(echo.connection).isEqualTo(4);
        Waiting.until(
                "the two idle channels of before closed", () -> client.openChannelCount() == 1);
        assertThat(listener.failed).hasValue(0);
    }

    @Test
    void aSilentHostThatAcceptsNoConnectionFailsTheRequestOnAReusedChannelWithinSeconds()
            throws Exception {
        newClient(new ChannelPoolSettings(2, Duration.ofSeconds(30), Duration.ofMinutes(5)));
        openIdleChannels(2);
        // the host goes silent on the kept-alive connections and takes no new one: from here, only
        // the check sees it
        server.stopAccepting();
        long start = System.nanoTime();

        Throwable failure =
                catchThrowable(() -> get(client, server.port(), "/hold").get(60, TimeUnit.SECONDS));

        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(failure)
                .as("the request on the reused channel")
                .isNotNull()
                .hasRootCauseInstanceOf(ConnectionClosedException.class)
                .hasMessageContaining("accepts no new connection");
        // after the check (not rest.idleness-timeout, 5 min), whose refused connect answers at once
        // here
        assertThat(seconds)
                .isBetween(
                        (long) KeepAliveChannelPools.HOST_CHECK_AFTER_SECONDS - 1,
                        (long) KeepAliveChannelPools.HOST_CHECK_AFTER_SECONDS + 10);
        // the other, idle channel too: the host is gone
        Waiting.until("the host's channels retired", () -> client.openChannelCount() == 0);
    }

    @Test
    void aSlowHostThatStillAcceptsConnectionsKeepsTheRequestWaiting() throws Exception {
        newClient(new ChannelPoolSettings(2, Duration.ofSeconds(30), Duration.ofMinutes(5)));
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        CompletableFuture<Echo> held = get(client, server.port(), "/hold");
        Waiting.until("the request held", () -> server.heldRequests() == 1);

        // the check: a connection the host accepts, and which the client closes again
        // (Waiting's limit, 20 s, leaves room for a late check)
        Waiting.until("the check's connection", () -> server.acceptedConnections() == 2);
        Waiting.until("the check's connection closed", () -> server.openConnections() == 1);
        // the host accepted it, so the request waits on
        assertThat(held).as("the request on a slow host").isNotDone();
        server.releaseHeld();

        assertThat(held.get(10, TimeUnit.SECONDS).connection).isEqualTo(1);
        assertThat(listener.failed).hasValue(0);
    }

    @Test
    void postOnStaleChannelIsNotRetried() throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        server.dropNextRequestOnUsedConnection();

        Throwable failure =
                catchThrowable(() -> post(client, server.port(), "/echo", "once").join());

        assertThat(failure)
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(server.requests()).isEqualTo(1);
        assertThat(listener.failed).hasValue(1);
        assertThat(listener.inFlight).hasValue(0);
        // the next request gets a fresh channel
        assertThat(get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS).connection)
                .isEqualTo(2);
    }

    @Test
    void connectionCloseFromServerIsHonoured() throws Exception {
        newClient();
        assertThat(get(client, server.port(), "/close").get(10, TimeUnit.SECONDS).connection)
                .isEqualTo(1);
        assertThat(get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS).connection)
                .isEqualTo(2);
        assertThat(listener.reused).hasValue(0);
    }

    @Test
    void errorsAreExactlyThoseOfFlinksRestClient() throws Exception {
        newClient();
        ExecutorService stockExecutor = Executors.newSingleThreadExecutor();
        RestClient stock = new RestClient(new Configuration(), stockExecutor);
        try {
            for (String path : List.of("/error", "/plain", "/too-large")) {
                Throwable ours = catchThrowable(() -> get(client, server.port(), path).join());
                Throwable theirs = catchThrowable(() -> get(stock, server.port(), path).join());

                assertThat(theirs).as(path).isInstanceOf(CompletionException.class);
                assertThat(ours).as(path).isExactlyInstanceOf(theirs.getClass());
                assertThat(ours.getCause())
                        .as(path)
                        .isExactlyInstanceOf(RestClientException.class)
                        .hasMessage(theirs.getCause().getMessage());
                assertThat(((RestClientException) ours.getCause()).getHttpResponseStatus())
                        .isEqualTo(
                                ((RestClientException) theirs.getCause()).getHttpResponseStatus());
            }
        } finally {
            stock.shutdown(Duration.ofSeconds(5));
            stockExecutor.shutdownNow();
        }
    }

    @Test
    void errorAnswersKeepTheChannel() throws Exception {
        newClient();
        RestClientException notFound =
                (RestClientException)
                        catchThrowable(() -> get(client, server.port(), "/error").join())
                                .getCause();
        assertThat(notFound.getHttpResponseStatus()).isEqualTo(HttpResponseStatus.NOT_FOUND);
        assertThat(notFound).hasMessage("[no such thing]");
        RestClientException plain =
                (RestClientException)
                        catchThrowable(() -> get(client, server.port(), "/plain").join())
                                .getCause();
        assertThat(plain.getHttpResponseStatus())
                .isEqualTo(HttpResponseStatus.INTERNAL_SERVER_ERROR);
        assertThat(plain).hasMessage("Response was not valid JSON, but plain-text: boom, not JSON");

        assertThat(get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS).connection)
                .isEqualTo(1);
        assertThat(listener.opened).hasValue(1);
        assertThat(listener.reused).hasValue(2);
        assertThat(listener.failed).hasValue(2);
        assertThat(listener.succeeded).hasValue(1);
    }

    @Test
    void responseOfTheWrongTypeFailsLikeFlinksRestClient() throws Exception {
        newClient();
        ExecutorService stockExecutor = Executors.newSingleThreadExecutor();
        RestClient stock = new RestClient(new Configuration(), stockExecutor);
        try {
            MessageHeaders<EmptyRequestBody, NumberPath, EmptyMessageParameters> wrongType =
                    new WrongResponseType();
            Throwable ours =
                    catchThrowable(
                            () ->
                                    client.sendRequest(
                                                    HOST,
                                                    server.port(),
                                                    wrongType,
                                                    EmptyMessageParameters.getInstance(),
                                                    EmptyRequestBody.getInstance())
                                            .join());
            Throwable theirs =
                    catchThrowable(
                            () ->
                                    stock.sendRequest(
                                                    HOST,
                                                    server.port(),
                                                    wrongType,
                                                    EmptyMessageParameters.getInstance(),
                                                    EmptyRequestBody.getInstance())
                                            .join());

            assertThat(theirs.getCause()).isExactlyInstanceOf(RestClientException.class);
            assertThat(ours.getCause())
                    .isExactlyInstanceOf(RestClientException.class)
                    .hasMessage(theirs.getCause().getMessage())
                    .hasMessageContaining("nor an error");
        } finally {
            stock.shutdown(Duration.ofSeconds(5));
            stockExecutor.shutdownNow();
        }
    }

    @Test
    void exhaustedPoolFailsClearlyAfterTheAcquireTimeout() throws Exception {
        newClient(new ChannelPoolSettings(1, Duration.ofMillis(300), Duration.ofSeconds(30)));
        CompletableFuture<Echo> held = get(client, server.port(), "/hold");
        Waiting.until("the request held", () -> server.heldRequests() == 1);

        Throwable failure = catchThrowable(() -> get(client, server.port(), "/echo").join());

        assertThat(failure.getCause())
                .isInstanceOf(ChannelAcquireTimeoutException.class)
                .hasMessageContaining(ChannelPoolOptions.MAX_CONNECTIONS.key())
                .hasMessageContaining(ChannelPoolOptions.ACQUIRE_TIMEOUT.key())
                .hasMessageContaining(HOST + ':' + server.port());
        server.releaseHeld();
        assertThat(held.get(10, TimeUnit.SECONDS).path).isEqualTo("/v1/hold");
        assertThat(server.acceptedConnections()).isEqualTo(1);
        assertThat(listener.inFlight).hasValue(0);
    }

    @Test
    void multipartUploadRidesAPooledChannelAndIsCounted(@TempDir Path dir) throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        Path file = Files.writeString(dir.resolve("plan.txt"), "a small file");

        Echo echo =
                client.sendRequest(
                                HOST,
                                server.port(),
                                TestMessages.post("/upload"),
                                EmptyMessageParameters.getInstance(),
                                new Text("with files"),
                                List.of(new FileUpload(file, RestConstants.CONTENT_TYPE_BINARY)))
                        .get(10, TimeUnit.SECONDS);

        assertThat(echo.path).isEqualTo("/v1/upload");
        assertThat(echo.body)
                .contains("a small file")
                .contains("with files")
                .contains("name=\"" + FileUploadHandler.HTTP_ATTRIBUTE_REQUEST + "\"")
                .contains("name=\"file_0\"; filename=\"plan.txt\"");
        assertThat(echo.connection).isEqualTo(1);
        assertThat(server.lastRequest().connection()).isEqualToIgnoringCase("keep-alive");
        assertThat(listener.opened).hasValue(1);
        assertThat(listener.reused).hasValue(1);
        assertThat(listener.succeeded).hasValue(2);
        assertThat(listener.inFlight).hasValue(0);
    }

    @Test
    void onlyUploadsUpToTheInMemoryLimitAreEncodedInMemory(@TempDir Path dir) throws Exception {
        Path small = Files.writeString(dir.resolve("small.bin"), "x");
        Path large = dir.resolve("large.jar");
        try (RandomAccessFile sparse = new RandomAccessFile(large.toFile(), "rw")) {
            sparse.setLength(MultipartBody.MAX_IN_MEMORY_BYTES + 1);
        }
        FileUpload smallUpload = new FileUpload(small, RestConstants.CONTENT_TYPE_BINARY);
        FileUpload largeUpload = new FileUpload(large, RestConstants.CONTENT_TYPE_JAR);

        assertThat(MultipartBody.fitsInMemory(List.of(smallUpload))).isTrue();
        assertThat(MultipartBody.fitsInMemory(List.of(smallUpload, largeUpload))).isFalse();
        assertThat(
                        MultipartBody.fitsInMemory(
                                List.of(new FileUpload(dir, RestConstants.CONTENT_TYPE_BINARY))))
                .as("a directory: Flink's own path reports it")
                .isFalse();
    }

    @Test
    void shutdownIsImmediateFailsPendingRequestsAndLeavesNoThreadOfOurs() throws Exception {
        newClient();
        get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS);
        CompletableFuture<Echo> pending = get(client, server.port(), "/hold");
        Waiting.until("the request held", () -> server.heldRequests() == 1);

        CompletableFuture<Void> closed = client.closeAsync();
        client.shutdown(Duration.ofSeconds(5));

        assertThat(closed).isDone(); // Flink's RestClient on a shared group never completes it
        assertThat(catchThrowable(pending::join)).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(catchThrowable(() -> get(client, server.port(), "/echo").join()))
                .hasRootCauseMessage("RestClient is already closed");
        assertThat(sharedGroup.isShuttingDown()).isFalse();
        Waiting.until("the server saw our connections close", () -> server.openConnections() == 0);
        Waiting.until(
                "our response threads ended",
                () ->
                        Thread.getAllStackTraces().keySet().stream()
                                .noneMatch(
                                        t ->
                                                t.getName()
                                                        .startsWith(
                                                                "flink-insight-rest-client-io")));
        assertThat(listener.inFlight).hasValue(0);
    }

    @Test
    void eachChannelCarriesOneRequestAtATime() throws Exception {
        newClient(new ChannelPoolSettings(2, Duration.ofSeconds(30), Duration.ofSeconds(30)));
        List<CompletableFuture<Echo>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(get(client, server.port(), "/hold"));
        }
        Waiting.until("2 requests held", () -> server.heldRequests() == 2);
        // the two waiting requests were not written behind the held ones
        assertThat(server.requests()).isEqualTo(2);
        Waiting.until(
                "all answered",
                () -> {
                    server.releaseHeld();
                    return futures.stream().allMatch(CompletableFuture::isDone);
                });
        assertThat(server.requests()).isEqualTo(4);
    }

    /** The echo with a path that is no number: the wrong type for the server's answer. */
    static final class NumberPath implements org.apache.flink.runtime.rest.messages.ResponseBody {
        @org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty("path")
        final int path;

        @org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonCreator
        NumberPath(
                @org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty(
                                "path")
                        int path) {
            this.path = path;
        }
    }

    @Test
    void aFailingListenerDoesNotFailRequests() throws Exception {
        TransportListener failing =
                new TransportListener() {
                    @Override
                    public void channelOpened() {
                        throw new IllegalStateException("listener bug");
                    }

                    @Override
                    public void channelReused() {
                        throw new IllegalStateException("listener bug");
                    }

                    @Override
                    public void requestFinished(long latencyNanos, boolean success) {
                        throw new IllegalStateException("listener bug");
                    }

                    @Override
                    public void inFlightChanged(int delta) {
                        throw new IllegalStateException("listener bug");
                    }
                };
        client =
                KeepAliveRestClient.create(
                        new Configuration(),
                        HOST,
                        server.port(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        failing,
                        FlinkLine.get());
        for (int i = 0; i < 3; i++) {
            assertThat(get(client, server.port(), "/echo").get(10, TimeUnit.SECONDS).connection)
                    .isEqualTo(1);
        }
    }

    /** Headers whose response class does not match the server's echo. */
    private static final class WrongResponseType
            implements org.apache.flink.runtime.rest.messages.RuntimeMessageHeaders<
                    EmptyRequestBody, NumberPath, EmptyMessageParameters> {
        @Override
        public Class<NumberPath> getResponseClass() {
            return NumberPath.class;
        }

        @Override
        public HttpResponseStatus getResponseStatusCode() {
            return HttpResponseStatus.OK;
        }

        @Override
        public String getDescription() {
            return "wrong type";
        }

        @Override
        public Class<EmptyRequestBody> getRequestClass() {
            return EmptyRequestBody.class;
        }

        @Override
        public EmptyMessageParameters getUnresolvedMessageParameters() {
            return EmptyMessageParameters.getInstance();
        }

        @Override
        public org.apache.flink.runtime.rest.HttpMethodWrapper getHttpMethod() {
            return org.apache.flink.runtime.rest.HttpMethodWrapper.GET;
        }

        @Override
        public String getTargetRestEndpointURL() {
            return "/echo";
        }
    }
}
