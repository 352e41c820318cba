package io.flinkinsight.client.transport;

import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.rest.ConnectionClosedException;
import org.apache.flink.runtime.rest.ConnectionIdleException;
import org.apache.flink.runtime.rest.util.RestClientException;

import org.apache.flink.shaded.netty4.io.netty.buffer.Unpooled;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelFuture;
import org.apache.flink.shaded.netty4.io.netty.channel.embedded.EmbeddedChannel;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.TooLongFrameException;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultFullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpVersion;
import org.apache.flink.shaded.netty4.io.netty.handler.timeout.IdleStateEvent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ExchangeHandler} on an {@link EmbeddedChannel} with a frozen clock: what it tells the
 * request in flight, when it keeps the channel for the next request, when it closes it, and when it
 * suspects the host.
 */
class ExchangeHandlerTest {

    private static final long CHECK_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long POOL_IDLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long REQUEST_IDLE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final Duration HOST_CHECK_AFTER = Duration.ofSeconds(10);

    private final CountingTransportListener listener = new CountingTransportListener();
    private final AtomicBoolean transportClosed = new AtomicBoolean();
    private final AtomicInteger connectionsLost = new AtomicInteger();
    private final List<SocketAddress> hostChecks = new ArrayList<>();

    /** What a host check's new connection comes to; by default, the host accepts none. */
    private Function<SocketAddress, ChannelFuture> connect =
            host ->
                    new EmbeddedChannel()
                            .newFailedFuture(new ConnectException("Connection refused"));

    private ExchangeHandler handler(long requestIdleNanos) {
        return new ExchangeHandler(
                listener,
                CHECK_EVERY_NANOS,
                POOL_IDLE_NANOS,
                requestIdleNanos,
                transportClosed::get,
                connectionsLost::incrementAndGet,
                HOST_CHECK_AFTER.toNanos(),
                host -> {
                    hostChecks.add(host);
                    return connect.apply(host);
                });
    }

    private ExchangeHandler handler() {
        return handler(REQUEST_IDLE_NANOS);
    }

    private static EmbeddedChannel channel(ExchangeHandler handler) {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        channel.freezeTime();
        return channel;
    }

