package io.flinkinsight.benchmarks.history;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampleGeneratorTest {

    @Test
    void counterNeverDecreases() {
        SampleGenerator counter = new SampleGenerator(SampleGenerator.Shape.GROWING_COUNTER, 7, 0);
        double previous = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 10_000; i++) {
            double value = counter.next(5_000);
            if (!Double.isNaN(value)) {
                assertThat(value).isGreaterThanOrEqualTo(previous);
                previous = value;
            }
        }
    }

    @Test
    void constantNeverChangesAndIsNeverNaN() {
        SampleGenerator constant = new SampleGenerator(SampleGenerator.Shape.CONSTANT, 3, 0);
        double first = constant.next(5_000);
        for (int i = 0; i < 10_000; i++) {
            assertThat(constant.next(5_000)).isEqualTo(first);
        }
    }

    @Test
    void noisySeriesHaveOccasionalNaN() {
        SampleGenerator rate = new SampleGenerator(SampleGenerator.Shape.NOISY_RATE, 11, 0);
        int nans = 0;
        for (int i = 0; i < 100_000; i++) {
            if (Double.isNaN(rate.next(5_000))) {
                nans++;
            }
        }
        assertThat(nans).isBetween(10, 200);
    }

    @Test
    void flinkMetricNamesMapToTheirShapes() {
        assertThat(SampleGenerator.Shape.of("numRecordsIn"))
                .isEqualTo(SampleGenerator.Shape.GROWING_COUNTER);
        assertThat(SampleGenerator.Shape.of("numRecordsOutPerSecond"))
                .isEqualTo(SampleGenerator.Shape.NOISY_RATE);
        assertThat(SampleGenerator.Shape.of("currentInputWatermark"))
                .isEqualTo(SampleGenerator.Shape.ADVANCING_WATERMARK);
        assertThat(SampleGenerator.Shape.of("busyTimeMsPerSecond"))
                .isEqualTo(SampleGenerator.Shape.NOISY_LOAD);
        assertThat(SampleGenerator.Shape.of("numRecordsInErrors"))
                .isEqualTo(SampleGenerator.Shape.CONSTANT);
        assertThat(SampleGenerator.Shape.of("mailboxLatencyMs"))
                .isEqualTo(SampleGenerator.Shape.LATENCY_QUANTILE);
    }
}
