package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.io.network.netty.OutboundChannelHandlerFactory;
import org.apache.flink.runtime.io.network.netty.SSLHandlerFactory;
import org.apache.flink.runtime.rest.RestClientConfiguration;

import org.apache.flink.shaded.netty4.io.netty.bootstrap.Bootstrap;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelFuture;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandler;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelOption;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelPipeline;
import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.pool.ChannelPoolHandler;
import org.apache.flink.shaded.netty4.io.netty.channel.pool.FixedChannelPool;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpClientCodec;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpObjectAggregator;
import org.apache.flink.shaded.netty4.io.netty.handler.timeout.IdleStateHandler;
import org.apache.flink.shaded.netty4.io.netty.util.AttributeKey;
import org.apache.flink.shaded.netty4.io.netty.util.concurrent.Future;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * One Netty {@link FixedChannelPool} of keep-alive HTTP channels per REST address (host:port), on a
 * shared event loop. Channels carry one request at a time, are checked to be open when acquired,
 * and are closed after {@code idle-timeout} without a request. {@link #close()} closes our channels
 * only, never the event loop.
 *
 * <p>A peer that vanished without closing (its host lost, a cable pulled) is found within seconds,
 * not after {@code rest.idleness-timeout}: TCP keep-alive probes a channel after {@value
 * KeepAliveSockets#KEEP_ALIVE_IDLE_SECONDS} s without traffic, also while a request waits for its
 * answer, and gives up after {@value KeepAliveSockets#KEEP_ALIVE_PROBES} unanswered probes {@value
 * KeepAliveSockets#KEEP_ALIVE_INTERVAL_SECONDS} s apart. A JobManager that is only slow (a long GC
 * pause) still answers the probes from its kernel, so its requests keep waiting. One lost
 * connection retires every channel of its host that was open then: they are closed when idle and
 * never lent again, and the next request opens a new connection. A request written after the peer
 * vanished but before the probes found it gets no probe (TCP does not probe while bytes are
 * unacknowledged, and Java's NIO sockets offer no {@code TCP_USER_TIMEOUT}); so a request on a
 * reused channel without an answer after {@value #HOST_CHECK_AFTER_SECONDS} s has its host checked
 * with a new connection (at most {@value #HOST_CHECK_CONNECT_TIMEOUT_MILLIS} ms to connect): a host
 * that accepts none is gone, and the request fails with its channels retired; one that accepts is
 * only slow ({@link ExchangeHandler}).
 */
final class KeepAliveChannelPools implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KeepAliveChannelPools.class);

    /**
     * Past the keep-alive verdict on an idle channel (5 s + 3 × 1 s), so a request written just
     * before it is covered.
     */
    @VisibleForTesting static final int HOST_CHECK_AFTER_SECONDS = 10;

    static final int HOST_CHECK_CONNECT_TIMEOUT_MILLIS = 5_000;

    /** The retirement round of its host's pool a channel was opened in. */
    private static final AttributeKey<Integer> GENERATION =
            AttributeKey.valueOf("insight.channel.generation");

    private final Bootstrap bootstrap;
    private final BiFunction<String, Integer, SocketAddress> addressOf;
    private final ChannelPoolSettings settings;
    private final TransportListener listener;
    private final Configuration configuration;
    private final RestClientConfiguration restConfiguration;
    private final List<OutboundChannelHandlerFactory> outboundHandlerFactories;
    @Nullable private final String sslHost;
    private final int sslPort;

    private final Map<String, HostPool> pools = new ConcurrentHashMap<>();
    private final Set<Channel> openChannels = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    KeepAliveChannelPools(
            EventLoopGroup group,
            Configuration configuration,
            RestClientConfiguration restConfiguration,
            List<OutboundChannelHandlerFactory> outboundHandlerFactories,
            @Nullable String sslHost,
            int sslPort,
            ChannelPoolSettings settings,
            TransportListener listener) {
        this(
                KeepAliveSockets.socketBootstrap(group, restConfiguration),
                InetSocketAddress::createUnresolved,
                configuration,
                restConfiguration,
                outboundHandlerFactories,
                sslHost,
                sslPort,
                settings,
                listener);
    }

    /**
     * Pools whose channels {@code bootstrap} opens (with its group, channel type and options) to
     * the address {@code addressOf} gives a host and port: in-memory channels in tests.
     */
    @VisibleForTesting
    KeepAliveChannelPools(
            Bootstrap bootstrap,
            BiFunction<String, Integer, SocketAddress> addressOf,
            Configuration configuration,
            RestClientConfiguration restConfiguration,
            List<OutboundChannelHandlerFactory> outboundHandlerFactories,
            @Nullable String sslHost,
            int sslPort,
            ChannelPoolSettings settings,
            TransportListener listener) {
        this.bootstrap = bootstrap;
        this.addressOf = addressOf;
        this.configuration = configuration;
        this.restConfiguration = restConfiguration;
        this.outboundHandlerFactories = outboundHandlerFactories;
        this.sslHost = sslHost;
        this.sslPort = sslPort;
        this.settings = settings;
        this.listener = listener;
    }

    /**
     * A bare connection to {@code host}, only to see whether it still accepts one (closed by the
     * caller).
     */
    private ChannelFuture connectForHostCheck(SocketAddress host) {
        if (closed) {
            throw new IllegalStateException("RestClient is already closed");
        }
        long configured = restConfiguration.getConnectionTimeout(); // 0: none, as Netty reads it
        int connectTimeoutMillis =
                (int)
                        (configured > 0
                                ? Math.min(HOST_CHECK_CONNECT_TIMEOUT_MILLIS, configured)
                                : HOST_CHECK_CONNECT_TIMEOUT_MILLIS);
        return bootstrap
                .clone()
                .handler(new ChannelInboundHandlerAdapter())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .connect(host);
    }

    /** The pool of {@code host:port}, created on first use. */
    HostPool poolFor(String host, int port) {
        if (closed) {
            throw new IllegalStateException("RestClient is already closed");
        }
        return pools.computeIfAbsent(
                host + ':' + port, hostPort -> new HostPool(hostPort, host, port));
    }

    boolean isClosed() {
        return closed;
    }

    /** Currently open channels of all pools (in use or idle). */
    @VisibleForTesting
    int openChannelCount() {
        return openChannels.size();
    }

    /** Fails waiting acquires and closes every channel; returns at once. */
    @Override
    public void close() {
        closed = true;
        for (HostPool pool : pools.values()) {
            try {
                pool.channels.closeAsync();
            } catch (Throwable t) {
                // the shared event loop may already be shut down; our channels close with it, and
                // the rest of this
                // close goes on whatever failed
                LOG.debug("Could not close the channel pool of {}.", pool.hostPort, t);
            }
        }
        for (Channel channel : openChannels) {
            channel.close();
        }
    }

    /** The pool of one REST address. */
    final class HostPool {
        final String hostPort;
        private final FixedChannelPool channels;
        private final Set<Channel> open = ConcurrentHashMap.newKeySet();

        /**
         * Bumped when a connection to the host was lost: channels opened before are not lent again.
         */
        private final AtomicInteger generation = new AtomicInteger();

        private HostPool(String hostPort, String host, int port) {
            this.hostPort = hostPort;
            this.channels =
                    new FixedChannelPool(
                            bootstrap.clone().remoteAddress(addressOf.apply(host, port)),
                            new PipelineSetup(this),
                            this::isHealthy,
                            FixedChannelPool.AcquireTimeoutAction.FAIL,
                            settings.acquireTimeout().toMillis(),
                            settings.maxConnections(),
                            Integer.MAX_VALUE, // waiting acquires are bounded by the acquire
                            // timeout
                            true,
                            true); // most recently used first, so surplus channels go idle and get
            // closed
        }

        Future<Channel> acquire() {
            return channels.acquire();
        }

        void release(Channel channel) {
            try {
                channels.release(channel);
            } catch (Throwable t) {
                // a channel the pool cannot take back is closed, whatever failed, so it is not
                // leaked
                channel.close();
            }
        }

        // Checked on the channel's event loop, like the idle close, so the two never race.
        private Future<Boolean> isHealthy(Channel channel) {
            ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
            Integer born = channel.attr(GENERATION).get();
            return channel.eventLoop()
                    .newSucceededFuture(
                            channel.isActive()
                                    && handler != null
                                    && handler.isReusable()
                                    && born != null
                                    && born == generation.get());
        }

        /**
         * A connection to the host was lost: every channel open now is retired, the idle ones
         * closed at once.
         */
        void retire() {
            generation.incrementAndGet();
            for (Channel channel : open) {
                try {
                    channel.eventLoop()
                            .execute(
                                    () -> {
                                        ExchangeHandler handler =
                                                channel.pipeline().get(ExchangeHandler.class);
                                        if (handler == null || !handler.isLent()) {
                                            channel.close();
                                        }
                                    });
                } catch (RejectedExecutionException e) {
                    // the channel's event loop is shutting down, and closes the channel with it;
                    // its callers (a
                    // failing request among them) go on
                }
            }
        }

        /**
         * A clear error for a failed acquire: the pool was busy for too long, or the connect
         * failed.
         */
        Throwable acquireFailure(Throwable cause) {
            if (cause instanceof TimeoutException) {
                return new ChannelAcquireTimeoutException(hostPort, settings);
            }
            if (closed) {
                return new IllegalStateException(
                        "RestClient closed before request completed", cause);
            }
            return cause;
        }
    }

    /**
     * Builds the pipeline of each new channel of one host's pool and tells its handler when it is
     * lent out.
     */
    private final class PipelineSetup implements ChannelPoolHandler {

        private final HostPool pool;

        PipelineSetup(HostPool pool) {
            this.pool = pool;
        }

        @Override
        public void channelCreated(Channel channel) throws Exception {
            channel.attr(GENERATION).set(pool.generation.get());
            openChannels.add(channel);
            pool.open.add(channel);
            channel.closeFuture()
                    .addListener(
                            ignored -> {
                                openChannels.remove(channel);
                                pool.open.remove(channel);
                            });
            if (closed) {
                channel.close();
            }
            ChannelPipeline pipeline = channel.pipeline();
            SSLHandlerFactory sslHandlerFactory = restConfiguration.getSslHandlerFactory();
            if (sslHandlerFactory != null) {
                // the same host and port as RestClient uses for SSL (the JobManager URL, for host
                // name checks)
                pipeline.addLast(
                        "ssl",
                        sslHost == null
                                ? sslHandlerFactory.createNettySSLHandler(channel.alloc())
                                : sslHandlerFactory.createNettySSLHandler(
                                        channel.alloc(), sslHost, sslPort));
            }
            long poolIdleMillis = settings.idleTimeout().toMillis();
            long requestIdleMillis = restConfiguration.getIdlenessTimeout();
            long checkEveryMillis =
                    requestIdleMillis > 0
                            ? Math.min(poolIdleMillis, requestIdleMillis)
                            : poolIdleMillis;
            // before the codec, so that any bytes read or written count as activity
            pipeline.addLast(new IdleStateHandler(0, 0, checkEveryMillis, TimeUnit.MILLISECONDS));
            pipeline.addLast(new HttpClientCodec());
            pipeline.addLast(new HttpObjectAggregator(restConfiguration.getMaxContentLength()));
            for (OutboundChannelHandlerFactory factory : outboundHandlerFactories) {
                Optional<ChannelHandler> handler = factory.createHandler(configuration);
                if (handler.isPresent()) {
                    pipeline.addLast(handler.get());
                }
            }
            pipeline.addLast(
                    new ExchangeHandler(
                            listener,
                            TimeUnit.MILLISECONDS.toNanos(checkEveryMillis),
                            TimeUnit.MILLISECONDS.toNanos(poolIdleMillis),
                            TimeUnit.MILLISECONDS.toNanos(Math.max(requestIdleMillis, 0)),
                            KeepAliveChannelPools.this::isClosed,
                            pool::retire,
                            TimeUnit.SECONDS.toNanos(HOST_CHECK_AFTER_SECONDS),
                            KeepAliveChannelPools.this::connectForHostCheck));
        }

        @Override
        public void channelAcquired(Channel channel) {
            ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
            if (handler != null) {
                handler.lent();
            }
        }

        @Override
        public void channelReleased(Channel channel) {
            ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
            if (handler != null) {
                handler.returned();
            }
        }
    }
}
