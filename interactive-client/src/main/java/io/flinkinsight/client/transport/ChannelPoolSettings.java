package io.flinkinsight.client.transport;

import io.flinkinsight.client.ConfigChecks;

import org.apache.flink.configuration.Configuration;

import java.time.Duration;
import java.util.Objects;

/**
 * Validated settings of the keep-alive channel pool (see {@link ChannelPoolOptions}).
 *
 * @param maxConnections most open connections per JobManager REST address, at least 1
 * @param acquireTimeout how long a request waits for a free connection, positive
 * @param idleTimeout how long an unused connection stays open, positive
 */
public record ChannelPoolSettings(int maxConnections, Duration acquireTimeout, Duration idleTimeout) {

    private static final Duration MIN_DURATION = Duration.ofMillis(1);
    private static final Duration MAX_DURATION = Duration.ofDays(1);

    public ChannelPoolSettings {
        Objects.requireNonNull(acquireTimeout, "acquireTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        if (acquireTimeout.compareTo(MIN_DURATION) < 0 || acquireTimeout.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("acquireTimeout must be between 1 ms and 1 d: " + acquireTimeout);
        }
        if (idleTimeout.compareTo(MIN_DURATION) < 0 || idleTimeout.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("idleTimeout must be between 1 ms and 1 d: " + idleTimeout);
        }
    }

    /** The defaults of {@link ChannelPoolOptions}. */
    public static ChannelPoolSettings defaults() {
        return fromConfiguration(new Configuration());
    }

    /**
     * Reads and checks the pool options of {@code conf}.
     *
     * @throws org.apache.flink.configuration.IllegalConfigurationException naming the key and the accepted range
     */
    public static ChannelPoolSettings fromConfiguration(Configuration conf) {
        return new ChannelPoolSettings(
                ConfigChecks.integer(conf, ChannelPoolOptions.MAX_CONNECTIONS, 1, Integer.MAX_VALUE),
                ConfigChecks.duration(conf, ChannelPoolOptions.ACQUIRE_TIMEOUT, MIN_DURATION, MAX_DURATION),
                ConfigChecks.duration(conf, ChannelPoolOptions.IDLE_TIMEOUT, MIN_DURATION, MAX_DURATION));
    }
}
