package io.flinkinsight.plugin.index;

import io.flinkinsight.plugin.store.SeriesKey;

import org.apache.flink.metrics.Metric;

/**
 * One metric Flink registered, with everything the scrape and the sampler need computed once at
 * registration: its family, its labels and its history series keys. Its value is read by {@link
 * MetricReading}.
 */
public final class RegisteredMetric {

    /** Quantile label values of the two histogram quantiles kept in history. */
    public static final String HISTORY_P50 = "0.5";

    public static final String HISTORY_P99 = "0.99";

    private final Metric metric;
    private final MetricFamily family;
    private final LabelSet labels;
    private final SeriesKey seriesKey;
    private final SeriesKey p50Key;
    private final SeriesKey p99Key;
    private final SeriesKey countKey;
    private final JobAge job;

    /**
     * An older registration of the same series, emitted again once this one is removed; guarded by
     * the index.
     */
    RegisteredMetric shadowed;

    RegisteredMetric(Metric metric, MetricFamily family, LabelSet labels, JobAge job) {
        this.metric = metric;
        this.family = family;
        this.labels = labels;
        this.job = job;
        if (family.kind() == MetricKind.HISTOGRAM) {
            // History keeps p50, p99 and the count of a histogram as separate series, named as they
            // are scraped:
            // <family>{quantile="0.5"}, <family>{quantile="0.99"} and <family>_count.
            this.seriesKey = null;
            SeriesKey summary = new SeriesKey(family.name(), labels.names(), labels.values());
            this.p50Key = summary.withQuantile(HISTORY_P50);
            this.p99Key = summary.withQuantile(HISTORY_P99);
            this.countKey =
                    new SeriesKey(family.name() + "_count", labels.names(), labels.values());
        } else {
            this.seriesKey = new SeriesKey(family.name(), labels.names(), labels.values());
            this.p50Key = null;
            this.p99Key = null;
            this.countKey = null;
        }
    }

    public Metric metric() {
        return metric;
    }

    public MetricKind kind() {
        return family.kind();
    }

    public MetricFamily family() {
        return family;
    }

    public LabelSet labels() {
        return labels;
    }

    /** History key of a counter, gauge or meter; null for histograms. */
    public SeriesKey seriesKey() {
        return seriesKey;
    }

    /** History keys of a histogram (null otherwise). */
    public SeriesKey p50Key() {
        return p50Key;
    }

    public SeriesKey p99Key() {
        return p99Key;
    }

    public SeriesKey countKey() {
        return countKey;
    }

    /**
     * The age of the job whose metric this is, for {@link JobSeriesRule}; null for a metric of no
     * job, and for every metric when the rule shows all series.
     */
    public JobAge job() {
        return job;
    }

    @Override
    public String toString() {
        return family.name() + labels;
    }
}
