package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.transport.PooledExchange.RawResponse;
import io.flinkinsight.client.transport.TestingLocalHttpServer.Answer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link KeepAliveChannelPools} on in-memory {@code LocalChannel}s to a {@link
 * TestingLocalHttpServer} that counts connections: which channels are reused, which are closed, and
 * how many a host gets.
 */
class KeepAliveChannelPoolsTest {

    private final InMemoryPools client;

    KeepAliveChannelPoolsTest() throws InterruptedException {
        client = new InMemoryPools();
    }

    @AfterEach
    void closeAll() {
        client.close();
    }

    /** A GET, sent once more if its kept-alive channel turns out closed. */
    private CompletableFuture<RawResponse> send() {
        return client.send(true);
    }

    /** A request that is never sent twice. */
    private CompletableFuture<RawResponse> sendOnce() {
        return client.send(false);
    }

    private static String body(CompletableFuture<RawResponse> response) throws Exception {
        return new String(response.get(10, TimeUnit.SECONDS).body(), StandardCharsets.UTF_8);
    }

    @Test
    void aReleasedHealthyChannelIsReused() throws Exception {
        assertThat(body(send())).isEqualTo("connection 1");
        assertThat(body(send())).isEqualTo("connection 1");

        assertThat(client.server.connections).hasValue(1);
        assertThat(client.listener.opened).hasValue(1);
        assertThat(client.listener.reused).hasValue(1);
        assertThat(client.pools().openChannelCount()).isEqualTo(1);
    }

    @Test
    void aChannelTheServerAskedToCloseIsNotReused() throws Exception {
        client.server.nextAnswers.add(Answer.CLOSE);

        assertThat(body(send())).isEqualTo("connection 1");
        assertThat(body(send())).isEqualTo("connection 2");

        assertThat(client.listener.reused).hasValue(0);
    }

    @Test
    void aChannelThatFailedARequestIsClosedAndNotReused() throws Exception {
        client.server.nextAnswers.add(Answer.TOO_LARGE);

        assertThat(send()).failsWithin(Duration.ofSeconds(10));
        assertThat(body(send())).isEqualTo("connection 2");

        assertThat(client.listener.reused).hasValue(0);
        client.settle();
        assertThat(client.pools().openChannelCount())
                .as("the failed channel is closed")
                .isEqualTo(1);
    }

    @Test
    void aHostGetsNoMoreThanMaxConnectionsAndWaitingRequestsRideTheReleasedOnes() throws Exception {
        client.reopen(new ChannelPoolSettings(2, Duration.ofSeconds(10), Duration.ofMinutes(1)));
        client.server.nextAnswers.addAll(List.of(Answer.HOLD, Answer.HOLD));

        List<CompletableFuture<RawResponse>> responses = List.of(send(), send(), send());
        client.server.awaitHeld(2);
        assertThat(responses.get(2)).as("waits for a free channel").isNotDone();
        client.server.releaseHeld();

        for (CompletableFuture<RawResponse> response : responses) {
            assertThat(body(response)).startsWith("connection ");
        }
        assertThat(client.server.connections).hasValue(2);
        assertThat(client.server.requests).hasValue(3);
        assertThat(client.listener.reused).hasValue(1);
    }

    @Test
    void aLostConnectionClosesTheHostsOtherIdleChannelsAtOnce() throws Exception {
        client.server.nextAnswers.addAll(List.of(Answer.HOLD, Answer.HOLD));
        List<CompletableFuture<RawResponse>> first = List.of(send(), send());
        client.server.awaitHeld(2);
        client.server.releaseHeld();
        for (CompletableFuture<RawResponse> response : first) {
            body(response);
        }
        assertThat(client.pools().openChannelCount()).isEqualTo(2);

        // the server drops a request (not sent again) on one kept-alive channel: the other one is
        // suspect too
        client.server.nextAnswers.add(Answer.DROP);
        assertThat(sendOnce()).failsWithin(Duration.ofSeconds(10));

        client.settle();
        assertThat(client.pools().openChannelCount()).isZero();
        assertThat(body(send())).isEqualTo("connection 3");
    }

    @Test
    void aChannelLentWhenItsHostLostAConnectionIsNeverLentAgain() throws Exception {
        client.server.nextAnswers.add(Answer.HOLD);
        CompletableFuture<RawResponse> lent = send();
        client.server.awaitHeld(1);
        client.server.nextAnswers.add(Answer.DROP);
        assertThat(sendOnce()).failsWithin(Duration.ofSeconds(10));

        client.server.releaseHeld();

        assertThat(body(lent)).as("the lent channel served its request").isEqualTo("connection 1");
        assertThat(body(send())).as("but is not lent again").isEqualTo("connection 3");
        client.settle();
        assertThat(client.pools().openChannelCount())
                .as("it stays open, unlent, until its idle timeout")
                .isEqualTo(2);
    }

    @Test
    void anUnusedChannelIsClosedAfterTheIdleTimeout() throws Exception {
        client.reopen(new ChannelPoolSettings(2, Duration.ofSeconds(10), Duration.ofMillis(50)));

        body(send());

        // the idle timer runs on the event loop's real clock (ExchangeHandlerTest counts its checks
        // exactly)
        Waiting.until("the idle channel is closed", () -> client.pools().openChannelCount() == 0);
    }

    @Test
    void eachHostAndPortHasOnePool() {
        KeepAliveChannelPools.HostPool pool =
                client.pools().poolFor(client.server.host, client.server.port);

        assertThat(client.pools().poolFor(client.server.host, client.server.port)).isSameAs(pool);
        assertThat(client.pools().poolFor(client.server.host, client.server.port + 1))
                .isNotSameAs(pool);
    }

    @Test
    void closingThePoolsClosesEveryChannelAndRefusesNewPools() throws Exception {
        body(send());

        client.pools().close();

        client.settle();
        assertThat(client.pools().openChannelCount()).isZero();
        assertThat(client.pools().isClosed()).isTrue();
        assertThatThrownBy(() -> client.pools().poolFor(client.server.host, client.server.port))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RestClient is already closed");
    }
}
