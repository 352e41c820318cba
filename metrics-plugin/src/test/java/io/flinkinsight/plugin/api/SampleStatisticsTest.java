package io.flinkinsight.plugin.api;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SampleStatisticsTest {

    private static double[] oneTo(int n) {
        return IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    }

    @Test
    void noSamplesHaveNoPercentileAndNoMean() {
        assertThat(SampleStatistics.percentile(new double[0], 50)).isNull();
        assertThat(SampleStatistics.mean(new double[0])).isNull();
    }

    @Test
    void oneSampleIsEveryPercentile() {
        double[] one = {42};
        assertThat(SampleStatistics.percentile(one, 50)).isEqualTo(42.0);
        assertThat(SampleStatistics.percentile(one, 99.9)).isEqualTo(42.0);
    }

    @Test
    void percentilesAreObservedValuesByNearestRank() {
        double[] unsorted = {30, 10, 40, 20};
        assertThat(SampleStatistics.percentile(unsorted, 50)).isEqualTo(20.0); // rank ceil(2) = 2
        assertThat(SampleStatistics.percentile(unsorted, 51))
                .isEqualTo(30.0); // rank ceil(2.04) = 3
        assertThat(SampleStatistics.percentile(unsorted, 100)).isEqualTo(40.0);
        assertThat(unsorted).containsExactly(30, 10, 40, 20); // the caller's array is left alone
    }

    @Test
    void highPercentilesOfFewSamplesAreTheMaximum() {
        // 99 samples: P99 is rank ceil(98.01) = 99, the maximum; P99.9 of fewer than 1000 samples
        // is the maximum too
        assertThat(SampleStatistics.percentile(oneTo(99), 99)).isEqualTo(99.0);
        assertThat(SampleStatistics.percentile(oneTo(999), 99.9)).isEqualTo(999.0);
        // at 1000 samples, P99.9 is rank 999: the first percentile below the maximum
        assertThat(SampleStatistics.percentile(oneTo(1000), 99.9)).isEqualTo(999.0);
        assertThat(SampleStatistics.percentile(oneTo(1000), 99)).isEqualTo(990.0);
        assertThat(SampleStatistics.percentile(oneTo(200), 99)).isEqualTo(198.0);
    }

    @Test
    void percentileOutsideItsRangeIsRefused() {
        assertThatThrownBy(() -> SampleStatistics.percentile(oneTo(3), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SampleStatistics.percentile(oneTo(3), 100.1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void changeIsInPercentOfTheBase() {
        assertThat(SampleStatistics.changePercent(150.0, 100.0)).isCloseTo(50.0, within(1e-9));
        assertThat(SampleStatistics.changePercent(25.0, 100.0)).isCloseTo(-75.0, within(1e-9));
        assertThat(SampleStatistics.changePercent(100.0, 100.0)).isEqualTo(0.0);
        assertThat(SampleStatistics.changePercent(-5.0, -10.0)).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void changeWithoutABaseIsUnknown() {
        assertThat(SampleStatistics.changePercent(5.0, 0.0)).isNull();
        assertThat(SampleStatistics.changePercent(null, 10.0)).isNull();
        assertThat(SampleStatistics.changePercent(5.0, null)).isNull();
        assertThat(SampleStatistics.changePercent(Double.NaN, 10.0)).isNull();
    }

    @Test
    void countsPerHourScalePartialHours() {
        assertThat(SampleStatistics.perHour(10, 30 * 60_000L)).isCloseTo(20.0, within(1e-9));
        assertThat(SampleStatistics.perHour(30, 3_600_000L)).isCloseTo(30.0, within(1e-9));
        assertThat(SampleStatistics.perHour(45, 90 * 60_000L)).isCloseTo(30.0, within(1e-9));
        assertThat(SampleStatistics.perHour(0, 10 * 60_000L)).isEqualTo(0.0);
        assertThat(SampleStatistics.perHour(3, 0)).isNull();
    }

    @Test
    void meanOfSamples() {
        assertThat(SampleStatistics.mean(new double[] {1, 2, 6})).isCloseTo(3.0, within(1e-9));
    }
}
