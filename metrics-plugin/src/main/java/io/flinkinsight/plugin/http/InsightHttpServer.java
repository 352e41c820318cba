package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.InsightOptions;

import org.apache.flink.annotation.VisibleForTesting;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's one HTTP server: binds the first free port of the range, serves until closed. A
 * failed bind is logged once at ERROR and leaves the process (and the reporters) running without a
 * server; it never throws.
 */
public final class InsightHttpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InsightHttpServer.class);

    /** Requests queued for the workers beyond those being rendered; more get 503. */
    private static final int WORKER_QUEUE = 32;

    private final HttpServerSettings settings;
    private final RequestHandler handler;
    private final RefusalReason.Counts refusals = new RefusalReason.Counts();
    private EventLoopGroup group;
    private ThreadPoolExecutor workers;
    private volatile Channel serverChannel;

    /**
     * @param handler answers the requests the server admits; the server closes it with itself
     */
    public InsightHttpServer(HttpServerSettings settings, RequestHandler handler) {
        this.settings = settings;
        this.handler = handler;
    }

    /**
     * Binds and starts serving. Returns the bound address, or null when no port was free (logged).
     */
    public synchronized InetSocketAddress start() {
        if (serverChannel != null) {
            return (InetSocketAddress) serverChannel.localAddress();
        }
        try {
            group =
                    new NioEventLoopGroup(
                            1, new DefaultThreadFactory("flink-insight-http-io", true));
            workers =
                    new ThreadPoolExecutor(
                            settings.threads(),
                            settings.threads(),
                            60,
                            TimeUnit.SECONDS,
                            new ArrayBlockingQueue<>(WORKER_QUEUE),
                            daemonThreads("flink-insight-http-worker-"),
                            new ThreadPoolExecutor.AbortPolicy());
            workers.allowCoreThreadTimeOut(true);
            ServerBootstrap bootstrap =
                    new ServerBootstrap()
                            .group(group)
                            .channel(NioServerSocketChannel.class)
                            .option(ChannelOption.SO_BACKLOG, 128)
                            .childHandler(
                                    new InsightChannelInitializer(
                                            settings, handler, refusals, workers));
            Throwable lastError = null;
            PrimitiveIterator.OfInt ports = settings.ports().iterator();
            while (ports.hasNext()) {
                int port = ports.nextInt();
                ChannelFuture bound =
                        bootstrap
                                .bind(new InetSocketAddress(settings.bindHost(), port))
                                .awaitUninterruptibly();
                if (bound.isSuccess()) {
                    serverChannel = bound.channel();
                    InetSocketAddress address = (InetSocketAddress) serverChannel.localAddress();
                    LOG.info(
                            "Flink Insight HTTP server listening on {}://{}:{}",
                            settings.tls() == null ? "http" : "https",
                            address.getAddress().getHostAddress(),
                            address.getPort());
                    return address;
                }
                lastError = bound.cause();
                if (!(lastError instanceof BindException)) {
                    break; // e.g. an unknown host: every other port would fail the same way
                }
            }
            LOG.error(
                    "Flink Insight HTTP server not started: no port of {}{}={} is free on host {} ({})."
                            + " Metrics keep being collected; set a free port or range to serve them.",
                    InsightOptions.USER_PREFIX,
                    InsightOptions.PORT.key(),
                    settings.ports(),
                    settings.bindHost(),
                    lastError);
        } catch (RuntimeException e) {
            // The server is optional: metrics keep being collected (and the reporter opens) without
            // it.
            LOG.error(
                    "Flink Insight HTTP server not started on {}:{} ({}).",
                    settings.bindHost(),
                    settings.ports(),
                    e.toString());
        }
        stopThreads();
        return null;
    }

    /**
     * Requests not served (and connections closed at once), by reason, since the server was made.
     */
    public Map<RefusalReason, Long> refusals() {
        return refusals.snapshot();
    }

    /** The bound port, or -1 when not serving. */
    public int port() {
        Channel c = serverChannel;
        return c == null ? -1 : ((InetSocketAddress) c.localAddress()).getPort();
    }

    @VisibleForTesting
    public boolean isRunning() {
        Channel c = serverChannel;
        return c != null && c.isActive();
    }

    /** Stops listening (the port is free when this returns) and stops the server's threads. */
    @Override
    public synchronized void close() {
        Channel c = serverChannel;
        serverChannel = null;
        if (c != null) {
            c.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        stopThreads();
        handler.close();
    }

    private void stopThreads() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS)
                    .awaitUninterruptibly(3, TimeUnit.SECONDS);
            group = null;
        }
        if (workers != null) {
            workers.shutdownNow();
            workers = null;
        }
    }

    /**
     * Daemon threads named {@code prefix1}, {@code prefix2}, ...: they never keep a Flink process
     * alive.
     */
    public static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
