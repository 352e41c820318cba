package io.flinkinsight.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkinsight.client.transport.PooledExchange.RawResponse;
import io.flinkinsight.client.transport.TestingLocalHttpServer.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.rest.ConnectionClosedException;
import org.apache.flink.shaded.netty4.io.netty.channel.DefaultEventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PooledExchange}: one request through a keep-alive pool to a {@link TestingLocalHttpServer} on in-memory
 * channels, from acquire to release; a GET on a kept-alive channel the server dropped is sent once more.
 */
class PooledExchangeTest {

    private final DefaultEventLoopGroup clientGroup = new DefaultEventLoopGroup(1);
    private final CountingTransportListener listener = new CountingTransportListener();
    private final TestingLocalHttpServer server;
    private KeepAliveChannelPools pools;

    PooledExchangeTest() throws InterruptedException {
        server = new TestingLocalHttpServer();
        pools = TestingLocalHttpServer.pools(clientGroup, ChannelPoolSettings.defaults(), listener);
    }

    @AfterEach
    void closeAll() {
        pools.close();
        server.close();
        clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private CompletableFuture<RawResponse> send(boolean retryIfStale) {
        return new PooledExchange(pools.poolFor(server.host, server.port), server::get, retryIfStale, listener)
                .send();
    }

    private static RawResponse await(CompletableFuture<RawResponse> response) throws Exception {
        return response.get(10, TimeUnit.SECONDS);
    }

    private static String body(RawResponse response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aResponseCompletesTheExchangesFuture() throws Exception {
        RawResponse response = await(send(false));

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(body(response)).isEqualTo("connection 1");
    }

    @Test
    void aGetOnAKeptAliveChannelTheServerDroppedIsSentOnceMoreOnANewOne() throws Exception {
        await(send(true));
        server.nextAnswers.add(Answer.DROP);

        RawResponse response = await(send(true));

        assertThat(body(response)).isEqualTo("connection 2");
        assertThat(server.requests).hasValue(3);
    }

    @Test
    void aRequestThatIsNotAGetIsNotSentAgain() throws Exception {
        await(send(false));
        server.nextAnswers.add(Answer.DROP);

        assertThatThrownBy(() -> await(send(false)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(server.requests).hasValue(2);
    }

    @Test
    void aGetDroppedOnANewChannelIsNotSentAgain() {
        server.nextAnswers.add(Answer.DROP);

        assertThatThrownBy(() -> await(send(true)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(server.requests).hasValue(1);
    }

    @Test
    void noFreeChannelWithinTheAcquireTimeoutFailsWithAClearError() throws Exception {
        pools.close();
        pools = TestingLocalHttpServer.pools(clientGroup,
                new ChannelPoolSettings(1, Duration.ofMillis(50), Duration.ofMinutes(1)), listener);
        server.nextAnswers.add(Answer.HOLD);
        CompletableFuture<RawResponse> holding = send(false);
        Waiting.until("the first request is held", () -> server.heldCount() == 1);

        assertThatThrownBy(() -> await(send(false)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ChannelAcquireTimeoutException.class);

        server.releaseHeld();
        assertThat(body(await(holding))).isEqualTo("connection 1");
    }

    @Test
    void aRequestAfterThePoolsClosedFailsFromItsFuture() {
        KeepAliveChannelPools.HostPool pool = pools.poolFor(server.host, server.port);
        pools.close();

        CompletableFuture<RawResponse> response = new PooledExchange(pool, server::get, true, listener).send();

        assertThatThrownBy(() -> await(response))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RestClient closed before request completed");
        assertThat(server.connections).hasValue(0);
    }
}
