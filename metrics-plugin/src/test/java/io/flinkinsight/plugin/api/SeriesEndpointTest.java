package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SeriesEndpointTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final String METRIC = "flink_taskmanager_job_task_numRecordsOut";

    private final TestingClock clock = new TestingClock(NOW - 600_000);
    private final SeriesStore store = new SeriesStore(StoreSettings.defaults(), clock);
    private final SeriesEndpoint endpoint = new SeriesEndpoint(store);

    private static SeriesKey key(String subtask) {
        return new SeriesKey(METRIC, List.of("job_id", "subtask_index"), List.of("j1", subtask));
    }

    /**
     * Ten minutes of samples every 5 s for subtasks 0 and 1, values = seconds since start (subtask
     * 1: negated).
     */
    private void fill() {
        for (int i = 0; i < 120; i++) {
            store.record(key("0"), clock.millis(), i * 5);
            store.record(key("1"), clock.millis(), -i * 5);
            clock.advance(5_000);
        }
        clock.set(NOW);
    }

    @Test
    void returnsAllMatchingSeriesWithPointsOldestFirst() throws Exception {
        fill();
        SeriesEndpoint.Response r =
                endpoint.handle(QueryParams.of("metric", METRIC, "from", "-1h"));

        assertThat(r.series()).hasSize(2);
        assertThat(r.truncated()).isFalse();
        SeriesEndpoint.SeriesPoints first = r.series().get(0);
        assertThat(first.labels())
                .containsEntry("subtask_index", "0")
                .containsEntry("job_id", "j1");
        assertThat(first.points()).hasSize(120);
        assertThat(first.points().get(0)).containsExactly(NOW - 600_000, 0.0);
        assertThat(first.points().get(119)).containsExactly(NOW - 5_000, 595.0);
    }

    @Test
    void labelParametersFilterTheSeries() throws Exception {
        fill();
        SeriesEndpoint.Response r =
                endpoint.handle(QueryParams.of("metric", METRIC, "subtask_index", "1"));

        assertThat(r.series())
                .singleElement()
                .satisfies(s -> assertThat(s.labels()).containsEntry("subtask_index", "1"));
    }

    @Test
    void relativeAndAbsoluteWindowsCutThePoints() throws Exception {
        fill();
        assertThat(
                        endpoint.handle(
                                        QueryParams.of(
                                                "metric",
                                                METRIC,
                                                "from",
                                                "-1m",
                                                "subtask_index",
                                                "0"))
                                .series()
                                .get(0)
                                .points())
                .hasSize(12);
        String from = Long.toString(NOW - 100_000);
        String to = Long.toString(NOW - 50_000);
        assertThat(
                        endpoint.handle(
                                        QueryParams.of(
                                                "metric",
                                                METRIC,
                                                "from",
                                                from,
                                                "to",
                                                to,
                                                "subtask_index",
                                                "0"))
                                .series()
                                .get(0)
                                .points())
                .hasSize(11);
    }

    @Test
    void stepKeepsTheLastSampleOfEachAlignedBucket() throws Exception {
        fill();
        SeriesEndpoint.Response r =
                endpoint.handle(
                        QueryParams.of(
                                "metric",
                                METRIC,
                                "from",
                                "-10m",
                                "step",
                                "1m",
                                "subtask_index",
                                "0"));

        List<Object[]> points = r.series().get(0).points();
        assertThat(r.step()).isEqualTo(60_000);
        assertThat(points).hasSizeBetween(10, 11);
        for (Object[] p : points) {
            assertThat((long) p[0] % 60_000).isZero();
        }
        assertThat(points.get(points.size() - 1)[1]).isEqualTo(595.0);
    }

    @Test
    void unknownMetricIsAnEmptyList() throws Exception {
        fill();
        assertThat(endpoint.handle(QueryParams.of("metric", "nope")).series()).isEmpty();
    }

    @Test
    void limitCapsTheSeriesAndSaysSo() throws Exception {
        fill();
        SeriesEndpoint.Response r = endpoint.handle(QueryParams.of("metric", METRIC, "limit", "1"));

        assertThat(r.series()).hasSize(1);
        assertThat(r.matched()).isEqualTo(2);
        assertThat(r.truncated()).isTrue();
    }

    @Test
    void aLongWindowIsDownsampledToAtMostTheMaximumPoints() throws Exception {
        SeriesStore day =
                new SeriesStore(
                        new StoreSettings(Duration.ofDays(1), Duration.ofSeconds(1), 10, 10, 10),
                        clock);
        for (int i = 0; i < 10_000; i++) {
            day.record(key("0"), clock.millis(), i);
            clock.advance(1_000);
        }
        SeriesEndpoint.Response r =
                new SeriesEndpoint(day).handle(QueryParams.of("metric", METRIC, "from", "-1d"));

        assertThat(r.step()).isPositive();
        assertThat(r.series().get(0).points())
                .hasSizeLessThanOrEqualTo(SeriesEndpoint.MAX_POINTS_PER_SERIES);
        assertThat(r.series().get(0).points().get(r.series().get(0).points().size() - 1)[1])
                .isEqualTo(9_999.0);
    }

    @Test
    void theWidestWindowIsStillDownsampledNotCutAtItsOldestPoints() throws Exception {
        // found writing TargetFuzzTest: a relative 'from' before the epoch and the largest 'to'
        // made the window's
        // span overflow to a negative number, so nothing was downsampled and the answer stopped at
        // its oldest points
        SeriesStore day =
                new SeriesStore(
                        new StoreSettings(Duration.ofDays(1), Duration.ofSeconds(1), 10, 10, 10),
                        clock);
        for (int i = 0; i < 10_000; i++) {
            day.record(key("0"), clock.millis(), i);
            clock.advance(1_000);
        }
        SeriesEndpoint.Response r =
                new SeriesEndpoint(day)
                        .handle(
                                QueryParams.of(
                                        "metric",
                                        METRIC,
                                        "from",
                                        "-99999999999d",
                                        "to",
                                        String.valueOf(Long.MAX_VALUE)));

        assertThat(r.from()).isZero();
        assertThat(r.step()).isPositive();
        List<Object[]> points = r.series().get(0).points();
        assertThat(points).hasSizeLessThanOrEqualTo(SeriesEndpoint.MAX_POINTS_PER_SERIES);
        assertThat(points.get(points.size() - 1)[1]).isEqualTo(9_999.0);
    }

    @Test
    void nonFiniteValuesAreSpelledAsStrings() throws Exception {
        clock.set(NOW);
        store.record(key("0"), NOW - 3, Double.NaN);
        store.record(key("0"), NOW - 2, Double.POSITIVE_INFINITY);
        store.record(key("0"), NOW - 1, Double.NEGATIVE_INFINITY);

        List<Object[]> points =
                endpoint.handle(QueryParams.of("metric", METRIC)).series().get(0).points();
        assertThat(points).extracting(p -> p[1]).containsExactly("NaN", "+Inf", "-Inf");
    }

    @Test
    void badParametersAreBadRequests() {
        assertThatThrownBy(() -> endpoint.handle(QueryParams.of()))
                .isInstanceOf(BadRequestException.class);
        assertThatThrownBy(
                        () ->
                                endpoint.handle(
                                        QueryParams.of("metric", METRIC, "from", "yesterday")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("from");
        assertThatThrownBy(
                        () ->
                                endpoint.handle(
                                        QueryParams.of(
                                                "metric", METRIC, "from", "-5m", "to", "-10m")))
                .isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> endpoint.handle(QueryParams.of("metric", METRIC, "step", "0")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("step");
        assertThatThrownBy(() -> endpoint.handle(QueryParams.of("metric", METRIC, "limit", "5000")))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(
                        () ->
                                endpoint.handle(
                                        QueryParams.of(
                                                "metric", METRIC, "job_id", "a", "job_id", "b")))
                .isInstanceOf(BadRequestException.class);
    }

    @Test
    void namesAreListedByPrefixWithALimit() throws Exception {
        clock.set(NOW);
        for (String name : List.of("flink_a_x", "flink_a_y", "flink_b_z", "other")) {
            store.record(new SeriesKey(name, List.of(), List.of()), NOW, 1);
        }
        SeriesNamesEndpoint names = new SeriesNamesEndpoint(store);

        assertThat(names.handle(QueryParams.of("prefix", "flink_a")).names())
                .containsExactly("flink_a_x", "flink_a_y");
        SeriesNamesEndpoint.Response limited =
                names.handle(QueryParams.of("prefix", "flink_", "limit", "2"));
        assertThat(limited.names()).containsExactly("flink_a_x", "flink_a_y");
        assertThat(limited.truncated()).isTrue();
        assertThat(names.handle(QueryParams.of()).names()).hasSize(4);
    }

    @Test
    void namesAreFilteredByContainedTextIgnoringCaseAndBounded() throws Exception {
        clock.set(NOW);
        for (String name :
                List.of(
                        "flink_a_numRecordsIn",
                        "flink_b_numRecordsOut",
                        "flink_c_uptime",
                        "records")) {
            store.record(new SeriesKey(name, List.of(), List.of()), NOW, 1);
        }
        SeriesNamesEndpoint names = new SeriesNamesEndpoint(store);

        SeriesNamesEndpoint.Response matching = names.handle(QueryParams.of("contains", "RECORDS"));
        assertThat(matching.names())
                .containsExactly("flink_a_numRecordsIn", "flink_b_numRecordsOut", "records");
        assertThat(matching.contains()).isEqualTo("RECORDS");
        assertThat(names.handle(QueryParams.of("prefix", "flink_", "contains", "records")).names())
                .containsExactly("flink_a_numRecordsIn", "flink_b_numRecordsOut");
        SeriesNamesEndpoint.Response limited =
                names.handle(QueryParams.of("contains", "records", "limit", "1"));
        assertThat(limited.names()).containsExactly("flink_a_numRecordsIn");
        assertThat(limited.truncated()).isTrue();
        assertThat(names.handle(QueryParams.of("contains", "nothing")).names()).isEmpty();
        assertThatThrownBy(() -> names.handle(QueryParams.of("contains", "x".repeat(257))))
                .isInstanceOf(BadRequestException.class);
    }
}
