package io.flinkinsight.plugin;

import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.TestingGroups;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;

import java.util.Arrays;
import java.util.Map;

/**
 * The interactive client's figures as it registers them (root group {@code insight_client} with the
 * host as variable, groups pool, channels, collect, queries; Flink metric objects), with fixed
 * values, so tests see the series names and values a real client process produces. Histograms hold
 * three values each, so their p50 is the middle one and their p99 the largest, as with the client's
 * DescriptiveStatisticsHistogram (whose commons-math dependency this module's tests do not have).
 */
public final class TestingClientMetrics {

    /** Where metrics go: {@code MetricIndex::add} or {@code InsightRuntime::metricAdded}. */
    @FunctionalInterface
    public interface Registrar {
        void add(Metric metric, String name, MetricGroup group);
    }

    /** What {@code /api/v1/client} answers for one process with these figures. */
    public static final String EXPECTED_JSON =
            "{\"available\":true,\"hint\":null,"
                    + "\"pool\":{\"requests\":10.0,\"hits\":9.0,\"misses\":1.0,\"evictions\":2.0,\"hitRate\":0.9,"
                    + "\"size\":3.0},"
                    + "\"channels\":{\"requests\":40.0,\"opened\":2.0,\"reused\":38.0,\"reuseRatio\":0.95,\"inFlight\":1.0,"
                    + "\"requestLatencyMs\":{\"p50\":3.0,\"p99\":40.0},\"queryRequests\":44.0,\"requestsPerQuery\":5.0,"
                    + "\"requestsPerQueryQuantiles\":{\"p50\":5.0,\"p99\":9.0}},"
                    + "\"collect\":{\"requests\":30.0,\"retries\":12.0,\"retriesPerQuery\":1.0,"
                    + "\"retriesPerQueryQuantiles\":{\"p50\":1.0,\"p99\":5.0}},"
                    + "\"queries\":{\"submitted\":8.0,\"succeeded\":7.0,\"failed\":1.0,"
                    + "\"e2eLatencyMs\":{\"p50\":120.0,\"p99\":4000.0},\"submitMs\":{\"p50\":15.0,\"p99\":30.0},"
                    + "\"admissionWaitMs\":{\"p50\":1.0,\"p99\":70.0},\"waiting\":2.0,"
                    + "\"jobStartWaitMs\":{\"p50\":25.0,\"p99\":900.0},\"clusterRunMs\":{\"p50\":60.0,\"p99\":2500.0},"
                    + "\"resultFetchMs\":{\"p50\":8.0,\"p99\":500.0}}}";

    /**
     * The value of each figure of the {@link ClientContract}: a counter's count (times the scale),
     * a gauge's value, a histogram's values. A figure added to the contract fails {@link #register}
     * until it has one here.
     */
    private static final Map<String, Object> VALUES =
            Map.ofEntries(
                    Map.entry("pool.requests", 10L),
                    Map.entry("pool.hits", 9L),
                    Map.entry("pool.misses", 1L),
                    Map.entry("pool.evictions", 2L),
                    Map.entry("pool.hitRate", 0.9),
                    Map.entry("pool.size", 3),
                    Map.entry("channels.requests", 40L),
                    Map.entry("channels.opened", 2L),
                    Map.entry("channels.reused", 38L),
                    Map.entry("channels.reuseRatio", 0.95),
                    Map.entry("channels.inFlight", 1),
                    Map.entry("channels.requestLatencyMs", new long[] {2, 3, 40}),
                    Map.entry("channels.queryRequests", 44L),
                    Map.entry("channels.requestsPerQuery", new long[] {4, 5, 9}),
                    Map.entry("collect.requests", 30L),
                    Map.entry("collect.retries", 12L),
                    Map.entry("collect.retriesPerQuery", new long[] {0, 1, 5}),
                    Map.entry("queries.submitted", 8L),
                    Map.entry("queries.succeeded", 7L),
                    Map.entry("queries.failed", 1L),
                    Map.entry("queries.e2eLatencyMs", new long[] {80, 120, 4000}),
                    Map.entry("queries.waiting", 2),
                    Map.entry("queries.submitMs", new long[] {10, 15, 30}),
                    Map.entry("queries.admissionWaitMs", new long[] {0, 1, 70}),
                    Map.entry("queries.jobStartWaitMs", new long[] {20, 25, 900}),
                    Map.entry("queries.clusterRunMs", new long[] {40, 60, 2500}),
                    Map.entry("queries.resultFetchMs", new long[] {5, 8, 500}));

    private TestingClientMetrics() {}

    /**
     * Registers every figure of the contract for a client on {@code host}, scaled: counters times
     * {@code scale}.
     */
    public static void register(Registrar r, String host, long scale) {
        Map<String, String> vars = Map.of("<host>", host);
        ClientContract contract = ClientContract.get();
        for (ClientContract.Figure f : contract.figures()) {
            String id = f.group() + "." + f.name();
            Object value = VALUES.get(id);
            if (value == null) {
                throw new IllegalStateException(
                        "TestingClientMetrics has no value for the contract's figure " + id);
            }
            MetricGroup group = TestingGroups.group(contract.scope() + "." + f.group(), vars);
            Metric metric =
                    switch (f.kind()) {
                        case COUNTER -> counter((Long) value * scale);
                        case GAUGE -> (Gauge<Number>) () -> (Number) value;
                        case HISTOGRAM -> histogram((long[]) value);
                    };
            r.add(metric, f.name(), group);
        }
    }

    private static SimpleCounter counter(long count) {
        SimpleCounter c = new SimpleCounter();
        c.inc(count);
        return c;
    }

    /** A histogram of fixed values; quantiles by nearest rank. */
    public static Histogram histogram(long... values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Histogram() {
            @Override
            public void update(long value) {
                throw new UnsupportedOperationException();
            }

            @Override
            public long getCount() {
                return sorted.length;
            }

            @Override
            public HistogramStatistics getStatistics() {
                return new HistogramStatistics() {
                    @Override
                    public double getQuantile(double quantile) {
                        return sorted.length == 0
                                ? Double.NaN
                                : sorted[
                                        Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
                    }

                    @Override
                    public long[] getValues() {
                        return sorted.clone();
                    }

                    @Override
                    public int size() {
                        return sorted.length;
                    }

                    @Override
                    public double getMean() {
                        return sorted.length == 0
                                ? Double.NaN
                                : Arrays.stream(sorted).average().orElse(Double.NaN);
                    }

                    @Override
                    public double getStdDev() {
                        return 0;
                    }

                    @Override
                    public long getMax() {
                        return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
                    }

                    @Override
                    public long getMin() {
                        return sorted.length == 0 ? 0 : sorted[0];
                    }
                };
            }
        };
    }
}
