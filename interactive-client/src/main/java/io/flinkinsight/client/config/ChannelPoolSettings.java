package io.flinkinsight.client.config;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Duration;
import java.util.Objects;

/**
 * Validated settings of the keep-alive channel pool, within the ranges of {@link
 * ChannelPoolOptions}; read from a configuration with the client's other options by {@code
 * InteractiveClientSettings}.
 *
 * @param maxConnections most open connections per JobManager REST address
 * @param acquireTimeout how long a request waits for a free connection
 * @param idleTimeout how long an unused connection stays open
 */
public record ChannelPoolSettings(
        int maxConnections, Duration acquireTimeout, Duration idleTimeout) {

    public ChannelPoolSettings {
        Objects.requireNonNull(acquireTimeout, "acquireTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        check("maxConnections", maxConnections, ChannelPoolOptions.MAX_CONNECTIONS_RANGE);
        check("acquireTimeout", acquireTimeout, ChannelPoolOptions.ACQUIRE_TIMEOUT_RANGE);
        check("idleTimeout", idleTimeout, ChannelPoolOptions.IDLE_TIMEOUT_RANGE);
    }

    private static <T extends Comparable<? super T>> void check(
            String name, T value, OptionRange<T> range) {
        if (!range.contains(value)) {
            throw new IllegalArgumentException(name + " must be " + range + ": " + value);
        }
    }

    /** The defaults of {@link ChannelPoolOptions}. */
    @VisibleForTesting
    public static ChannelPoolSettings defaults() {
        return new ChannelPoolSettings(
                ChannelPoolOptions.MAX_CONNECTIONS.defaultValue(),
                ChannelPoolOptions.ACQUIRE_TIMEOUT.defaultValue(),
                ChannelPoolOptions.IDLE_TIMEOUT.defaultValue());
    }
}
