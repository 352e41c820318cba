package io.flinkinsight.common;

import org.slf4j.Logger;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WARN log that speaks at most once per interval, so a failing callback cannot flood Flink's log.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final Clock clock;
    private final long intervalMillis;
    private final AtomicLong nextAllowedMillis = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    public RateLimitedLog(Logger log, Clock clock, long intervalMillis) {
        this.log = log;
        this.clock = clock;
        this.intervalMillis = intervalMillis;
    }

    /**
     * Logs at WARN unless another warning was logged within the interval; returns whether it
     * logged.
     */
    public boolean warn(String message, Throwable cause) {
        long now = clock.millis();
        long next = nextAllowedMillis.get();
        if (now < next || !nextAllowedMillis.compareAndSet(next, now + intervalMillis)) {
            suppressed.incrementAndGet();
            return false;
        }
        long skipped = suppressed.getAndSet(0);
        String suffix = skipped == 0 ? "" : " (" + skipped + " similar warnings suppressed)";
        if (cause == null) {
            log.warn(message + suffix);
        } else {
            log.warn(message + suffix + ": " + cause, log.isDebugEnabled() ? cause : null);
        }
        return true;
    }
}
