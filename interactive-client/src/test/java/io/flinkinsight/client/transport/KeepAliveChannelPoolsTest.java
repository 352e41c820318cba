package io.flinkinsight.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkinsight.client.transport.PooledExchange.RawResponse;
import io.flinkinsight.client.transport.TestingLocalHttpServer.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.shaded.netty4.io.netty.channel.DefaultEventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KeepAliveChannelPools} on in-memory {@code LocalChannel}s to a {@link TestingLocalHttpServer} that counts
 * connections: which channels are reused, which are closed, and how many a host gets.
 */
class KeepAliveChannelPoolsTest {

    private final DefaultEventLoopGroup clientGroup = new DefaultEventLoopGroup(1);
    private final CountingTransportListener listener = new CountingTransportListener();
    private final TestingLocalHttpServer server;
    private KeepAliveChannelPools pools;

    KeepAliveChannelPoolsTest() throws InterruptedException {
        server = new TestingLocalHttpServer();
        pools = TestingLocalHttpServer.pools(clientGroup, ChannelPoolSettings.defaults(), listener);
    }

    @AfterEach
    void closeAll() {
        pools.close();
        server.close();
        clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void usePools(ChannelPoolSettings settings) {
        pools.close();
        pools = TestingLocalHttpServer.pools(clientGroup, settings, listener);
    }

    /** A GET, sent once more if its kept-alive channel turns out closed. */
    private CompletableFuture<RawResponse> send() {
        return new PooledExchange(pools.poolFor(server.host, server.port), server::get, true, listener).send();
    }

    /** A request that is never sent twice. */
    private CompletableFuture<RawResponse> sendOnce() {
        return new PooledExchange(pools.poolFor(server.host, server.port), server::get, false, listener).send();
    }

    private static String body(CompletableFuture<RawResponse> response) throws Exception {
        return new String(response.get(10, TimeUnit.SECONDS).body(), StandardCharsets.UTF_8);
    }

    @Test
    void aReleasedHealthyChannelIsReused() throws Exception {
        assertThat(body(send())).isEqualTo("connection 1");
        assertThat(body(send())).isEqualTo("connection 1");

        assertThat(server.connections).hasValue(1);
        assertThat(listener.opened).hasValue(1);
        assertThat(listener.reused).hasValue(1);
        assertThat(pools.openChannelCount()).isEqualTo(1);
    }

    @Test
    void aChannelTheServerAskedToCloseIsNotReused() throws Exception {
        server.nextAnswers.add(Answer.CLOSE);

        assertThat(body(send())).isEqualTo("connection 1");
        assertThat(body(send())).isEqualTo("connection 2");

        assertThat(listener.reused).hasValue(0);
    }

    @Test
    void aChannelThatFailedARequestIsClosedAndNotReused() throws Exception {
        server.nextAnswers.add(Answer.TOO_LARGE);

        assertThat(send()).failsWithin(Duration.ofSeconds(10));
        assertThat(body(send())).isEqualTo("connection 2");

        assertThat(listener.reused).hasValue(0);
        Waiting.until("the failed channel is closed", () -> pools.openChannelCount() == 1);
    }

    @Test
    void aHostGetsNoMoreThanMaxConnectionsAndWaitingRequestsRideTheReleasedOnes() throws Exception {
        usePools(new ChannelPoolSettings(2, Duration.ofSeconds(10), Duration.ofMinutes(1)));
        server.nextAnswers.addAll(List.of(Answer.HOLD, Answer.HOLD));

        List<CompletableFuture<RawResponse>> responses = List.of(send(), send(), send());
        Waiting.until("two requests are held", () -> server.heldCount() == 2);
        assertThat(responses.get(2)).as("waits for a free channel").isNotDone();
        server.releaseHeld();

        for (CompletableFuture<RawResponse> response : responses) {
            assertThat(body(response)).startsWith("connection ");
        }
        assertThat(server.connections).hasValue(2);
        assertThat(server.requests).hasValue(3);
        assertThat(listener.reused).hasValue(1);
    }

    @Test
    void aLostConnectionClosesTheHostsOtherIdleChannelsAtOnce() throws Exception {
        server.nextAnswers.addAll(List.of(Answer.HOLD, Answer.HOLD));
        List<CompletableFuture<RawResponse>> first = List.of(send(), send());
        Waiting.until("two requests are held", () -> server.heldCount() == 2);
        server.releaseHeld();
        for (CompletableFuture<RawResponse> response : first) {
            body(response);
        }
        assertThat(pools.openChannelCount()).isEqualTo(2);

        // the server drops a request (not sent again) on one kept-alive channel: the other one is suspect too
        server.nextAnswers.add(Answer.DROP);
        assertThat(sendOnce()).failsWithin(Duration.ofSeconds(10));

        Waiting.until("no channel is open", () -> pools.openChannelCount() == 0);
        assertThat(body(send())).isEqualTo("connection 3");
    }

    @Test
    void aChannelLentWhenItsHostLostAConnectionIsNeverLentAgainAndClosedWhenIdle() throws Exception {
        usePools(new ChannelPoolSettings(4, Duration.ofSeconds(10), Duration.ofMillis(300)));
        server.nextAnswers.add(Answer.HOLD);
        CompletableFuture<RawResponse> lent = send();
        Waiting.until("the first request is held", () -> server.heldCount() == 1);
        server.nextAnswers.add(Answer.DROP);
        assertThat(sendOnce()).failsWithin(Duration.ofSeconds(10));

        server.releaseHeld();

        assertThat(body(lent)).as("the lent channel served its request").isEqualTo("connection 1");
        assertThat(body(send())).as("but is not lent again").isEqualTo("connection 3");
        Waiting.until("both channels are closed when idle", () -> pools.openChannelCount() == 0);
    }

    @Test
    void anUnusedChannelIsClosedAfterTheIdleTimeout() throws Exception {
        usePools(new ChannelPoolSettings(2, Duration.ofSeconds(10), Duration.ofMillis(50)));

        body(send());

        Waiting.until("the idle channel is closed", () -> pools.openChannelCount() == 0);
    }

    @Test
    void eachHostAndPortHasOnePool() {
        KeepAliveChannelPools.HostPool pool = pools.poolFor(server.host, server.port);

        assertThat(pools.poolFor(server.host, server.port)).isSameAs(pool);
        assertThat(pools.poolFor(server.host, server.port + 1)).isNotSameAs(pool);
    }

    @Test
    void closingThePoolsClosesEveryChannelAndRefusesNewPools() throws Exception {
        body(send());

        pools.close();

        Waiting.until("every channel is closed", () -> pools.openChannelCount() == 0);
        assertThat(pools.isClosed()).isTrue();
        assertThatThrownBy(() -> pools.poolFor(server.host, server.port))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RestClient is already closed");
    }
}
