package io.flinkinsight.plugin.api;

import java.util.Arrays;

/**
 * The statistics of a comparison, kept honest on few samples: percentiles by nearest rank (always a
 * value that was observed; on fewer than 1/(1-p) samples the high percentiles are the maximum),
 * change in percent against a base, and counts per hour over windows of any length.
 */
final class SampleStatistics {

    private static final double MILLIS_PER_HOUR = 3_600_000.0;

    private SampleStatistics() {}

    /**
     * The nearest-rank percentile {@code p} (0 &lt; p &le; 100) of {@code values}: the smallest
     * value with at least p% of the values at or below it. Null for no values. {@code values} is
     * not changed.
     */
    static Double percentile(double[] values, double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
        }
        if (values.length == 0) {
            return null;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        // a tiny tolerance so that e.g. 99.9% of 1000 is rank 999, not 1000 through rounding
        int rank = (int) Math.ceil(p / 100.0 * sorted.length - 1e-9);
        return sorted[Math.max(1, Math.min(rank, sorted.length)) - 1];
    }

    /** The arithmetic mean, or null for no values. */
    static Double mean(double[] values) {
        if (values.length == 0) {
            return null;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /**
     * The change from {@code base} to {@code value} in percent of {@code base}; null when either is
     * missing or the base is 0 (no percentage of nothing).
     */
    static Double changePercent(Double value, Double base) {
        if (value == null
                || base == null
                || base == 0
                || !Double.isFinite(value)
                || !Double.isFinite(base)) {
            return null;
        }
        return (value - base) / Math.abs(base) * 100.0;
    }

    /**
     * {@code count} events in a window of {@code windowMillis}, per hour: a window of part of an
     * hour counts at the same rate (10 in 30 minutes is 20 per hour). Null for an empty window.
     */
    static Double perHour(long count, long windowMillis) {
        if (windowMillis <= 0) {
            return null;
        }
        return count * MILLIS_PER_HOUR / windowMillis;
    }
}
