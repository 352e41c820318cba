package io.flinkinsight.client.pool;

import org.apache.flink.runtime.rest.ConnectionException;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;

/**
 * Tells failures that mean "the JobManager cannot be reached" from failures of the request itself.
 */
public final class ConnectionErrors {

    private static final int MAX_CAUSES = 32;

    private ConnectionErrors() {}

    /**
     * Whether {@code failure} or one of its causes is a connection failure (refused, reset, closed,
     * timed out).
     */
    public static boolean isConnectionError(Throwable failure) {
        Throwable t = failure;
        for (int i = 0; t != null && i < MAX_CAUSES; i++) {
            // ConnectException covers Netty's ConnectTimeoutException
            if (t instanceof ConnectException
                    || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException
                    || t instanceof SocketTimeoutException
                    || t instanceof ClosedChannelException
                    || t instanceof ConnectionException) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }
}
