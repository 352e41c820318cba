package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.transport.PooledExchange.RawResponse;
import io.flinkinsight.client.transport.TestingLocalHttpServer.Answer;

import org.apache.flink.runtime.rest.ConnectionClosedException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PooledExchange}: one request through a keep-alive pool to a {@link TestingLocalHttpServer}
 * on in-memory channels, from acquire to release; a GET on a kept-alive channel the server dropped
 * is sent once more.
 */
class PooledExchangeTest {

    private final InMemoryPools client;

    PooledExchangeTest() throws InterruptedException {
        client = new InMemoryPools();
    }

    @AfterEach
    void closeAll() {
        client.close();
    }

    private static RawResponse await(CompletableFuture<RawResponse> response) throws Exception {
        return response.get(10, TimeUnit.SECONDS);
    }

    private static String body(RawResponse response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aResponseCompletesTheExchangesFuture() throws Exception {
        RawResponse response = await(client.send(false));

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(body(response)).isEqualTo("connection 1");
    }

    @Test
    void aGetOnAKeptAliveChannelTheServerDroppedIsSentOnceMoreOnANewOne() throws Exception {
        await(client.send(true));
        client.server.nextAnswers.add(Answer.DROP);

        RawResponse response = await(client.send(true));

        assertThat(body(response)).isEqualTo("connection 2");
        assertThat(client.server.requests).hasValue(3);
    }

    @Test
    void aRequestThatIsNotAGetIsNotSentAgain() throws Exception {
        await(client.send(false));
        client.server.nextAnswers.add(Answer.DROP);

        assertThatThrownBy(() -> await(client.send(false)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(client.server.requests).hasValue(2);
    }

    @Test
    void aGetDroppedOnANewChannelIsNotSentAgain() {
        client.server.nextAnswers.add(Answer.DROP);

        assertThatThrownBy(() -> await(client.send(true)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ConnectionClosedException.class);
        assertThat(client.server.requests).hasValue(1);
    }

    @Test
    void noFreeChannelWithinTheAcquireTimeoutFailsWithAClearError() throws Exception {
        client.reopen(new ChannelPoolSettings(1, Duration.ofMillis(50), Duration.ofMinutes(1)));
        client.server.nextAnswers.add(Answer.HOLD);
        CompletableFuture<RawResponse> holding = client.send(false);
        client.server.awaitHeld(1);

        assertThatThrownBy(() -> await(client.send(false)))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ChannelAcquireTimeoutException.class);

        client.server.releaseHeld();
        assertThat(body(await(holding))).isEqualTo("connection 1");
    }

    @Test
    void aRequestAfterThePoolsClosedFailsFromItsFuture() {
        KeepAliveChannelPools.HostPool pool = client.pool();
        client.pools().close();

        CompletableFuture<RawResponse> response =
                new PooledExchange(pool, client.server::get, true, client.listener).send();

        assertThatThrownBy(() -> await(response))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RestClient closed before request completed");
        assertThat(client.server.connections).hasValue(0);
    }
}
