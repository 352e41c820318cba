package io.flinkinsight.client.transport;

import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.rest.ConnectionClosedException;
import org.apache.flink.runtime.rest.ConnectionIdleException;
import org.apache.flink.runtime.rest.util.RestClientException;

import org.apache.flink.shaded.netty4.io.netty.buffer.ByteBufUtil;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelFuture;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandlerContext;
import org.apache.flink.shaded.netty4.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.TooLongFrameException;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpObject;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpUtil;
import org.apache.flink.shaded.netty4.io.netty.handler.timeout.IdleStateEvent;

import javax.annotation.Nullable;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketAddress;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;

/**
 * The last handler of a pooled channel: hands each full response to the one request in flight, and
 * closes the channel when it sat unused for the pool's idle timeout (or fails the request when the
 * server stays silent for {@code rest.idleness-timeout}, as Flink's RestClient does). A request on
 * a reused channel that has no answer after {@code hostCheckAfter} has its host checked once: if
 * the host no longer accepts a connection it is gone (a request written to a vanished host gets no
 * TCP keep-alive probe while its bytes are unacknowledged), so the request fails and the host's
 * channels are retired; a host that accepts is only slow, and the request waits on. All state is
 * confined to the channel's event loop.
 */
final class ExchangeHandler extends SimpleChannelInboundHandler<HttpObject> {

    /**
     * The request in flight on the channel, told how it ended; {@link PooledExchange} outside
     * tests.
     */
    interface Exchange {
        /** The full response arrived. */
        void onResponse(Channel channel, HttpResponseStatus status, byte[] body, boolean keepAlive);

        /**
         * The request failed; {@code staleCandidate}: the channel had served before and closed
         * before any answer.
         */
        void onFailure(Channel channel, Throwable cause, boolean staleCandidate);
    }

    private final TransportListener listener;
    private final long checkEveryNanos;
    private final long poolIdleNanos;
    private final long
            requestIdleNanos; // 0: requests never time out, as with rest.idleness-timeout 0
    private final BooleanSupplier transportClosed;
    private final Runnable connectionLost;
    private final long hostCheckAfterNanos; // 0: never
    private final Function<SocketAddress, ChannelFuture> connectToHost;

    private Exchange current;
    private boolean currentOnUsedChannel;
    private int served;
    private boolean lent;
    private boolean reusable = true;
    private long idleChecks;
    @Nullable private ScheduledFuture<?> hostCheck;

    ExchangeHandler(
            TransportListener listener,
            long checkEveryNanos,
            long poolIdleNanos,
            long requestIdleNanos,
            BooleanSupplier transportClosed,
            Runnable connectionLost,
            long hostCheckAfterNanos,
            Function<SocketAddress, ChannelFuture> connectToHost) {
        this.connectionLost = connectionLost;
        this.hostCheckAfterNanos = hostCheckAfterNanos;
        this.connectToHost = connectToHost;
        this.listener = listener;
        this.checkEveryNanos = checkEveryNanos;
        this.poolIdleNanos = poolIdleNanos;
        this.requestIdleNanos = requestIdleNanos;
        this.transportClosed = transportClosed;
    }

    /** Whether the channel already carried a request (so a new one reuses it). */
    boolean hasServed() {
        return served > 0;
    }

    /** False once the channel must not carry another request (server said close, or an error). */
    boolean isReusable() {
        return reusable;
    }

    void lent() {
        lent = true;
    }

    void returned() {
        lent = false;
    }

    /** Whether a request holds the channel now. */
    boolean isLent() {
        return lent;
    }

    /**
     * Starts {@code exchange} on {@code channel}, this handler's; the caller writes the request
     * next.
     */
    void begin(Channel channel, Exchange exchange) {
        current = exchange;
        currentOnUsedChannel = served > 0;
        lent = true;
        if (currentOnUsedChannel && hostCheckAfterNanos > 0) {
            hostCheck =
                    channel.eventLoop()
                            .schedule(
                                    () -> checkHost(channel, exchange),
                                    hostCheckAfterNanos,
                                    TimeUnit.NANOSECONDS);
        }
    }

    /** The request in flight ended (answered or failed): no host check for it any more. */
    private void ended() {
        current = null;
        ScheduledFuture<?> check = hostCheck;
        if (check != null) {
            hostCheck = null;
            check.cancel(false);
        }
    }

