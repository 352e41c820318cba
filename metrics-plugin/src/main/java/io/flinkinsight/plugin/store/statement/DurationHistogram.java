package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.Arrays;

/**
 * Durations in milliseconds counted in buckets of 1/8 of a power of two (as HdrHistogram with one
 * significant digit in binary), so a quantile is within 7 % of the true value whatever the number
 * of queries, in a few hundred bytes. Values below 8 ms have a bucket each; the buckets grow only
 * as far as the largest value seen.
 */
final class DurationHistogram {

    private static final int SUB_BUCKETS = 8;
    private static final int SUB_BITS = 3;

    /** Buckets up to the largest long: no histogram has more. */
    private static final int MAX_BUCKETS = indexOf(Long.MAX_VALUE) + 1;

    private long[] counts = new long[0];
    private long total;

    void add(long millis) {
        int index = indexOf(Math.max(0, millis));
        if (index >= counts.length) {
            counts = Arrays.copyOf(counts, index + 1);
        }
        counts[index]++;
        total++;
    }

    long count() {
        return total;
    }

    /** The bucket counts, for a snapshot. */
    long[] counts() {
        return counts.clone();
    }

    /** Takes these bucket counts (a snapshot read back); at most every bucket, none negative. */
    void restore(long[] snapshot) {
        int length = Math.min(snapshot.length, MAX_BUCKETS);
        counts = new long[length];
        total = 0;
        for (int i = 0; i < length; i++) {
            counts[i] = Math.max(0, snapshot[i]);
            total += counts[i];
        }
    }

    /** The {@code q} quantile (0 to 1), the middle of its bucket; -1 when nothing was added. */
    long quantile(double q) {
        if (total == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return middleOf(i);
            }
        }
        return middleOf(counts.length - 1);
    }

    long estimatedBytes() {
        return HeapSizes.object(2 * HeapSizes.REFERENCE + 8) + HeapSizes.longArray(counts.length);
    }

    static int indexOf(long millis) {
        if (millis < SUB_BUCKETS) {
            return (int) millis;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(millis);
        int sub = (int) (millis >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
        return SUB_BUCKETS + (exponent - SUB_BITS) * SUB_BUCKETS + sub;
    }

    static long middleOf(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int exponent = (index - SUB_BUCKETS) / SUB_BUCKETS + SUB_BITS;
        int sub = (index - SUB_BUCKETS) % SUB_BUCKETS;
        long low = ((long) (SUB_BUCKETS + sub)) << (exponent - SUB_BITS);
        long width = 1L << (exponent - SUB_BITS);
        return low + width / 2;
    }
}
