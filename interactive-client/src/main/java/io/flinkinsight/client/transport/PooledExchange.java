package io.flinkinsight.client.transport;

import org.apache.flink.runtime.rest.ConnectionClosedException;
import org.apache.flink.runtime.rest.ConnectionException;

import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.flink.shaded.netty4.io.netty.util.concurrent.Future;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One request on a pooled channel: acquire, write, wait for the full response, release. A GET whose
 * reused channel turns out closed before any response (the server dropped a stale keep-alive
 * connection) is sent once more.
 */
final class PooledExchange implements ExchangeHandler.Exchange {

    private static final Logger LOG = LoggerFactory.getLogger(PooledExchange.class);

    /** A full response, not yet parsed. */
    record RawResponse(HttpResponseStatus status, byte[] body) {}

    private final KeepAliveChannelPools.HostPool pool;
    private final Supplier<FullHttpRequest> request;
    private final boolean retryIfStale;
    private final TransportListener listener;
    private final CompletableFuture<RawResponse> response = new CompletableFuture<>();
    private volatile int attempts;

    PooledExchange(
            KeepAliveChannelPools.HostPool pool,
            Supplier<FullHttpRequest> request,
            boolean retryIfStale,
            TransportListener listener) {
        this.pool = pool;
        this.request = request;
        this.retryIfStale = retryIfStale;
        this.listener = listener;
    }

    /** Sends the request; the future completes on a Netty thread. */
    CompletableFuture<RawResponse> send() {
        attempt();
        return response;
    }

    private void attempt() {
        attempts++;
        Future<Channel> acquired;
        try {
            acquired = pool.acquire();
        } catch (Throwable t) {
            // e.g. the pools are closing: the request fails from its future, as every failure does
            response.completeExceptionally(pool.acquireFailure(t));
            return;
        }
        acquired.addListener(
                done -> {
                    if (!done.isSuccess()) {
                        response.completeExceptionally(pool.acquireFailure(done.cause()));
                        return;
                    }
                    Channel channel = (Channel) done.getNow();
                    try {
                        if (channel.eventLoop().inEventLoop()) {
                            write(channel);
                        } else {
                            channel.eventLoop().execute(() -> write(channel));
                        }
                    } catch (Throwable t) {
                        // e.g. the channel's event loop is shutting down: the request fails from
                        // its future and the channel
                        // goes back, whatever failed
                        onFailure(channel, t, false);
                    }
                });
    }

    private void write(Channel channel) {
        ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
        boolean used = handler != null && handler.hasServed();
        if (handler == null || !channel.isActive()) {
            onFailure(channel, new ConnectionClosedException("Channel became inactive."), used);
            return;
        }
        handler.begin(channel, this);
        if (used) {
            listener.channelReused();
        }
        channel.writeAndFlush(request.get())
                .addListener(
                        written -> {
                            if (!written.isSuccess()) {
                                handler.fail(
                                        channel,
                                        this,
                                        new ConnectionException(
                                                "Could not write request.", written.cause()));
                            }
                        });
    }

    /** The full response arrived; called on the channel's event loop. */
    @Override
    public void onResponse(
            Channel channel, HttpResponseStatus status, byte[] body, boolean keepAlive) {
        if (!keepAlive) {
            channel.close();
        }
        pool.release(channel);
        response.complete(new RawResponse(status, body));
    }

    /**
     * The request failed on {@code channel}; called on its event loop. {@code staleCandidate}: the
     * channel had carried requests before and closed before any response to this one.
     */
    @Override
    public void onFailure(Channel channel, Throwable cause, boolean staleCandidate) {
        channel.close();
        pool.release(channel);
        if (staleCandidate && retryIfStale && attempts == 1) {
            LOG.debug(
                    "A kept-alive channel to {} was closed by the server; sending the GET again.",
                    pool.hostPort);
            attempt();
        } else {
            response.completeExceptionally(cause);
        }
    }
}
