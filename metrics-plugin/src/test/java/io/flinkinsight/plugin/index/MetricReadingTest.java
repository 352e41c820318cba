package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.metrics.util.TestMeter;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetricReadingTest {

    private final MetricIndex index = new MetricIndex(true);
    private final MetricReading numbers = MetricReading.ofNumbers(0.5, 0.99);
    private final MetricReading described = MetricReading.described(0.5);

    private RegisteredMetric registered(Metric metric) {
        return index.add(metric, "m" + index.metricCount(), group("taskmanager", Map.of()));
    }

    @Test
    void countersAndIntegerGaugesAreIntegralMetersAndOtherNumbersAreNot() {
        SimpleCounter c = new SimpleCounter();
        c.inc(42);

        assertThat(numbers.read(registered(c))).isTrue();
        assertThat(numbers.isIntegral()).isTrue();
        assertThat(numbers.longValue()).isEqualTo(42);

        assertThat(numbers.read(registered((Gauge<Short>) () -> (short) 7))).isTrue();
        assertThat(numbers.isIntegral()).isTrue();
        assertThat(numbers.value()).isEqualTo(7.0);

        assertThat(numbers.read(registered(new TestMeter(10, 2.5)))).isTrue();
        assertThat(numbers.isIntegral()).isFalse();
        assertThat(numbers.doubleValue()).isEqualTo(2.5);

        assertThat(numbers.read(registered((Gauge<Float>) () -> 0.25f))).isTrue();
        assertThat(numbers.isIntegral()).isFalse();
        assertThat(numbers.value()).isEqualTo(0.25);
    }

    @Test
    void booleanGaugesAreOneOrZeroAndNullOrTextReadsAsZeroThatIsNotANumber() {
        assertThat(numbers.read(registered((Gauge<Boolean>) () -> true))).isTrue();
        assertThat(numbers.isNumber()).isTrue();
        assertThat(numbers.longValue()).isEqualTo(1);

        assertThat(numbers.read(registered((Gauge<Object>) () -> null))).isTrue();
        assertThat(numbers.isNumber()).isFalse();
        assertThat(numbers.isIntegral()).isTrue();
        assertThat(numbers.longValue()).isZero();

        assertThat(numbers.read(registered((Gauge<String>) () -> "RUNNING"))).isTrue();
        assertThat(numbers.isNumber()).isFalse();
        assertThat(numbers.value()).isZero();
    }

    @Test
    void onlyADescribedReadingAsksANonNumericGaugeForItsText() {
        Object unprintable =
                new Object() {
                    @Override
                    public String toString() {
                        throw new IllegalStateException("toString bug");
                    }
                };
        RegisteredMetric odd = registered((Gauge<Object>) () -> unprintable);
        RegisteredMetric job = registered((Gauge<Object>) () -> new StringBuilder("RUNNING"));

        assertThat(numbers.read(odd)).isTrue();
        assertThat(numbers.value()).isZero();
        assertThat(described.read(odd)).isFalse();

        assertThat(described.read(job)).isTrue();
        assertThat(described.gaugeValue()).isEqualTo("RUNNING");
        assertThat(described.read(registered((Gauge<Float>) () -> 0.25f))).isTrue();
        assertThat(described.gaugeValue()).isEqualTo(0.25f);
    }

    @Test
    void histogramGivesItsCountAndTheAskedQuantilesAndWhenDescribedItsStatistics() {
        TestHistogram h = new TestHistogram();
        h.setCount(9);
        h.setMin(1);
        h.setMax(8);
        h.setMean(4.5);
        h.setStdDev(2);
        RegisteredMetric m = registered(h);

        assertThat(numbers.read(m)).isTrue();
        assertThat(numbers.count()).isEqualTo(9);
        assertThat(numbers.quantile(0)).isEqualTo(0.5); // TestHistogram's quantile q is q
        assertThat(numbers.quantile(1)).isEqualTo(0.99);

        assertThat(described.read(m)).isTrue();
        assertThat(
                        new double[] {
                            described.min(), described.max(), described.mean(), described.stdDev()
                        })
                .containsExactly(1, 8, 4.5, 2);
    }

    @Test
    void anythingAMetricThrowsFailsTheReadingStackOverflowIncludedButTheJvmsOwnErrorsPropagate() {
        RegisteredMetric runtime =
                registered(
                        (Gauge<Integer>)
                                () -> {
                                    throw new IllegalStateException("gauge bug");
                                });
        RegisteredMetric assertion =
                registered(
                        (Gauge<Integer>)
                                () -> {
                                    throw new AssertionError("gauge bug");
                                });
        RegisteredMetric linkage =
                registered(
                        (Gauge<Integer>)
                                () -> {
                                    throw new NoClassDefFoundError("closed class loader");
                                });
        RegisteredMetric overflow =
                registered(
                        (Gauge<Integer>)
                                () -> {
                                    throw new StackOverflowError();
                                });
        RegisteredMetric outOfMemory =
                registered(
                        (Gauge<Integer>)
                                () -> {
                                    throw new OutOfMemoryError("Java heap space");
                                });

        assertThat(numbers.read(runtime)).isFalse();
        assertThat(numbers.read(assertion)).isFalse();
        assertThat(numbers.read(linkage)).isFalse();
        assertThat(numbers.read(overflow)).isFalse();
        assertThatThrownBy(() -> numbers.read(outOfMemory)).isInstanceOf(OutOfMemoryError.class);
    }
}