    private static FullHttpResponse response(
            HttpResponseStatus status, String body, boolean keepAlive) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1,
                        status,
                        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return response;
    }

    /** A request answered on the channel, so that the next one rides a kept-alive channel. */
    private static void serveOne(EmbeddedChannel channel, ExchangeHandler handler) {
        RecordingExchange first = new RecordingExchange();
        handler.begin(channel, first);
        channel.writeInbound(response(HttpResponseStatus.OK, "first", true));
        assertThat(first.responses).hasSize(1);
    }

    private static void idleFor(EmbeddedChannel channel, int checks) {
        for (int i = 0; i < checks; i++) {
            channel.pipeline()
                    .fireUserEventTriggered(
                            i == 0
                                    ? IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT
                                    : IdleStateEvent.ALL_IDLE_STATE_EVENT);
        }
    }

    private static void advance(EmbeddedChannel channel, Duration by) {
        channel.advanceTimeBy(by.toNanos(), TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
        channel.runPendingTasks();
    }

    @Test
    void aNewChannelIsCountedAsOpened() {
        channel(handler());

        assertThat(listener.opened).hasValue(1);
    }

    @Test
    void aFullResponseCompletesTheExchangeAndLeavesTheChannelReusable() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        channel.writeInbound(response(HttpResponseStatus.OK, "{\"ok\":1}", true));

        assertThat(exchange.responses)
                .containsExactly(new RecordingExchange.Response(200, "{\"ok\":1}", true));
        assertThat(exchange.failures).isEmpty();
        assertThat(handler.isReusable()).isTrue();
        assertThat(handler.hasServed()).isTrue();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aResponseThatClosesTheConnectionLeavesTheChannelNotReusable() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        channel.writeInbound(response(HttpResponseStatus.OK, "bye", false));

        assertThat(exchange.responses)
                .containsExactly(new RecordingExchange.Response(200, "bye", false));
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aConnectionClosedMidResponseFailsTheExchangeAndRetiresTheHost() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        channel.close();

        assertThat(exchange.responses).isEmpty();
        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure -> {
                            assertThat(failure.cause())
                                    .isInstanceOf(ConnectionClosedException.class);
                            assertThat(failure.staleCandidate())
                                    .as("a new channel is not stale")
                                    .isFalse();
                        });
        assertThat(connectionsLost).hasValue(1);
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aKeptAliveChannelClosedBeforeItsAnswerMakesTheRequestAStaleCandidate() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        RecordingExchange second = new RecordingExchange();

        handler.begin(channel, second);
        channel.close();

        assertThat(second.failures)
                .singleElement()
                .satisfies(
                        failure -> {
                            assertThat(failure.cause())
                                    .isInstanceOf(ConnectionClosedException.class);
                            assertThat(failure.staleCandidate()).isTrue();
                        });
    }

    @Test
    void closingTheTransportFailsTheRequestWithoutBlamingTheHost() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        transportClosed.set(true);
        channel.close();

        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure -> {
                            assertThat(failure.cause())
                                    .isInstanceOf(IllegalStateException.class)
                                    .hasMessage("RestClient closed before request completed");
                            assertThat(failure.staleCandidate())
                                    .as("not to be sent again")
                                    .isFalse();
                        });
        assertThat(connectionsLost).hasValue(0);
    }

    @Test
    void aResponseNobodyAskedForClosesTheChannel() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);

        channel.writeInbound(response(HttpResponseStatus.OK, "unasked", true));

        assertThat(channel.isOpen()).isFalse();
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aRequestTooLargeForTheServerFailsWithAHintAtTheOption() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        channel.writeInbound(response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "", true));

        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure ->
                                assertThat(failure.cause())
                                        .isInstanceOf(RestClientException.class)
                                        .hasMessageContaining(
                                                RestOptions.CLIENT_MAX_CONTENT_LENGTH.key()));
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aResponseTooLongFailsWithAHintAtTheOptionButDoesNotBlameTheHost() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();

        handler.begin(channel, exchange);
        channel.pipeline()
                .fireExceptionCaught(new TooLongFrameException("Response entity too large."));

        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure ->
                                assertThat(failure.cause())
                                        .isInstanceOf(TooLongFrameException.class)
                                        .hasMessageContaining(
                                                RestOptions.CLIENT_MAX_CONTENT_LENGTH.key()));
        assertThat(connectionsLost).hasValue(0);
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aResetConnectionFailsTheRequestAndRetiresTheHost() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();
        IOException reset = new IOException("Connection reset by peer");

        handler.begin(channel, exchange);
        channel.pipeline().fireExceptionCaught(reset);

        assertThat(exchange.failures)
                .singleElement()
                .satisfies(failure -> assertThat(failure.cause()).isSameAs(reset));
        assertThat(connectionsLost).hasValue(1);
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aSilentServerFailsTheRequestAfterTheIdlenessTimeout() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();
        handler.begin(channel, exchange);

        idleFor(channel, (int) (REQUEST_IDLE_NANOS / CHECK_EVERY_NANOS) - 1);
        assertThat(exchange.failures).isEmpty();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);

        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure ->
                                assertThat(failure.cause())
                                        .isInstanceOf(ConnectionIdleException.class));
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void withoutAnIdlenessTimeoutARequestWaitsForItsAnswer() {
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        RecordingExchange exchange = new RecordingExchange();
        handler.begin(channel, exchange);

        idleFor(channel, 1_000);
        channel.writeInbound(response(HttpResponseStatus.OK, "late", true));

        assertThat(exchange.failures).isEmpty();
        assertThat(exchange.responses).hasSize(1);
    }

    @Test
    void aChannelIdleInThePoolIsClosedAfterThePoolsIdleTimeoutButNotWhileLent() {
        ExchangeHandler handler = handler();
        EmbeddedChannel channel = channel(handler);
        int checksToClose = (int) (POOL_IDLE_NANOS / CHECK_EVERY_NANOS);

        handler.lent();
        idleFor(channel, 2 * checksToClose);
        assertThat(channel.isOpen()).as("lent, though no request runs").isTrue();

        handler.returned();
        idleFor(channel, checksToClose - 1);
        assertThat(channel.isOpen()).isTrue();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aReusedChannelWithoutAnswerHasItsHostCheckedAndAGoneHostFailsTheRequest() {
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        RecordingExchange exchange = new RecordingExchange();
        handler.begin(channel, exchange);

        advance(channel, HOST_CHECK_AFTER.minusNanos(1));
        assertThat(hostChecks).isEmpty();
        advance(channel, Duration.ofNanos(1));

        assertThat(hostChecks).containsExactly(channel.remoteAddress());
        assertThat(exchange.failures)
                .singleElement()
                .satisfies(
                        failure -> {
                            assertThat(failure.cause())
                                    .isInstanceOf(ConnectionClosedException.class)
                                    .hasMessageContaining("it is gone");
                            assertThat(failure.staleCandidate())
                                    .as("not sent again to a gone host")
                                    .isFalse();
                        });
        assertThat(connectionsLost).hasValue(1);
        assertThat(handler.isReusable()).isFalse();
    }

    @Test
    void aHostThatStillAcceptsConnectionsIsOnlySlowSoTheRequestWaits() {
        EmbeddedChannel probe = new EmbeddedChannel();
        connect = host -> probe.newSucceededFuture();
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        RecordingExchange exchange = new RecordingExchange();
        handler.begin(channel, exchange);

        advance(channel, HOST_CHECK_AFTER);
        assertThat(hostChecks).hasSize(1);
        assertThat(probe.isOpen()).as("the check's own connection").isFalse();
        channel.writeInbound(response(HttpResponseStatus.OK, "slow", true));

        assertThat(exchange.failures).isEmpty();
        assertThat(exchange.responses).hasSize(1);
        assertThat(connectionsLost).hasValue(0);
    }

    @Test
    void aFailureToConnectOnThisSideSaysNothingAboutTheHost() {
        connect =
                host ->
                        new EmbeddedChannel()
                                .newFailedFuture(new IOException("Too many open files"));
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        RecordingExchange exchange = new RecordingExchange();
        handler.begin(channel, exchange);

        advance(channel, HOST_CHECK_AFTER);

        assertThat(hostChecks).hasSize(1);
        assertThat(exchange.failures).isEmpty();
        assertThat(connectionsLost).hasValue(0);
    }

    @Test
    void theFirstRequestOnANewChannelHasNoHostCheck() {
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        handler.begin(channel, new RecordingExchange());

        advance(channel, HOST_CHECK_AFTER.multipliedBy(10));

        assertThat(hostChecks).isEmpty();
    }

    @Test
    void anAnswerInTimeCancelsTheHostCheck() {
        ExchangeHandler handler = handler(0);
        EmbeddedChannel channel = channel(handler);
        serveOne(channel, handler);
        handler.begin(channel, new RecordingExchange());

        advance(channel, HOST_CHECK_AFTER.dividedBy(2));
        channel.writeInbound(response(HttpResponseStatus.OK, "in time", true));
        assertThat(channel.runScheduledPendingTasks())
                .as("nothing scheduled any more")
                .isEqualTo(-1);
        advance(channel, HOST_CHECK_AFTER.multipliedBy(10));

        assertThat(hostChecks).isEmpty();
    }

    /** A request in flight that records how it ended. */
    private static final class RecordingExchange implements ExchangeHandler.Exchange {

        record Response(int status, String body, boolean keepAlive) {}

        record Failure(Throwable cause, boolean staleCandidate) {}

        final List<Response> responses = new ArrayList<>();
        final List<Failure> failures = new ArrayList<>();

        @Override
        public void onResponse(
                Channel channel, HttpResponseStatus status, byte[] body, boolean keepAlive) {
            responses.add(
                    new Response(
                            status.code(), new String(body, StandardCharsets.UTF_8), keepAlive));
        }

        @Override
        public void onFailure(Channel channel, Throwable cause, boolean staleCandidate) {
            failures.add(new Failure(cause, staleCandidate));
        }
    }
}
