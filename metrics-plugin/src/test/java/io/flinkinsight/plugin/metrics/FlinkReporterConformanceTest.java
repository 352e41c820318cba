package io.flinkinsight.plugin.metrics;

import io.flinkinsight.plugin.exposition.ExpositionFormat;
import io.flinkinsight.plugin.exposition.ScrapeText;
import io.flinkinsight.plugin.index.MetricIndex;

import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.prometheus.FlinkPrometheusText;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;
import org.apache.flink.runtime.metrics.filter.ReporterFilter;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.groups.FrontMetricGroup;
import org.apache.flink.runtime.metrics.groups.JobManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.ReporterScopedSettings;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskMetricGroup;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our series names, labels and HELP texts against Flink 2.2's PrometheusReporter, on Flink's real
 * metric groups.
 */
class FlinkReporterConformanceTest {

    @Test
    void seriesAndHelpAreIdenticalToFlinksPrometheusReporterOnRealGroups() {
        TaskManagerMetricGroup tm =
                TaskManagerMetricGroup.createTaskManagerMetricGroup(
                        NoOpMetricRegistry.INSTANCE, "worker-1.example.com", ResourceID.generate());
        TaskMetricGroup task =
                tm.addJob(new JobID(), "Word Count (streaming)")
                        .addTask(ExecutionAttemptID.randomId(), "Source: numbers -> Map");
        MetricGroup operator = task.getOrAddOperator("Map");
        JobManagerMetricGroup jm =
                JobManagerMetricGroup.createJobManagerMetricGroup(
                        NoOpMetricRegistry.INSTANCE, "jm-host");
        MetricGroup jmJob = jm.addJob(new JobID(), "Word Count (streaming)");

        FlinkPrometheusText flink = new FlinkPrometheusText();
        MetricIndex ours = new MetricIndex(true);
        register(flink, ours, new SimpleCounter(), "numRecordsIn", task);
        register(
                flink, ours, new MeterView(new SimpleCounter()), "numRecordsInPerSecond", operator);
        register(flink, ours, (Gauge<Long>) () -> 7L, "currentInputWatermark", operator);
        register(flink, ours, new TestHistogram(), "latency", operator);
        register(flink, ours, (Gauge<Integer>) () -> 1, "numRegisteredTaskManagers", jm);
        register(flink, ours, (Gauge<Long>) () -> 3L, "lastCheckpointSize", jmJob);
        register(flink, ours, (Gauge<Double>) () -> 0.5, "Status.JVM.CPU.Load", tm);

        String flinkText = flink.scrape();
        String ourText = ScrapeText.scrape(ours, ExpositionFormat.PROMETHEUS_TEXT);

        // Same series, except our own health counter: summaries have no _sum, as in Flink's
        // reporter.
        Set<String> flinkSeries = series(flinkText);
        Set<String> ourSeries =
                series(ourText).stream()
                        .filter(s -> !s.startsWith("flink_insight_"))
                        .collect(Collectors.toSet());
        assertThat(flinkSeries).hasSize(13);
        assertThat(ourSeries).isEqualTo(flinkSeries);
        assertThat(helpLines(ourText)).containsAll(helpLines(flinkText));
    }

    /**
     * Registers through a FrontMetricGroup, the view of a group Flink's registry hands every
     * reporter.
     */
    private static void register(
            FlinkPrometheusText flink, MetricIndex ours, Metric m, String name, MetricGroup g) {
        FrontMetricGroup<AbstractMetricGroup<?>> front =
                new FrontMetricGroup<>(
                        new ReporterScopedSettings<>(
                                0, '.', ReporterFilter.getNoOpFilter(), Set.of(), Map.of()),
                        (AbstractMetricGroup<?>) g);
        flink.notifyOfAddedMetric(m, name, front);
        assertThat(ours.add(m, name, front)).isNotNull();
    }

    private static Set<String> series(String text) {
        return ScrapeText.samples(text).stream()
                .map(ScrapeText.Sample::series)
                .collect(Collectors.toSet());
    }

    private static List<String> helpLines(String text) {
        return text.lines()
                .filter(
                        l ->
                                l.startsWith("# HELP flink_taskmanager")
                                        || l.startsWith("# HELP flink_jobmanager"))
                .collect(Collectors.toList());
    }
}
