package io.flinkinsight.plugin.index;

import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestMetricGroup;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index's job ages: one per job with metrics here, shared by its metrics, dropped with its last
 * metric; only jobs once shown are remembered after that, and at most {@link
 * JobAges#RETIRED_CAPACITY} of them.
 */
class JobAgesTest {

    private final AtomicLong nanos = new AtomicLong();
    private final MetricIndex index =
            new MetricIndex(true, new JobSeriesRule(Duration.ofSeconds(30), nanos::get));

    @Test
    void theMetricsOfAJobShareOneAgeFromItsFirstMetric() {
        RegisteredMetric task = index.add(new SimpleCounter(), "numRecordsIn", task("j1", "0"));
        nanos.addAndGet(5_000);
        RegisteredMetric operator =
                index.add(new SimpleCounter(), "numRecordsOut", operator("j1", "op"));
        RegisteredMetric other = index.add(new SimpleCounter(), "numRecordsIn", task("j2", "0"));
        RegisteredMetric none =
                index.add(new SimpleCounter(), "count", group("taskmanager", Map.of()));

        assertThat(operator.job()).isSameAs(task.job());
        assertThat(task.job().jobId()).isEqualTo("j1");
        assertThat(task.job().firstRegisteredNanos()).isZero();
        assertThat(other.job()).isNotSameAs(task.job());
        assertThat(none.job()).isNull();
        assertThat(index.trackedJobs()).isEqualTo(2);
    }

    @Test
    void aShortJobIsForgottenWithItsLastMetric() {
        for (int i = 0; i < 1000; i++) {
            SimpleCounter counter = new SimpleCounter();
            TestMetricGroup g = task("short-" + i, "0");
            index.add(counter, "numRecordsIn", g);
            nanos.addAndGet(Duration.ofMillis(300).toNanos());
            index.remove(counter, "numRecordsIn", g);
        }

        assertThat(index.trackedJobs()).isZero();
        assertThat(index.retiredJobs()).isZero();
    }

    @Test
    void aJobKeepsItsAgeWhileAnyOfItsMetricsIsRegistered() {
        SimpleCounter a = new SimpleCounter();
        SimpleCounter b = new SimpleCounter();
        index.add(a, "numRecordsIn", task("j1", "0"));
        index.add(b, "numRecordsIn", task("j1", "1"));
        index.remove(a, "numRecordsIn", task("j1", "0"));

        assertThat(index.trackedJobs()).isEqualTo(1);
        index.remove(b, "numRecordsIn", task("j1", "1"));
        assertThat(index.trackedJobs()).isZero();
    }

    @Test
    void jobsShownOnceAreRememberedWithinABound() {
        int jobs = JobAges.RETIRED_CAPACITY + 50;
        for (int i = 0; i < jobs; i++) {
            SimpleCounter counter = new SimpleCounter();
            index.add(counter, "numRecordsIn", task("long-" + i, "0"));
        }
        nanos.addAndGet(Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < jobs; i++) {
            // A removal finds the metric by its group's labels and the metric itself.
            RegisteredMetric m = findMember("long-" + i);
            index.remove(m.metric(), "numRecordsIn", task("long-" + i, "0"));
        }

        assertThat(index.trackedJobs()).isZero();
        assertThat(index.retiredJobs()).isEqualTo(JobAges.RETIRED_CAPACITY);
        // The newest are kept: the last job comes back with its age, the first as a new job.
        RegisteredMetric back =
                index.add(new SimpleCounter(), "numRecordsIn", task("long-" + (jobs - 1), "0"));
        RegisteredMetric forgotten =
                index.add(new SimpleCounter(), "numRecordsIn", task("long-0", "0"));
        assertThat(back.job().firstRegisteredNanos()).isZero();
        assertThat(forgotten.job().firstRegisteredNanos())
                .isEqualTo(Duration.ofMinutes(1).toNanos());
    }

    @Test
    void withAMinimumAgeOfZeroNoJobIsTracked() {
        MetricIndex all = new MetricIndex(true, new JobSeriesRule(Duration.ZERO, nanos::get));
        RegisteredMetric m = all.add(new SimpleCounter(), "numRecordsIn", task("j1", "0"));

        assertThat(m.job()).isNull();
        assertThat(all.trackedJobs()).isZero();
    }

    private RegisteredMetric findMember(String jobId) {
        for (MetricFamily family : index.families()) {
            for (RegisteredMetric m : family.members()) {
                if (m.job() != null && m.job().jobId().equals(jobId)) {
                    return m;
                }
            }
        }
        throw new AssertionError("no metric of " + jobId);
    }

    private static TestMetricGroup task(String jobId, String subtask) {
        return group("taskmanager.job.task", Map.of("<job_id>", jobId, "<subtask_index>", subtask));
    }

    private static TestMetricGroup operator(String jobId, String operatorId) {
        return group(
                "taskmanager.job.task.operator",
                Map.of("<job_id>", jobId, "<operator_id>", operatorId));
    }
}
