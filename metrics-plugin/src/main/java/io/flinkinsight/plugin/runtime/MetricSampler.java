package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.index.MetricFamily;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.MetricKind;
import io.flinkinsight.plugin.index.MetricReading;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.atomic.LongAdder;

/**
 * Copies every numeric metric value into the history, once per resolution, on the plugin's own
 * sampler thread. Counters, gauges (numbers, booleans as 1/0) and meter rates become one series
 * each; a histogram becomes three: {@code <name>{quantile="0.5"}}, {@code <name>{quantile="0.99"}}
 * and {@code <name>_count}. Non-numeric gauges and values that fail to read are skipped.
 */
public final class MetricSampler implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricSampler.class);

    /**
     * The quantiles of a histogram kept in history, read from its p50 and p99 series keys'
     * constants, in that order.
     */
    private static final double[] HISTORY_QUANTILES = {
        Double.parseDouble(RegisteredMetric.HISTORY_P50),
        Double.parseDouble(RegisteredMetric.HISTORY_P99)
    };

    private final MetricIndex index;
    private final SampleSink series;
    private final Clock clock;
    private final long resolutionMillis;
    private final LongAdder errors = new LongAdder();

    public MetricSampler(MetricIndex index, SampleSink series, Clock clock, long resolutionMillis) {
        this.index = index;
        this.series = series;
        this.clock = clock;
        this.resolutionMillis = resolutionMillis;
    }

    /**
     * Scheduled at resolution boundaries; rounding keeps a run that fires a little early or late in
     * its slot.
     */
    @Override
    public void run() {
        long now = clock.millis();
        sample(Math.round((double) now / resolutionMillis) * resolutionMillis);
    }

    /**
     * Records one sample of every metric at {@code timestampMillis}; returns how many were
     * recorded.
     */
    public int sample(long timestampMillis) {
        MetricReading reading = MetricReading.ofNumbers(HISTORY_QUANTILES);
        int recorded = 0;
        for (MetricFamily family : index.families()) {
            for (RegisteredMetric m : family.members()) {
                if (!reading.read(m)) {
                    errors.increment(); // one metric failing must not cost the others their sample
                    continue;
                }
                try {
                    recorded += record(m, reading, timestampMillis);
                } catch (RuntimeException e) {
                    // Nor one series the history cannot take.
                    errors.increment();
                    LOG.debug("Skipping {} in this sample: recording it failed", m, e);
                }
            }
        }
        return recorded;
    }

    private int record(RegisteredMetric m, MetricReading reading, long ts) {
        if (m.kind() == MetricKind.HISTOGRAM) {
            series.record(m.p50Key(), ts, reading.quantile(0));
            series.record(m.p99Key(), ts, reading.quantile(1));
            series.record(m.countKey(), ts, reading.count());
            return 3;
        }
        if (!reading.isNumber()) {
            return 0;
        }
        series.record(m.seriesKey(), ts, reading.value());
        return 1;
    }

    /**
     * Where samples go: the history's {@code SeriesStore.record} in the runtime, a list in tests.
     */
    @FunctionalInterface
    public interface SampleSink {
        void record(SeriesKey key, long timestampMillis, double value);
    }

    /** Values that could not be read since start. */
    public long errorCount() {
        return errors.sum();
    }
}
