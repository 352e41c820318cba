package io.flinkinsight.plugin.index;

import io.flinkinsight.plugin.exposition.ExpositionFormat;
import io.flinkinsight.plugin.exposition.ScrapeText;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.metrics.util.TestMetricGroup;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static io.flinkinsight.plugin.index.TestingGroups.taskGroup;
import static org.assertj.core.api.Assertions.assertThat;

class MetricIndexTest {

    private final MetricIndex index = new MetricIndex(true);

    @Test
    void taskScopeMetricGetsFlinkNameHelpAndLabels() {
        RegisteredMetric m = index.add(new SimpleCounter(), "numRecordsIn", taskGroup("0"));

        assertThat(m.family().name()).isEqualTo("flink_taskmanager_job_task_numRecordsIn");
        assertThat(m.family().help()).isEqualTo("numRecordsIn (scope: taskmanager_job_task)");
        assertThat(m.labels().names())
                .containsExactly(
                        "host", "job_id", "job_name", "subtask_index", "task_name", "tm_id");
        assertThat(m.labels().values())
                .containsExactly(
                        "localhost", "a1b2c3", "Word_Count", "0", "Source:_numbers____Map", "tm_1");
        assertThat(m.seriesKey().name()).isEqualTo("flink_taskmanager_job_task_numRecordsIn");
        assertThat(m.seriesKey().label("subtask_index")).isEqualTo("0");
    }

    @Test
    void metricsOfOneGroupShareTheirRenderedLabels() {
        TestMetricGroup g = taskGroup("0");
        RegisteredMetric a = index.add(new SimpleCounter(), "numRecordsIn", g);
        RegisteredMetric b = index.add(new SimpleCounter(), "numRecordsOut", g);

        assertThat(a.labels()).isSameAs(b.labels());
    }

    @Test
    void groupsWithTheSameVariablesShareTheirRenderedLabelsAcrossOtherGroups() {
        // a task's subgroups ("buffers", an operator's IO group...) carry the task's variables in
        // maps of their own
        RegisteredMetric a = index.add(new SimpleCounter(), "numRecordsIn", taskGroup("0"));
        index.add(new SimpleCounter(), "numRecordsIn", taskGroup("1"));
        RegisteredMetric b = index.add(new SimpleCounter(), "numRecordsOut", taskGroup("0"));

        assertThat(b.labels()).isSameAs(a.labels());
    }

    @Test
    void removalLeavesNoSeries() {
        TestMetricGroup g0 = taskGroup("0");
        TestMetricGroup g1 = taskGroup("1");
        SimpleCounter c0 = new SimpleCounter();
        SimpleCounter c1 = new SimpleCounter();
        index.add(c0, "numRecordsIn", g0);
        index.add(c1, "numRecordsIn", g1);

        index.remove(c0, "numRecordsIn", g0);
        assertThat(index.families()).hasSize(1);
        assertThat(index.families()[0].members()).hasSize(1);

        index.remove(c1, "numRecordsIn", g1);
        assertThat(index.families()).isEmpty();
        assertThat(index.metricCount()).isZero();
        assertThat(ScrapeText.scrape(index, ExpositionFormat.PROMETHEUS_TEXT))
                .doesNotContain("numRecordsIn");
    }

    @Test
    void labelNamesCollidingAfterSanitisingAreDeduplicated() {
        // FLINK-40648: <a.b> and <a_b> both become a_b; Flink's reporter then fails the whole
        // scrape.
        TestMetricGroup g = group("taskmanager", Map.of("<a.b>", "x", "<a_b>", "y"));
        RegisteredMetric m = index.add(new SimpleCounter(), "c", g);

        assertThat(m.labels().names()).containsExactly("a_b", "a_b_2");
        assertThat(m.labels().values()).containsExactly("x", "y");
        String text = ScrapeText.scrape(index, ExpositionFormat.PROMETHEUS_TEXT);
        assertThat(text).contains("flink_taskmanager_c{a_b=\"x\",a_b_2=\"y\"} 0\n");
    }

    @Test
    void histogramVariableNamedQuantileDoesNotCollideWithTheQuantileLabel() {
        RegisteredMetric m =
                index.add(
                        new TestHistogram(),
                        "latency",
                        group("taskmanager", Map.of("<quantile>", "q")));

        assertThat(m.labels().names()).containsExactly("quantile_2");
        assertThat(m.p99Key().labelNames()).containsExactly("quantile_2", "quantile");
    }

    @Test
    void sameSeriesRegisteredTwiceIsEmittedOnceAndSurvivesRemovalOfOne() {
        SimpleCounter first = new SimpleCounter();
        SimpleCounter second = new SimpleCounter();
        first.inc(1);
        second.inc(2);
        index.add(first, "numRecordsIn", taskGroup("0"));
        index.add(second, "numRecordsIn", taskGroup("0"));

        assertThat(ScrapeText.samples(ScrapeText.scrape(index, ExpositionFormat.PROMETHEUS_TEXT)))
                .extracting(ScrapeText.Sample::value)
                .containsExactly("2", "0");

        index.remove(second, "numRecordsIn", taskGroup("0"));
        assertThat(ScrapeText.samples(ScrapeText.scrape(index, ExpositionFormat.PROMETHEUS_TEXT)))
                .extracting(ScrapeText.Sample::value)
                .containsExactly("1", "0");
        assertThat(index.metricCount()).isEqualTo(1);
    }

    @Test
    void metricOfAnotherKindUnderAnExistingNameIsRejected() {
        index.add(new SimpleCounter(), "x", group("taskmanager", Map.of()));
        RegisteredMetric gauge =
                index.add((Gauge<Integer>) () -> 1, "x", group("taskmanager", Map.of("<a>", "b")));

        assertThat(gauge).isNull();
        assertThat(index.rejectedCount()).isEqualTo(1);
        assertThat(index.families()).hasSize(1);
    }

    @Test
    void groupWithoutLogicalScopeIsRejectedWithoutThrowing() {
        org.apache.flink.metrics.groups.UnregisteredMetricsGroup plain =
                new org.apache.flink.metrics.groups.UnregisteredMetricsGroup();

        assertThat(index.add(new SimpleCounter(), "x", plain)).isNull();
        assertThat(index.rejectedCount()).isEqualTo(1);
    }

    @Test
    void labelValuesAreKeptAndEscapedWhenFilteringIsOff() {
        MetricIndex unfiltered = new MetricIndex(false);
        unfiltered.add(
                new SimpleCounter(), "c", group("taskmanager", Map.of("<v>", "a\\b\"c\nd é")));

        assertThat(ScrapeText.scrape(unfiltered, ExpositionFormat.PROMETHEUS_TEXT))
                .contains("flink_taskmanager_c{v=\"a\\\\b\\\"c\\nd é\"} 0\n");
    }

    @Test
    void familiesAreSortedByName() {
        index.add(new SimpleCounter(), "zeta", group("taskmanager", Map.of()));
        index.add(new SimpleCounter(), "alpha", group("taskmanager", Map.of()));

        assertThat(index.families())
                .extracting(MetricFamily::name)
                .containsExactly("flink_taskmanager_alpha", "flink_taskmanager_zeta");
    }
}
