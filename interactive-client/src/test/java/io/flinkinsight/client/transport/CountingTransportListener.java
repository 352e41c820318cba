package io.flinkinsight.client.transport;

import java.util.concurrent.atomic.AtomicInteger;

/** A {@link TransportListener} that counts what it is told. */
final class CountingTransportListener implements TransportListener {
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger reused = new AtomicInteger();
    final AtomicInteger succeeded = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();

    @Override
    public void channelOpened() {
        opened.incrementAndGet();
    }

    @Override
    public void channelReused() {
        reused.incrementAndGet();
    }

    @Override
    public void requestFinished(long latencyNanos, boolean success) {
        if (latencyNanos < 0) {
            throw new AssertionError("negative latency " + latencyNanos);
        }
        (success ? succeeded : failed).incrementAndGet();
    }

    @Override
    public void inFlightChanged(int delta) {
        inFlight.addAndGet(delta);
    }
}
