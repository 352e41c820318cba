package io.flinkinsight.client.transport;

import io.flinkinsight.client.flink.ClientBoundaries;
import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.util.Preconditions;

import org.slf4j.LoggerFactory;

/**
 * Keeps a faulty listener from breaking requests or Netty's pipeline: figures are never worth a
 * failure.
 */
final class GuardedListener implements TransportListener {

    /** Failures are logged by the REST client that hands its listener here. */
    private static final FlinkBoundary LISTENER_CALLS =
            ClientBoundaries.logTo(LoggerFactory.getLogger(KeepAliveRestClient.class));

    private static final String CALL = "a transport listener (its figures may be wrong)";

    private final TransportListener delegate;

    GuardedListener(TransportListener delegate) {
        this.delegate = Preconditions.checkNotNull(delegate);
    }

    @Override
    public void channelOpened() {
        LISTENER_CALLS.runScheduled(CALL, delegate::channelOpened);
    }

    @Override
    public void channelReused() {
        LISTENER_CALLS.runScheduled(CALL, delegate::channelReused);
    }

    @Override
    public void requestFinished(long latencyNanos, boolean success) {
        LISTENER_CALLS.runScheduled(CALL, () -> delegate.requestFinished(latencyNanos, success));
    }

    @Override
    public void inFlightChanged(int delta) {
        LISTENER_CALLS.runScheduled(CALL, () -> delegate.inFlightChanged(delta));
    }
}
