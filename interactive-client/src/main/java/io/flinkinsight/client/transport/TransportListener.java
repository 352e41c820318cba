package io.flinkinsight.client.transport;

/**
 * Callbacks for the figures of the keep-alive REST transport. They are called on Netty and request
 * threads, so implementations must be cheap, thread-safe and must not throw.
 */
public interface TransportListener {

    /** A new TCP connection to the JobManager's REST endpoint was opened. */
    void channelOpened();

    /** A request rode an already open keep-alive channel. */
    void channelReused();

    /** A REST request ended (pooled, or a multipart upload on its own connection). */
    void requestFinished(long latencyNanos, boolean success);

    /** {@code +1} when a request starts, {@code -1} when it ends. */
    void inFlightChanged(int delta);

    /** A listener that ignores everything. */
    TransportListener NONE =
            new TransportListener() {
                @Override
                public void channelOpened() {}

                @Override
                public void channelReused() {}

                @Override
                public void requestFinished(long latencyNanos, boolean success) {}

                @Override
                public void inFlightChanged(int delta) {}
            };
}
