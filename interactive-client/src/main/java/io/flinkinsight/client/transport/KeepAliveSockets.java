package io.flinkinsight.client.transport;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.runtime.rest.RestClientConfiguration;

import org.apache.flink.shaded.netty4.io.netty.bootstrap.Bootstrap;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelOption;
import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.socket.nio.NioChannelOption;
import org.apache.flink.shaded.netty4.io.netty.channel.socket.nio.NioSocketChannel;

import jdk.net.ExtendedSocketOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * The TCP channels of {@link KeepAliveChannelPools}, with keep-alive probes: a channel without
 * traffic for {@value #KEEP_ALIVE_IDLE_SECONDS} s is probed, and given up after {@value
 * #KEEP_ALIVE_PROBES} unanswered probes {@value #KEEP_ALIVE_INTERVAL_SECONDS} s apart.
 */
final class KeepAliveSockets {

    /** The pools' logger: what is said here is said of them. */
    private static final Logger LOG = LoggerFactory.getLogger(KeepAliveChannelPools.class);

    @VisibleForTesting static final int KEEP_ALIVE_IDLE_SECONDS = 5;
    @VisibleForTesting static final int KEEP_ALIVE_INTERVAL_SECONDS = 1;
    @VisibleForTesting static final int KEEP_ALIVE_PROBES = 3;

    private KeepAliveSockets() {}

    /** TCP channels on {@code group}, with keep-alive probes. */
    static Bootstrap socketBootstrap(
            EventLoopGroup group, RestClientConfiguration restConfiguration) {
        Bootstrap bootstrap =
                new Bootstrap()
                        .group(group)
                        .channel(NioSocketChannel.class)
                        .option(
                                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                                Math.toIntExact(restConfiguration.getConnectionTimeout()))
                        .option(ChannelOption.SO_KEEPALIVE, true);
        keepAliveTimings(bootstrap);
        return bootstrap;
    }

    /**
     * Probe timings of TCP keep-alive, where the JDK offers them ({@code
     * jdk.net.ExtendedSocketOptions}, on Linux and macOS); elsewhere the system's (often 2 h),
     * which is logged once.
     */
    private static void keepAliveTimings(Bootstrap bootstrap) {
        Set<java.net.SocketOption<?>> supported;
        try (java.nio.channels.SocketChannel probe = java.nio.channels.SocketChannel.open()) {
            supported = probe.supportedOptions();
        } catch (Exception e) {
            supported = Set.of();
        }
        if (supported.contains(ExtendedSocketOptions.TCP_KEEPIDLE)
                && supported.contains(ExtendedSocketOptions.TCP_KEEPINTERVAL)
                && supported.contains(ExtendedSocketOptions.TCP_KEEPCOUNT)) {
            bootstrap
                    .option(
                            NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE),
                            KEEP_ALIVE_IDLE_SECONDS)
                    .option(
                            NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL),
                            KEEP_ALIVE_INTERVAL_SECONDS)
                    .option(
                            NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT),
                            KEEP_ALIVE_PROBES);
        } else {
            LOG.info(
                    "This JDK cannot set TCP keep-alive timings; a vanished JobManager is found after the system's"
                            + " keep-alive time or rest.idleness-timeout.");
        }
    }
}
