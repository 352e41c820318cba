package io.flinkinsight.plugin.store.statement;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DurationHistogramTest {

    @Test
    void quantilesAreWithinSevenPercentOfTheTrueValue() {
        DurationHistogram histogram = new DurationHistogram();
        long[] values = new long[10_000];
        Random random = new Random(42);
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) Math.exp(random.nextDouble() * 12); // 1 ms to ~2.7 min
            histogram.add(values[i]);
        }
        java.util.Arrays.sort(values);

        for (double q : new double[] {0.5, 0.9, 0.99}) {
            long truth = values[(int) Math.ceil(q * values.length) - 1];
            assertThat((double) histogram.quantile(q))
                    .as("q%s", q)
                    .isBetween(truth * 0.93 - 1, truth * 1.07 + 1);
        }
        assertThat(histogram.count()).isEqualTo(values.length);
    }

    @Test
    void smallValuesAreExactAndNothingAddedIsMinusOne() {
        DurationHistogram histogram = new DurationHistogram();
        assertThat(histogram.quantile(0.5)).isEqualTo(-1);

        histogram.add(3);
        histogram.add(3);
        histogram.add(-5);

        assertThat(histogram.quantile(0.99)).isEqualTo(3);
        assertThat(histogram.quantile(0.01)).isZero();
    }

    @Test
    void everyBucketHoldsItsMiddle() {
        for (long v : new long[] {0, 7, 8, 9, 15, 16, 17, 1000, 123_456_789L, Long.MAX_VALUE}) {
            int index = DurationHistogram.indexOf(v);
            assertThat(DurationHistogram.indexOf(DurationHistogram.middleOf(index)))
                    .as("bucket of %s", v)
                    .isEqualTo(index);
        }
    }

    @Test
    void aHistogramGrowsOnlyAsFarAsItsLargestValue() {
        DurationHistogram small = new DurationHistogram();
        small.add(50);
        DurationHistogram large = new DurationHistogram();
        large.add(3_600_000);

        assertThat(small.estimatedBytes()).isLessThan(large.estimatedBytes());
        // an hour needs 160 buckets of 8 bytes
        assertThat(large.estimatedBytes()).isLessThan(1_500);
    }
}
