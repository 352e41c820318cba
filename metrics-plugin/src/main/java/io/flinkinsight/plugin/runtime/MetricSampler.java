package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.index.MetricFamily;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import org.apache.flink.metrics.HistogramStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.atomic.LongAdder;

/**
 * Copies every numeric metric value into the history, once per resolution, on the plugin's own sampler thread.
 * Counters, gauges (numbers, booleans as 1/0) and meter rates become one series each; a histogram becomes three:
 * {@code <name>{quantile="0.5"}}, {@code <name>{quantile="0.99"}} and {@code <name>_count}. Non-numeric gauges and
 * values that fail to read are skipped.
 */
public final class MetricSampler implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricSampler.class);

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

    /** Scheduled at resolution boundaries; rounding keeps a run that fires a little early or late in its slot. */
    @Override
    public void run() {
        long now = clock.millis();
        sample(Math.round((double) now / resolutionMillis) * resolutionMillis);
    }

    /** Records one sample of every metric at {@code timestampMillis}; returns how many were recorded. */
    public int sample(long timestampMillis) {
        int recorded = 0;
        for (MetricFamily family : index.families()) {
            for (RegisteredMetric m : family.members()) {
                try {
                    recorded += sampleOne(m, timestampMillis);
                } catch (RuntimeException | LinkageError e) {
                    // One metric failing must not cost the others their sample. Metrics are user code: a LinkageError
                    // is one whose job's class loader was closed.
                    errors.increment();
                    LOG.debug("Skipping {} in this sample: reading it failed", m, e);
                }
            }
        }
        return recorded;
    }

    private int sampleOne(RegisteredMetric m, long ts) {
        switch (m.kind()) {
            case COUNTER -> {
                return record(m.seriesKey(), ts, m.counter().getCount());
            }
            case METER -> {
                return record(m.seriesKey(), ts, m.meter().getRate());
            }
            case GAUGE -> {
                Object v = m.gauge().getValue();
                if (v instanceof Number n) {
                    return record(m.seriesKey(), ts, n.doubleValue());
                }
                if (v instanceof Boolean b) {
                    return record(m.seriesKey(), ts, b ? 1 : 0);
                }
                return 0;
            }
            case HISTOGRAM -> {
                long count = m.histogram().getCount();
                HistogramStatistics stats = m.histogram().getStatistics();
                double p50 = stats.getQuantile(0.5);
                double p99 = stats.getQuantile(0.99);
                return record(m.p50Key(), ts, p50) + record(m.p99Key(), ts, p99) + record(m.countKey(), ts, count);
            }
            default -> {
                return 0;
            }
        }
    }

    private int record(SeriesKey key, long ts, double value) {
        series.record(key, ts, value);
        return 1;
    }

    /** Where samples go: the history's {@code SeriesStore.record} in the runtime, a list in tests. */
    @FunctionalInterface
    public interface SampleSink {
        void record(SeriesKey key, long timestampMillis, double value);
    }

    /** Values that could not be read since start. */
    public long errorCount() {
        return errors.sum();
    }
}
