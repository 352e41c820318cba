package io.flinkinsight.benchmarks.history;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock the benchmark moves by hand, so an hour of history is written in seconds with the store's
 * own clock.
 */
final class SteppingClock extends Clock {

    private volatile long millis;

    SteppingClock(long startMillis) {
        this.millis = startMillis;
    }

    void set(long newMillis) {
        millis = newMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the benchmark clock is UTC only");
    }
}
