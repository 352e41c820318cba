package io.flinkinsight.client.config;

import java.time.Duration;

/**
 * How long to wait before polling for query results again after empty polls: a pure function from
 * the number of empty polls in a row to a delay. After {@code attempts} empty polls in a row the
 * sequence starts over. Built from the {@code collect-strategy.*} options by {@code
 * InteractiveClientSettings}, which checks them first.
 */
public final class CollectRetryStrategy {

    /** The values of {@code collect-strategy.type}. */
    public enum Type {
        FIXED,
        EXPONENTIAL,
        INCREMENTAL
    }

    private final Type type;
    private final long initialMillis;
    private final long maxMillis;
    private final double multiplier;
    private final long incrementMillis;
    private final int attempts;

    private CollectRetryStrategy(
            Type type,
            long initialMillis,
            long maxMillis,
            double multiplier,
            long incrementMillis,
            int attempts) {
        this.type = type;
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.multiplier = multiplier;
        this.incrementMillis = incrementMillis;
        this.attempts = attempts;
    }

    /** The same delay after every empty poll. */
    public static CollectRetryStrategy fixed(Duration delay) {
        return new CollectRetryStrategy(
                Type.FIXED, delay.toMillis(), delay.toMillis(), 1.0, 0, Integer.MAX_VALUE);
    }

    /**
     * {@code initial}, then each delay {@code multiplier} times the previous one, up to {@code
     * max}.
     */
    public static CollectRetryStrategy exponential(
            Duration initial, Duration max, double multiplier, int attempts) {
        return new CollectRetryStrategy(
                Type.EXPONENTIAL, initial.toMillis(), max.toMillis(), multiplier, 0, attempts);
    }

    /**
     * {@code initial}, then each delay {@code increment} longer than the previous one, up to {@code
     * max}.
     */
    public static CollectRetryStrategy incremental(
            Duration initial, Duration increment, Duration max, int attempts) {
        return new CollectRetryStrategy(
                Type.INCREMENTAL,
                initial.toMillis(),
                max.toMillis(),
                1.0,
                increment.toMillis(),
                attempts);
    }

    public Type type() {
        return type;
    }

    /** Empty polls in a row after which the delays start over from the first one. */
    public int attempts() {
        return attempts;
    }

    /**
     * The wait after {@code emptyPolls} empty polls in a row (1 = after the first empty poll).
     *
     * @throws IllegalArgumentException if {@code emptyPolls} is less than 1
     */
    public long delayMillis(long emptyPolls) {
        if (emptyPolls < 1) {
            throw new IllegalArgumentException("emptyPolls must be at least 1, was " + emptyPolls);
        }
        long step = (emptyPolls - 1) % attempts;
        switch (type) {
            case FIXED:
                return initialMillis;
            case EXPONENTIAL:
                {
                    double delay = initialMillis * Math.pow(multiplier, step);
                    return delay >= maxMillis ? maxMillis : (long) delay;
                }
            case INCREMENTAL:
                {
                    // step * increment cannot overflow: step < 2^31 and increment <= 1 min
                    long delay = initialMillis + step * incrementMillis;
                    return Math.min(delay, maxMillis);
                }
            default:
                throw new IllegalStateException("Unknown collect strategy " + type);
        }
    }

    @Override
    public String toString() {
        switch (type) {
            case FIXED:
                return "fixed(" + initialMillis + " ms)";
            case EXPONENTIAL:
                return "exponential("
                        + initialMillis
                        + " ms x"
                        + multiplier
                        + " up to "
                        + maxMillis
                        + " ms, attempts "
                        + attempts
                        + ")";
            default:
                return "incremental("
                        + initialMillis
                        + " ms +"
                        + incrementMillis
                        + " ms up to "
                        + maxMillis
                        + " ms, attempts "
                        + attempts
                        + ")";
        }
    }
}
