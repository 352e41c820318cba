package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.events.InsightEventReporterFactory;
import io.flinkinsight.plugin.index.TestingGroups;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.traces.InsightTraceReporterFactory;

import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.traces.reporter.TraceReporter;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.flinkinsight.plugin.TestingHttpClient.freePort;
import static io.flinkinsight.plugin.TestingHttpClient.get;
import static io.flinkinsight.plugin.TestingHttpClient.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many jobs' checkpoints at production scale, as Flink hands them to the plugin: 50 jobs of 30
 * vertices at parallelism 2, each checkpoint a {@code Checkpoint} span with per-task and
 * per-subtask children built with Flink's own span builder and passed to the trace reporter, job
 * status through the event reporter, and two metrics per subtask sampled into the history every
 * second. Half the jobs finish midway. The stores' budget is the smallest accepted (16 mb), so it
 * binds: the stores never take more, the finished jobs lose their data before a running job loses
 * any, every running job keeps its newest checkpoint and its history, and the panel's answers stay
 * small.
 */
class ManyJobsCheckpointsITCase {

    private static final int JOBS = 50;
    private static final int VERTICES = 30;
    private static final int PARALLELISM = 2;
    private static final int ROUNDS = 120;
    private static final int FINISH_AFTER_ROUND = 40;
    private static final long BUDGET = 16L << 20;

    /** The overview: figures and capabilities, a few kilobytes whatever the stores hold. */
    private static final int OVERVIEW_MAX_BYTES = 16 << 10;

    /**
     * All jobs' checkpoints without per-task detail (the panel's list): 50 jobs x 50 checkpoints x
     * under 800 B.
     */
    private static final int LIST_MAX_BYTES = 2 << 20;

    /**
     * One job's 50 newest checkpoints with per-task detail (30 tasks, subtasks on the newest 10).
     */
    private static final int ONE_JOB_MAX_BYTES = 4 << 20;

