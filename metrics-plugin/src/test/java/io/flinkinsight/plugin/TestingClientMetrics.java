package io.flinkinsight.plugin;

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
 * The interactive client's figures as it registers them (root group {@code insight_client} with the host as
 * variable, groups pool, channels, collect, queries; Flink metric objects), with fixed values, so tests see the
 * series names and values a real client process produces. Histograms hold three values each, so their p50 is the
 * middle one and their p99 the largest, as with the client's DescriptiveStatisticsHistogram (whose commons-math
 * dependency this module's tests do not have).
 */
public final class TestingClientMetrics {

    /** Where metrics go: {@code MetricIndex::add} or {@code InsightRuntime::metricAdded}. */
    @FunctionalInterface
    public interface Registrar {
        void add(Metric metric, String name, MetricGroup group);
    }

    /** What {@code /api/v1/client} answers for one process with these figures. */
    public static final String EXPECTED_JSON = "{\"available\":true,\"hint\":null,"
            + "\"pool\":{\"requests\":10.0,\"hits\":9.0,\"misses\":1.0,\"hitRate\":0.9,\"size\":3.0,"
            + "\"evictions\":2.0},"
            + "\"channels\":{\"opened\":2.0,\"reused\":38.0,\"reuseRatio\":0.95,\"inFlight\":1.0,"
            + "\"requestLatencyMs\":{\"p50\":3.0,\"p99\":40.0},\"queryRequests\":44.0,\"requestsPerQuery\":5.0,"
            + "\"requestsPerQueryQuantiles\":{\"p50\":5.0,\"p99\":9.0}},"
            + "\"collect\":{\"requests\":30.0,\"retries\":12.0,\"retriesPerQuery\":1.0,"
            + "\"retriesPerQueryQuantiles\":{\"p50\":1.0,\"p99\":5.0}},"
            + "\"queries\":{\"submitted\":8.0,\"succeeded\":7.0,\"failed\":1.0,\"waiting\":2.0,"
            + "\"e2eLatencyMs\":{\"p50\":120.0,\"p99\":4000.0},\"admissionWaitMs\":{\"p50\":1.0,\"p99\":70.0},"
            + "\"breakdownMs\":{\"submit\":15.0,\"jobStartWait\":25.0,\"clusterRun\":60.0,\"resultFetch\":8.0},"
            + "\"breakdownP99Ms\":{\"submit\":30.0,\"jobStartWait\":900.0,\"clusterRun\":2500.0,"
            + "\"resultFetch\":500.0}}}";

    private TestingClientMetrics() {}

    /** Registers every figure of the contract for a client on {@code host}, scaled: counters times {@code scale}. */
    public static void register(Registrar r, String host, long scale) {
        Map<String, String> vars = Map.of("<host>", host);
        MetricGroup pool = TestingGroups.group("insight_client.pool", vars);
        MetricGroup channels = TestingGroups.group("insight_client.channels", vars);
        MetricGroup collect = TestingGroups.group("insight_client.collect", vars);
        MetricGroup queries = TestingGroups.group("insight_client.queries", vars);

        r.add(counter(10 * scale), "requests", pool);
        r.add(counter(9 * scale), "hits", pool);
        r.add(counter(scale), "misses", pool);
        r.add(counter(2 * scale), "evictions", pool);
        r.add((Gauge<Double>) () -> 0.9, "hitRate", pool);
        r.add((Gauge<Integer>) () -> 3, "size", pool);

        r.add(counter(40 * scale), "requests", channels);
        r.add(counter(2 * scale), "opened", channels);
        r.add(counter(38 * scale), "reused", channels);
        r.add((Gauge<Double>) () -> 0.95, "reuseRatio", channels);
        r.add((Gauge<Integer>) () -> 1, "inFlight", channels);
        r.add(histogram(2, 3, 40), "requestLatencyMs", channels);
        r.add(counter(44 * scale), "queryRequests", channels);
        r.add(histogram(4, 5, 9), "requestsPerQuery", channels);

        r.add(counter(30 * scale), "requests", collect);
        r.add(counter(12 * scale), "retries", collect);
        r.add(histogram(0, 1, 5), "retriesPerQuery", collect);

        r.add(counter(8 * scale), "submitted", queries);
        r.add(counter(7 * scale), "succeeded", queries);
        r.add(counter(scale), "failed", queries);
        r.add(histogram(80, 120, 4000), "e2eLatencyMs", queries);
        r.add((Gauge<Integer>) () -> 2, "waiting", queries);
        r.add(histogram(10, 15, 30), "submitMs", queries);
        r.add(histogram(0, 1, 70), "admissionWaitMs", queries);
        r.add(histogram(20, 25, 900), "jobStartWaitMs", queries);
        r.add(histogram(40, 60, 2500), "clusterRunMs", queries);
        r.add(histogram(5, 8, 500), "resultFetchMs", queries);
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
                                : sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
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
                        return sorted.length == 0 ? Double.NaN : Arrays.stream(sorted).average().orElse(Double.NaN);
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
