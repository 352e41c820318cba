package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.transport.PooledExchange.RawResponse;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rest.RestClientConfiguration;
import org.apache.flink.util.ConfigurationException;

import org.apache.flink.shaded.netty4.io.netty.bootstrap.Bootstrap;
import org.apache.flink.shaded.netty4.io.netty.channel.DefaultEventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.local.LocalChannel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keep-alive pools whose channels reach a {@link TestingLocalHttpServer} in memory, with a counting
 * listener: one test's client and server, closed together.
 */
final class InMemoryPools implements AutoCloseable {

    final CountingTransportListener listener = new CountingTransportListener();
    final TestingLocalHttpServer server = new TestingLocalHttpServer();
    private final DefaultEventLoopGroup clientGroup = new DefaultEventLoopGroup(1);
    private KeepAliveChannelPools pools;

    InMemoryPools() throws InterruptedException {
        pools = newPools(ChannelPoolSettings.defaults());
    }

    KeepAliveChannelPools pools() {
        return pools;
    }

    /** Closes the pools and opens new ones with {@code settings}. */
    void reopen(ChannelPoolSettings settings) {
        pools.close();
        pools = newPools(settings);
    }

    private KeepAliveChannelPools newPools(ChannelPoolSettings settings) {
        try {
            return new KeepAliveChannelPools(
                    new Bootstrap().group(clientGroup).channel(LocalChannel.class),
                    TestingLocalHttpServer::addressOf,
                    new Configuration(),
                    RestClientConfiguration.fromConfiguration(new Configuration()),
                    List.of(),
                    null,
                    -1,
                    settings,
                    listener);
        } catch (ConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The server's pool. */
    KeepAliveChannelPools.HostPool pool() {
        return pools.poolFor(server.host, server.port);
    }

    /**
     * A GET to the server; {@code retryIfStale}: sent once more if its kept-alive channel turns out
     * closed.
     */
    CompletableFuture<RawResponse> send(boolean retryIfStale) {
        return new PooledExchange(pool(), server::get, retryIfStale, listener).send();
    }

    /**
     * Runs what the client's event loop has queued until now (closes of channels among them): its
     * one thread runs tasks in order, so a task queued now runs after them.
     */
    void settle() throws Exception {
        clientGroup.submit(() -> {}).get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        pools.close();
        server.close();
        clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
