package io.flinkinsight.plugin.scrape;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the scrapes of {@code /metrics} cost this process, for the plugin's own figures: an operator
 * divides the counters' rates ({@code rate(bytes) / rate(scrapes)}) for the mean body and render
 * time, and watches the scrapes waiting for a render turn under {@code
 * http.max-concurrent-scrapes}.
 */
public final class ScrapeFigures {

    private final LongAdder served = new LongAdder();
    private final LongAdder renderNanos = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAdder writesAborted = new LongAdder();
    private final LongAdder shared = new LongAdder();

    void waitStarted() {
        waiting.incrementAndGet();
    }

    void waitEnded() {
        waiting.decrementAndGet();
    }

    void refused() {
        refused.increment();
    }

    void writeAborted() {
        writesAborted.increment();
    }

    void shared() {
        shared.increment();
    }

    void rendered(long nanos, int bodyBytes) {
        served.increment();
        renderNanos.add(nanos);
        bytes.add(bodyBytes);
    }

    /** Scrape bodies rendered. */
    public long served() {
        return served.sum();
    }

    /** Time spent rendering them, in seconds. */
    public double renderSeconds() {
        return renderNanos.sum() / 1e9;
    }

    /** Bytes of the bodies rendered. */
    public long bytes() {
        return bytes.sum();
    }

    /** Scrapes answered 503 because {@code http.max-concurrent-scrapes} were already under way. */
    public long refusedCount() {
        return refused.sum();
    }

    /** Scrapes waiting for a render turn right now. */
    public int waiting() {
        return waiting.get();
    }

    /**
     * Scrapes answered with the body of a render less than a second old, without a render of their
     * own.
     */
    public long sharedCount() {
        return shared.sum();
    }

    /**
     * Scrape answers whose connection was closed before they were written, to free their body for a
     * newer render when 2 x {@code http.max-concurrent-scrapes} bodies of its format were held.
     */
    public long writesAborted() {
        return writesAborted.sum();
    }
}