    @Test
    void fiftyJobsOfThirtyVerticesStayWithinTheStoresBudget() throws Exception {
        int port = freePort();
        MetricConfig config = new MetricConfig();
        config.setProperty("port", String.valueOf(port));
        config.setProperty("bind-host", "127.0.0.1");
        config.setProperty("role", "jobmanager");
        config.setProperty("hub.enabled", "false");
        config.setProperty("history.resolution", "1 s");
        config.setProperty("stores.max-bytes", "16 mb");
        MetricReporter metrics =
                new InsightMetricReporterFactory().createMetricReporter(new Properties());
        TraceReporter traces =
                new InsightTraceReporterFactory().createTraceReporter(new Properties());
        EventReporter events =
                new InsightEventReporterFactory().createEventReporter(new Properties());
        metrics.open(config);
        traces.open(new MetricConfig());
        events.open(new MetricConfig());
        try {
            InsightStores stores = SharedRuntime.current().stores();
            List<String> jobs = new ArrayList<>();
            Map<String, List<Registered>> metricsOf = new HashMap<>();
            for (int j = 0; j < JOBS; j++) {
                String job = String.format("%032x", 0x5ca1e000L + j);
                jobs.add(job);
                events.notifyOfAddedEvent(
                        FlinkTelemetry.jobStatus(job, "RUNNING", System.currentTimeMillis()));
                metricsOf.put(job, register(metrics, job));
            }
            awaitSampled(stores, JOBS * VERTICES * PARALLELISM * 2);

            long largest = 0;
            for (int round = 1; round <= ROUNDS; round++) {
                for (int j = 0; j < JOBS; j++) {
                    if (round <= FINISH_AFTER_ROUND || j % 2 == 0) {
                        traces.notifyOfAddedSpan(
                                FlinkTelemetry.checkpointSpan(
                                        jobs.get(j),
                                        round,
                                        System.currentTimeMillis() - 1_000,
                                        VERTICES,
                                        PARALLELISM));
                    }
                }
                if (round == FINISH_AFTER_ROUND) {
                    for (int j = 1; j < JOBS; j += 2) {
                        events.notifyOfAddedEvent(
                                FlinkTelemetry.jobStatus(
                                        jobs.get(j), "FINISHED", System.currentTimeMillis()));
                        for (Registered r : metricsOf.get(jobs.get(j))) {
                            metrics.notifyOfRemovedMetric(r.counter(), r.name(), r.group());
                        }
                    }
                }
                long held = stores.estimatedBytes();
                largest = Math.max(largest, held);
                assertThat(held).as("the stores after round %d", round).isLessThanOrEqualTo(BUDGET);
                if (round % 10 == 0) {
                    Thread.sleep(
                            1_100); // a sampling round and its budget pass, as time passes between
                    // checkpoints
                }
            }
            System.out.printf(
                    "Largest the stores held: %.2f MiB of %.0f MiB; checkpoints evicted %d, series evicted"
                            + " %d, jobs evicted %d%n",
                    largest / 1048576.0,
                    BUDGET / 1048576.0,
                    stores.checkpoints().evicted(),
                    stores.series().evictedSeries(),
                    stores.jobs().evicted());
            assertThat(stores.checkpoints().evicted()).as("the budget bound").isPositive();

            // the finished jobs' checkpoints went before any running job lost one
            boolean runningLostSome = false;
            for (int j = 0; j < JOBS; j += 2) {
                String job = jobs.get(j);
                assertThat(stores.checkpoints().latest(job).checkpointId())
                        .as("newest of %s", job)
                        .isEqualTo(ROUNDS);
                assertThat(stores.series().keys(k -> job.equals(k.label("job_id"))))
                        .as("history of %s", job)
                        .hasSize(VERTICES * PARALLELISM * 2);
                runningLostSome |= stores.checkpoints().droppedOldest(job);
            }
            if (runningLostSome) {
                for (int j = 1; j < JOBS; j += 2) {
                    assertThat(stores.checkpoints().latest(jobs.get(j)))
                            .as("finished %s", jobs.get(j))
                            .isNull();
                }
            }

            String overview = get(port, "/api/v1/overview");
            assertThat(status(overview)).isEqualTo(200);
            assertThat(overview.length()).isLessThan(OVERVIEW_MAX_BYTES);
            assertThat(figure(overview, "flink_insight_stores_bytes")).isLessThanOrEqualTo(BUDGET);
            assertThat(figure(overview, "flink_insight_stores_max_bytes")).isEqualTo(BUDGET);
            assertThat(figure(overview, "flink_insight_checkpoints_evicted_total")).isPositive();
            String list = get(port, "/api/v1/checkpoints");
            assertThat(status(list)).isEqualTo(200);
            assertThat(list.length()).isLessThan(LIST_MAX_BYTES);
            String oneJob = get(port, "/api/v1/checkpoints?job=" + jobs.get(0));
            assertThat(status(oneJob)).isEqualTo(200);
            assertThat(oneJob.length()).isLessThan(ONE_JOB_MAX_BYTES);
            assertThat(oneJob).contains("\"subtasks\":[{");
            System.out.printf(
                    "Answers: overview %d B, checkpoints of all jobs %d B, of one job with tasks %d B%n",
                    overview.length(), list.length(), oneJob.length());
            String scrape = get(port, "/metrics");
            assertThat(scrape)
                    .contains(
                            "flink_insight_stores_bytes ",
                            "flink_insight_jobs_evicted_total ",
                            "flink_insight_history_series_evicted_total ",
                            "flink_insight_internal_failures_total ");
        } finally {
            metrics.close();
            traces.close();
            events.close();
        }
    }

    private record Registered(SimpleCounter counter, String name, MetricGroup group) {}

    /**
     * Two counters per subtask of each vertex, in task-scope groups as a TaskManager's would be.
     */
    private static List<Registered> register(MetricReporter metrics, String job) {
        List<Registered> out = new ArrayList<>();
        for (int v = 0; v < VERTICES; v++) {
            for (int s = 0; s < PARALLELISM; s++) {
                MetricGroup group =
                        TestingGroups.group(
                                "taskmanager.job.task",
                                Map.of(
                                        "<job_id>",
                                        job,
                                        "<job_name>",
                                        "job-" + job.substring(28),
                                        "<task_id>",
                                        FlinkTelemetry.vertexId(job, v),
                                        "<task_name>",
                                        "vertex " + v,
                                        "<subtask_index>",
                                        String.valueOf(s),
                                        "<tm_id>",
                                        "tm-" + s));
                for (String name : List.of("numRecordsIn", "numRecordsOut")) {
                    SimpleCounter c = new SimpleCounter();
                    c.inc(v * 10L + s);
                    metrics.notifyOfAddedMetric(c, name, group);
                    out.add(new Registered(c, name, group));
                }
            }
        }
        return out;
    }

    private static void awaitSampled(InsightStores stores, int series) throws InterruptedException {
        for (int i = 0; i < 100 && stores.series().seriesCount() < series; i++) {
            Thread.sleep(100);
        }
        assertThat(stores.series().seriesCount()).isGreaterThanOrEqualTo(series);
    }

    private static long figure(String overview, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":([0-9.E]+)").matcher(overview);
        assertThat(m.find()).as(name + " in " + overview).isTrue();
        return (long) Double.parseDouble(m.group(1));
    }
}
