package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolOptions;
import io.flinkinsight.client.config.ChannelPoolSettings;

import java.util.concurrent.TimeoutException;

/**
 * No pooled REST connection became free in time. It is a {@link TimeoutException}, not an {@code
 * IOException}, so RestClusterClient does not retry it as a connection problem: a busy pool should
 * fail fast and say why.
 */
public final class ChannelAcquireTimeoutException extends TimeoutException {

    private static final long serialVersionUID = 1L;

    public ChannelAcquireTimeoutException(String hostPort, ChannelPoolSettings settings) {
        super(
                "No free REST connection to "
                        + hostPort
                        + " within "
                        + settings.acquireTimeout().toMillis()
                        + " ms: all "
                        + settings.maxConnections()
                        + " connections are busy. Raise '"
                        + ChannelPoolOptions.MAX_CONNECTIONS.key()
                        + "' (now "
                        + settings.maxConnections()
                        + ") or '"
                        + ChannelPoolOptions.ACQUIRE_TIMEOUT.key()
                        + "' (now "
                        + settings.acquireTimeout().toMillis()
                        + " ms).");
    }
}
