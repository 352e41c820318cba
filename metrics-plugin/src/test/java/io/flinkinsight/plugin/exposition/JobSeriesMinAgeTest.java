package io.flinkinsight.plugin.exposition;

import io.flinkinsight.plugin.api.MetricsJson;
import io.flinkinsight.plugin.index.JobSeriesRule;
import io.flinkinsight.plugin.index.MetricIndex;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.metrics.util.TestMetricGroup;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scrape.job-series.min-age}: the series of a job registered in this process for less than
 * the minimum age are left out of {@code /metrics}, those of older jobs and of no job are always
 * in, and 0 shows all at once.
 */
class JobSeriesMinAgeTest {

    private static final Duration MIN_AGE = Duration.ofSeconds(30);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final JobSeriesRule rule = new JobSeriesRule(MIN_AGE, nanos::get);
    private final MetricIndex index = new MetricIndex(true, rule);

    @Test
    void aYoungJobsSeriesAreLeftOutAndShownOnceItIsOldEnough() {
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));
        index.add(new SimpleCounter(), "lastCheckpointSize", jobManagerJob("job-a"));

        after(Duration.ofSeconds(29));
        String young = scrape(rule);
        assertThat(young).doesNotContain("job_id=").doesNotContain("numRecordsIn");
        assertThat(young).contains("flink_insight_scrape_job_series_withheld 2\n");

        after(Duration.ofSeconds(1));
        String old = scrape(rule);
        assertThat(old)
                .contains("flink_taskmanager_job_task_numRecordsIn{")
                .contains("flink_jobmanager_job_lastCheckpointSize{")
                .contains("flink_insight_scrape_job_series_withheld 0\n");
    }

    @Test
    void metricsOfNoJobAreAlwaysShown() {
        index.add((Gauge<Integer>) () -> 1, "numRegisteredTaskManagers", jobManager());
        index.add(new SimpleCounter(), "Status.JVM.GarbageCollector.Count", taskManager());
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));

        String text = scrape(rule);

        assertThat(text)
                .contains("flink_jobmanager_numRegisteredTaskManagers{host=\"jm\"} 1\n")
                .contains("flink_taskmanager_Status_JVM_GarbageCollector_Count{")
                .doesNotContain("job_id=");
    }

    @Test
    void theAgeIsTheJobsNotTheMetrics() {
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));
        after(Duration.ofSeconds(31));
        // An operator's metrics registered later, e.g. a task deployed after the first one.
        index.add(new SimpleCounter(), "numRecordsOut", task("job-a", "1"));
        index.add(new SimpleCounter(), "numRecordsIn", task("job-b", "0"));

        String text = scrape(rule);

        assertThat(text)
                .contains("flink_taskmanager_job_task_numRecordsOut{job_id=\"job_a\"")
                .contains("flink_taskmanager_job_task_numRecordsIn{job_id=\"job_a\"")
                .doesNotContain("job_b");
    }

    @Test
    void aHistogramWithheldCountsItsQuantilesAndCount() {
        index.add(new TestHistogram(), "latency", task("job-a", "0"));

        assertThat(scrape(rule))
                .doesNotContain("latency")
                .contains("flink_insight_scrape_job_series_withheld 7\n");
    }

    @Test
    void aFamilyWhoseMembersAreAllWithheldWritesNoHeader() {
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));

        assertThat(scrape(rule)).doesNotContain("# HELP flink_taskmanager_job_task_numRecordsIn");
    }

    @Test
    void aJobShownOnceIsShownAtOnceWhenItsTasksComeBack() {
        SimpleCounter before = new SimpleCounter();
        TestMetricGroup firstAttempt = task("job-a", "0");
        index.add(before, "numRecordsIn", firstAttempt);
        after(Duration.ofSeconds(60));
        // A failover: every task of the job here is cancelled, its job group with them, and
        // deployed again.
        index.remove(before, "numRecordsIn", firstAttempt);
        after(Duration.ofSeconds(1));
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));

        assertThat(scrape(rule))
                .contains("flink_taskmanager_job_task_numRecordsIn{job_id=\"job_a\"");
    }

    @Test
    void aJobNeverShownIsYoungAgainWhenItComesBack() {
        SimpleCounter counter = new SimpleCounter();
        TestMetricGroup g = task("job-a", "0");
        index.add(counter, "numRecordsIn", g);
        after(Duration.ofSeconds(20));
        index.remove(counter, "numRecordsIn", g);
        after(Duration.ofSeconds(20));
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));

        assertThat(scrape(rule)).doesNotContain("job_a");
        after(Duration.ofSeconds(30));
        assertThat(scrape(rule)).contains("job_a");
    }

    @Test
    void aMinimumAgeOfZeroShowsEverySeriesAtOnceAndNoWithheldFigure() {
        JobSeriesRule showAll = new JobSeriesRule(Duration.ZERO, nanos::get);
        MetricIndex all = new MetricIndex(true, showAll);
        all.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));
        all.add((Gauge<Integer>) () -> 1, "numRegisteredTaskManagers", jobManager());

        String text = scrape(all, showAll);

        assertThat(text)
                .contains("flink_taskmanager_job_task_numRecordsIn{job_id=\"job_a\"")
                .contains("flink_jobmanager_numRegisteredTaskManagers")
                .doesNotContain("withheld");
        assertThat(all.families()[1].members()[0].job()).as("nothing tracked").isNull();
    }

    @Test
    void theJsonApiStillListsAYoungJobsMetrics() {
        index.add(new SimpleCounter(), "numRecordsIn", task("job-a", "0"));

        assertThat(MetricsJson.read(index.families(), "", "", 10, new LongAdder()).metrics())
                .extracting(MetricsJson.MetricValue::name)
                .containsExactly("flink_taskmanager_job_task_numRecordsIn");
        assertThat(scrape(rule)).doesNotContain("numRecordsIn");
    }

    private void after(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    private String scrape(JobSeriesRule r) {
        return scrape(index, r);
    }

    private static String scrape(MetricIndex index, JobSeriesRule r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ExpositionWriter(new LongAdder(), List::of, r)
                .write(
                        index.families(),
                        ExpositionFormat.PROMETHEUS_TEXT,
                        new ExpositionBuffer(bytes));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static TestMetricGroup task(String jobId, String subtask) {
        return group(
                "taskmanager.job.task",
                Map.of(
                        "<job_id>", jobId,
                        "<tm_id>", "tm-1",
                        "<subtask_index>", subtask));
    }

    private static TestMetricGroup jobManagerJob(String jobId) {
        return group("jobmanager.job", Map.of("<host>", "jm", "<job_id>", jobId));
    }

    private static TestMetricGroup jobManager() {
        return group("jobmanager", Map.of("<host>", "jm"));
    }

    private static TestMetricGroup taskManager() {
        return group("taskmanager", Map.of("<host>", "tm", "<tm_id>", "tm-1"));
    }
}
