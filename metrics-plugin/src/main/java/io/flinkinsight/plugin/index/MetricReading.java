package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Meter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current value of one registered metric, filled by {@link #read}: the one place the plugin
 * calls into a metric (user code), so the one place that guards against what it throws. Mutable and
 * reused from one metric to the next, so reading every metric of a scrape allocates nothing; one
 * reading per thread.
 *
 * <p>Values: a counter's count and a gauge's integer or boolean (1/0) are integral, a meter's rate
 * and a gauge's other numbers are not; a gauge whose value is null or not a number reads as 0, as
 * in Flink's PrometheusReporter, and is marked as not a number. A histogram gives its count and the
 * quantiles this reading was made for.
 */
public final class MetricReading {

    private static final Logger LOG = LoggerFactory.getLogger(MetricReading.class);

    private final double[] quantiles;
    private final double[] quantileValues;

    /**
     * Also read a histogram's min, max, mean and standard deviation, and the text of a non-numeric
     * gauge.
     */
    private final boolean described;

    private boolean number;
    private boolean integral;
    private long longValue;
    private double doubleValue;
    private Object gaugeValue;
    private long count;
    private long min;
    private long max;
    private double mean;
    private double stdDev;

    private MetricReading(double[] quantiles, boolean described) {
        this.quantiles = quantiles.clone();
        this.quantileValues = new double[quantiles.length];
        this.described = described;
    }

    /** A reading of numbers only: values, a histogram's count and {@code quantiles}. */
    public static MetricReading ofNumbers(double... quantiles) {
        return new MetricReading(quantiles, false);
    }

    /**
     * A reading for display: also a histogram's min, max, mean and standard deviation, and a
     * non-numeric gauge's text (its {@code toString()}, which is user code too).
     */
    public static MetricReading described(double... quantiles) {
        return new MetricReading(quantiles, true);
    }

    /**
     * Reads {@code m}'s current value into this reading; false when the metric threw, which is
     * logged at debug and leaves this reading's values undefined.
     */
    public boolean read(RegisteredMetric m) {
        try {
            readUnguarded(m);
            return true;
        } catch (StackOverflowError e) {
            // A metric that recursed without end: its own failure, and its stack has already
            // unwound.
            LOG.debug("Reading {} overflowed the stack; it is skipped", m, e);
            return false;
        } catch (VirtualMachineError e) {
            // The JVM itself is failing (out of memory, an internal error): Flink's fatal-error
            // handling decides what
            // happens next, not a plugin that swallows it.
            throw e;
        } catch (Throwable t) {
            // Whatever else a metric throws is its own failure and costs only its value: a
            // LinkageError once its
            // job's class loader is closed, an AssertionError, any bug.
            LOG.debug("Reading {} failed; it is skipped", m, t);
            return false;
        }
    }

    private void readUnguarded(RegisteredMetric m) {
        number = true;
        integral = false;
        longValue = 0;
        doubleValue = 0;
        gaugeValue = null;
        switch (m.kind()) {
            case COUNTER -> {
                longValue = ((Counter) m.metric()).getCount();
                integral = true;
            }
            case METER -> doubleValue = ((Meter) m.metric()).getRate();
            case GAUGE -> readGauge((Gauge<?>) m.metric());
            case HISTOGRAM -> readHistogram((Histogram) m.metric());
        }
    }

    private void readGauge(Gauge<?> gauge) {
        Object v = gauge.getValue();
        gaugeValue = v;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            longValue = ((Number) v).longValue();
            integral = true;
        } else if (v instanceof Number n) {
            doubleValue = n.doubleValue();
        } else if (v instanceof Boolean b) {
            longValue = b ? 1 : 0;
            integral = true;
        } else {
            number = false;
            integral = true; // reads as 0
            if (described && v != null) {
                gaugeValue = v.toString();
            }
        }
    }

    private void readHistogram(Histogram histogram) {
        count = histogram.getCount();
        HistogramStatistics stats = histogram.getStatistics();
        for (int i = 0; i < quantiles.length; i++) {
            quantileValues[i] = stats.getQuantile(quantiles[i]);
        }
        if (described) {
            min = stats.getMin();
            max = stats.getMax();
            mean = stats.getMean();
            stdDev = stats.getStdDev();
        }
    }

    /** False for a gauge whose value is null or neither a number nor a boolean: it reads as 0. */
    public boolean isNumber() {
        return number;
    }

    /**
     * Whether the value is {@link #longValue()} rather than {@link #doubleValue()}; not for
     * histograms.
     */
    public boolean isIntegral() {
        return integral;
    }

    public long longValue() {
        return longValue;
    }

    public double doubleValue() {
        return doubleValue;
    }

    /** The value as a double, integral or not; not for histograms. */
    public double value() {
        return integral ? longValue : doubleValue;
    }

    /**
     * A gauge's value as returned (null, a number or a boolean); anything else as its text when
     * {@link #described}, or as returned otherwise.
     */
    public Object gaugeValue() {
        return gaugeValue;
    }

    /** A histogram's count. */
    public long count() {
        return count;
    }

    /** A histogram's value at the {@code i}-th quantile this reading was made for. */
    public double quantile(int i) {
        return quantileValues[i];
    }

    /** A described histogram's statistics. */
    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public double mean() {
        return mean;
    }

    public double stdDev() {
        return stdDev;
    }
}
