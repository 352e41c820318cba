package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.index.MetricIndex;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;

class MetricsJsonTest {

    private final MetricIndex index = new MetricIndex(true);

    @Test
    void valuesCarryNameLabelsTypeAndValue() throws Exception {
        SimpleCounter c = new SimpleCounter();
        c.inc(4);
        index.add(c, "numRecordsIn", group("taskmanager", Map.of("<tm_id>", "t1")));
        index.add((Gauge<String>) () -> "RUNNING", "status", group("jobmanager", Map.of()));

        String json =
                new String(
                        Json.toBytes(
                                MetricsJson.read(index.families(), "", "", 10, new LongAdder())),
                        StandardCharsets.UTF_8);

        assertThat(json)
                .isEqualTo(
                        "{\"count\":2,\"truncated\":false,\"metrics\":["
                                + "{\"name\":\"flink_jobmanager_status\",\"labels\":{},\"type\":\"gauge\",\"value\":\"RUNNING\"},"
                                + "{\"name\":\"flink_taskmanager_numRecordsIn\",\"labels\":{\"tm_id\":\"t1\"},\"type\":\"counter\","
                                + "\"value\":4}]}");
    }

    @Test
    void histogramGivesItsStatistics() {
        index.add(new TestHistogram(), "latency", group("taskmanager", Map.of()));

        MetricsJson.MetricValue v =
                MetricsJson.read(index.families(), "", "", 10, new LongAdder()).metrics().get(0);

        assertThat(v.histogram())
                .containsKeys(
                        "count", "min", "max", "mean", "p50", "p75", "p95", "p98", "p99", "p999");
        assertThat(v.histogram().get("p50")).isEqualTo(0.5);
    }

    @Test
    void prefixFiltersAndLimitTruncates() {
        for (int i = 0; i < 5; i++) {
            index.add(new SimpleCounter(), "c" + i, group("taskmanager", Map.of()));
        }
        index.add(new SimpleCounter(), "c", group("jobmanager", Map.of()));

        MetricsJson.Answer a =
                MetricsJson.read(index.families(), "flink_taskmanager_", "", 3, new LongAdder());

        assertThat(a.count()).isEqualTo(3);
        assertThat(a.truncated()).isTrue();
        assertThat(a.metrics()).allMatch(m -> m.name().startsWith("flink_taskmanager_"));
    }

    @Test
    void unreadableMetricIsSkippedAndCounted() {
        index.add(
                (Gauge<Integer>)
                        () -> {
                            throw new IllegalStateException();
                        },
                "broken",
                group("taskmanager", Map.of()));
        LongAdder errors = new LongAdder();

        assertThat(MetricsJson.read(index.families(), "", "", 10, errors).metrics()).isEmpty();
        assertThat(errors.sum()).isEqualTo(1);
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
        LongAdder errors = new LongAdder();

        assertThat(MetricsJson.read(index.families(), "", "", 10, errors).metrics())
                .extracting(MetricsJson.MetricValue::name)
                .containsExactly("flink_taskmanager_fine");
        assertThat(errors.sum()).isEqualTo(1);
    }
}
