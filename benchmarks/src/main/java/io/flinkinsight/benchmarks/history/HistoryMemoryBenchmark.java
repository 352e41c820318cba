package io.flinkinsight.benchmarks.history;

import io.flinkinsight.benchmarks.fixture.HeapUsed;
import io.flinkinsight.benchmarks.fixture.OperatorMetricsFixture;
import io.flinkinsight.benchmarks.fixture.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;

import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Heap held by the plugin's metric history: fills a {@link SeriesStore} with {@code series}
 * operator series for one retention at the sampling resolution (defaults: 10k series, 1 h at 5 s),
 * and compares heap used after full GCs before and after. Prints one markdown table row set; run
 * through {@code scripts/bench-history-memory.sh}.
 *
 * <p>Arguments: {@code [series] [retentionMinutes] [resolutionSeconds]}.
 */
public final class HistoryMemoryBenchmark {

    private static final long START_MILLIS = 1_735_689_600_000L;
    private static final double MIB = 1024.0 * 1024.0;
    private static final double TARGET_MIB = 64;

    private HistoryMemoryBenchmark() {}

    public static void main(String[] args) throws InterruptedException {
        int seriesCount = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Duration retention = Duration.ofMinutes(args.length > 1 ? Long.parseLong(args[1]) : 60);
        Duration resolution = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 5);

        // The fixture stands for Flink's own metric groups: their variable strings exist whether or
        // not the
        // plugin keeps history, so they are allocated before the first measurement and shared by
        // the keys.
        OperatorMetricsFixture fixture = OperatorMetricsFixture.build(seriesCount);
        List<SampleGenerator> generators = new ArrayList<>(seriesCount);
        for (int i = 0; i < seriesCount; i++) {
            String name = fixture.metrics().get(i).name();
            generators.add(new SampleGenerator(SampleGenerator.Shape.of(name), i, START_MILLIS));
        }
        long heapBeforeKeys = HeapUsed.afterFullGc();

        List<SeriesKey> keys = new ArrayList<>(seriesCount);
        for (RegisteredMetric metric : fixture.metrics()) {
            keys.add(seriesKey(metric));
        }
        long heapBeforeSamples = HeapUsed.afterFullGc();

        SteppingClock clock = new SteppingClock(START_MILLIS);
        StoreSettings settings =
                new StoreSettings(retention, resolution, Math.max(seriesCount, 20_000), 100, 500);
        SeriesStore store = new SeriesStore(settings, clock);
        long stepMillis = resolution.toMillis();
        long samplesPerSeries = retention.toMillis() / stepMillis;
        long fillStarted = System.nanoTime();
        for (long step = 0; step < samplesPerSeries; step++) {
            long timestamp = START_MILLIS + step * stepMillis;
            clock.set(timestamp);
            for (int i = 0; i < seriesCount; i++) {
                store.record(keys.get(i), timestamp, generators.get(i).next(stepMillis));
            }
        }
        double fillSeconds = (System.nanoTime() - fillStarted) / 1e9;
        long heapAfter = HeapUsed.afterFullGc();

        long samples = store.sampleCount();
        long expected = samplesPerSeries * seriesCount;
        if (store.seriesCount() != seriesCount || samples != expected) {
            throw new IllegalStateException(
                    String.format(
                            "store kept %d series and %d samples, expected %d and %d",
                            store.seriesCount(), samples, seriesCount, expected));
        }
        long storeBytes = heapAfter - heapBeforeSamples;
        long withKeysBytes = heapAfter - heapBeforeKeys;
        long estimated = store.estimatedBytes();

        System.out.printf(
                "Filled %d series x %d samples (%s at %s) in %.1f s.%n",
                seriesCount, samplesPerSeries, human(retention), human(resolution), fillSeconds);
        System.out.println();
        System.out.println(
                "| series | samples | retention @ resolution | heap, store (MiB) | heap, store + keys (MiB)"
                        + " | bytes/sample, store | bytes/sample, store + keys | store.estimatedBytes() (MiB) | target |");
        System.out.println("|---:|---:|---|---:|---:|---:|---:|---:|---|");
        System.out.printf(
                "| %d | %d | %s @ %s | %.1f | %.1f | %.2f | %.2f | %.1f | < %.0f MiB: %s |%n",
                seriesCount,
                samples,
                human(retention),
                human(resolution),
                storeBytes / MIB,
                withKeysBytes / MIB,
                (double) storeBytes / samples,
                (double) withKeysBytes / samples,
                estimated / MIB,
                TARGET_MIB,
                withKeysBytes / MIB < TARGET_MIB ? "met" : "MISSED");

        Reference.reachabilityFence(store);
        Reference.reachabilityFence(keys);
        Reference.reachabilityFence(generators);
        Reference.reachabilityFence(fixture);
    }

    /**
     * The key the plugin builds for an operator metric: Prometheus name, variables without angle
     * brackets.
     */
    private static SeriesKey seriesKey(RegisteredMetric metric) {
        List<String> labelNames = new ArrayList<>();
        List<String> labelValues = new ArrayList<>();
        for (Map.Entry<String, String> variable : metric.group().getAllVariables().entrySet()) {
            String key = variable.getKey();
            labelNames.add(key.substring(1, key.length() - 1).intern());
            labelValues.add(variable.getValue());
        }
        return new SeriesKey(
                OperatorMetricsFixture.prometheusName(metric.name()), labelNames, labelValues);
    }

    private static String human(Duration duration) {
        if (duration.toSeconds() % 3600 == 0) {
            return duration.toHours() + " h";
        }
        if (duration.toSeconds() % 60 == 0) {
            return duration.toMinutes() + " min";
        }
        return duration.toSeconds() + " s";
    }
}