    /**
     * {@code exchange} has had no answer on this reused channel for hostCheckAfter: is its host
     * still there?
     */
    private void checkHost(Channel channel, Exchange exchange) {
        if (current != exchange) {
            return;
        }
        SocketAddress host = channel.remoteAddress();
        ChannelFuture connected;
        try {
            connected = connectToHost.apply(host);
        } catch (Throwable t) {
            // no check possible (e.g. shutting down): the request waits as it would without one
            return;
        }
        connected.addListener(
                done -> {
                    if (done.isSuccess()) {
                        // the host accepts connections: it is only slow, so the request waits on
                        connected.channel().close();
                        return;
                    }
                    Throwable cause = done.cause();
                    if (!(cause instanceof ConnectException
                            || cause instanceof NoRouteToHostException)) {
                        // a failure on this side (no file handle or port left, shutting down) says
                        // nothing about the host
                        return;
                    }
                    channel.eventLoop()
                            .execute(
                                    () -> {
                                        if (current != exchange) {
                                            return;
                                        }
                                        ended();
                                        reusable = false;
                                        exchange.onFailure(
                                                channel,
                                                new ConnectionClosedException(
                                                        "No answer from "
                                                                + host
                                                                + " within "
                                                                + TimeUnit.NANOSECONDS.toSeconds(
                                                                        hostCheckAfterNanos)
                                                                + " s on a kept-alive connection,"
                                                                + " and the host accepts no new connection: it is gone ("
                                                                + cause
                                                                + ")."),
                                                false);
                                        connectionLost.run();
                                    });
                });
    }

    /**
     * Fails {@code exchange} if it is still the one in flight (e.g. its request could not be
     * written).
     */
    void fail(Channel channel, Exchange exchange, Throwable cause) {
        if (current == exchange) {
            ended();
            reusable = false;
            exchange.onFailure(channel, cause, currentOnUsedChannel);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        listener.channelOpened();
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        Exchange exchange = current;
        if (exchange == null) {
            // nothing was asked on this channel: the server is confused, do not trust the channel
            // any more
            reusable = false;
            ctx.close();
            return;
        }
        ended();
        served++;
        if (msg instanceof HttpResponse response
                && response.status().equals(REQUEST_ENTITY_TOO_LARGE)) {
            reusable = false;
            exchange.onFailure(
                    ctx.channel(),
                    new RestClientException(
                            String.format(
                                    REQUEST_ENTITY_TOO_LARGE + ". Try to raise [%s]",
                                    RestOptions.CLIENT_MAX_CONTENT_LENGTH.key()),
                            response.status()),
                    false);
        } else if (msg instanceof FullHttpResponse response) {
            boolean keepAlive = HttpUtil.isKeepAlive(response);
            reusable = keepAlive;
            exchange.onResponse(
                    ctx.channel(),
                    response.status(),
                    ByteBufUtil.getBytes(response.content()),
                    keepAlive);
        } else {
            reusable = false;
            HttpResponseStatus status =
                    msg instanceof HttpResponse response
                            ? response.status()
                            : HttpResponseStatus.INTERNAL_SERVER_ERROR;
            exchange.onFailure(
                    ctx.channel(),
                    new RestClientException(
                            "Implementation error: Received a response that wasn't a FullHttpResponse.",
                            status),
                    false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        reusable = false;
        Exchange exchange = current;
        if (exchange != null) {
            ended();
            boolean closedByUs = transportClosed.getAsBoolean();
            if (!closedByUs) {
                // the peer went away under a request: the host's other kept-alive channels are
                // suspect too
                connectionLost.run();
            }
            exchange.onFailure(
                    ctx.channel(),
                    closedByUs
                            ? new IllegalStateException(
                                    "RestClient closed before request completed")
                            : new ConnectionClosedException("Channel became inactive."),
                    currentOnUsedChannel && !closedByUs);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        reusable = false;
        Exchange exchange = current;
        ended();
        Throwable error =
                cause instanceof TooLongFrameException
                        ? new TooLongFrameException(
                                String.format(
                                        cause.getMessage() + " Try to raise [%s]",
                                        RestOptions.CLIENT_MAX_CONTENT_LENGTH.key()))
                        : cause;
        if (cause instanceof IOException) {
            // a reset or a failed keep-alive probe: the host's other kept-alive channels are
            // suspect too
            connectionLost.run();
        }
        if (exchange != null) {
            exchange.onFailure(ctx.channel(), error, false);
        } else {
            ctx.close();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (!(evt instanceof IdleStateEvent idle)) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        // IdleStateHandler fires every checkEvery while no byte moves; count them to know how long
        // it has been
        idleChecks = idle.isFirst() ? 1 : idleChecks + 1;
        long idleNanos = idleChecks * checkEveryNanos;
        Exchange exchange = current;
        if (exchange != null) {
            if (requestIdleNanos > 0 && idleNanos >= requestIdleNanos) {
                ended();
                reusable = false;
                exchange.onFailure(
                        ctx.channel(), new ConnectionIdleException("Channel became idle."), false);
            }
        } else if (!lent && idleNanos >= poolIdleNanos) {
            reusable = false;
            ctx.close();
        }
    }
}
