package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.store.SeriesKey;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.metrics.util.TestMeter;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;

class MetricSamplerTest {

    private record Recorded(SeriesKey key, long ts, double value) {}

    private final List<Recorded> recorded = new ArrayList<>();
    private final MetricIndex index = new MetricIndex(true);

    private MetricSampler sampler(long nowMillis) {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(nowMillis), ZoneOffset.UTC);
        return new MetricSampler(
                index, (k, ts, v) -> recorded.add(new Recorded(k, ts, v)), clock, 5000);
    }

    @Test
    void numericValuesBecomeOneSeriesEachAndHistogramsThree() {
        SimpleCounter c = new SimpleCounter();
        c.inc(3);
        index.add(c, "numRecordsIn", group("taskmanager", Map.of("<tm_id>", "t")));
        index.add(new TestMeter(10, 1.5), "rate", group("taskmanager", Map.of()));
        index.add((Gauge<Boolean>) () -> true, "up", group("taskmanager", Map.of()));
        index.add((Gauge<String>) () -> "RUNNING", "status", group("taskmanager", Map.of()));
        TestHistogram h = new TestHistogram();
        h.setCount(9);
        index.add(h, "latency", group("taskmanager", Map.of()));

        int n = sampler(0).sample(1000);

        assertThat(n).isEqualTo(6);
        assertThat(recorded)
                .extracting(r -> r.key().name() + r.key().labelValues() + "=" + r.value())
                .containsExactlyInAnyOrder(
                        "flink_taskmanager_numRecordsIn[t]=3.0",
                        "flink_taskmanager_rate[]=1.5",
                        "flink_taskmanager_up[]=1.0",
                        "flink_taskmanager_latency[0.5]=0.5",
                        "flink_taskmanager_latency[0.99]=0.99",
                        "flink_taskmanager_latency_count[]=9.0");
        assertThat(recorded).allMatch(r -> r.ts() == 1000);
    }

    @Test
    void throwingGaugeIsSkippedAndCounted() {
        index.add(
                (Gauge<Integer>)
                        () -> {
                            throw new IllegalStateException();
                        },
                "broken",
                group("taskmanager", Map.of()));
        index.add((Gauge<Integer>) () -> 1, "fine", group("taskmanager", Map.of()));
        MetricSampler sampler = sampler(0);

        assertThat(sampler.sample(0)).isEqualTo(1);
        assertThat(sampler.errorCount()).isEqualTo(1);
    }

    @Test
    void gaugeThrowingAnErrorIsSkippedAndCounted() {
        index.add(
                (Gauge<Integer>)
                        () -> {
                            throw new AssertionError("gauge bug");
                        },
                "broken",
                group("taskmanager", Map.of()));
        index.add((Gauge<Integer>) () -> 1, "fine", group("taskmanager", Map.of()));
        MetricSampler sampler = sampler(0);

        assertThat(sampler.sample(0)).isEqualTo(1);
        assertThat(sampler.errorCount()).isEqualTo(1);
        assertThat(recorded)
                .extracting(r -> r.key().name())
                .containsExactly("flink_taskmanager_fine");
    }

    @Test
    void scheduledRunStampsTheNearestResolutionBoundary() {
        index.add((Gauge<Integer>) () -> 1, "g", group("taskmanager", Map.of()));

        sampler(20_003).run(); // fired 3 ms late
        sampler(24_998).run(); // fired 2 ms early

        assertThat(recorded).extracting(Recorded::ts).containsExactly(20_000L, 25_000L);
    }

    @Test
    void throwingSinkDoesNotStopTheSampler() {
        index.add((Gauge<Integer>) () -> 1, "g", group("taskmanager", Map.of()));
        MetricSampler sampler =
                new MetricSampler(
                        index,
                        (k, ts, v) -> {
                            throw new IllegalStateException("store bug");
                        },
                        Clock.systemUTC(),
                        5000);

        sampler.run(); // must not throw: a throwing scheduled task would never run again
        assertThat(sampler.errorCount()).isEqualTo(1);
    }
}
