package io.flinkinsight.it;

import io.flinkinsight.harness.JvmHeap;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand short jobs through the SQL Gateway: afterwards no series of a finished job is left in
 * any scrape, the number of series is back at its baseline, the TaskManager's heap after a GC is
 * back near its baseline, and the JobManager's stores stay within their bounds.
 */
class StaleMetricsITCase {

    private static final int JOBS = 1000;
    private static final int SESSIONS = 4;

    @Test
    void finishedJobsLeaveNoSeriesBehind() throws Exception {
        try (LocalFlinkCluster cluster =
                TestClusters.withPlugin("stale-metrics")
                        .config("metrics.reporter.insight.jobs.max", "200")
                        // Every job's series in the scrape at once (by default short jobs never
                        // show), so a series the index kept after its job ended would be seen.
                        .config("metrics.reporter.insight.scrape.job-series.min-age", "0")
                        .start()) {
            // Warm up with a few jobs, so class loading and JIT do not count as growth.
            runShortJobs(cluster, 20);
            awaitNoJobSeries(cluster);
            int jmBaseline = seriesCount(cluster, Role.JOBMANAGER);
            int tmBaseline = seriesCount(cluster, Role.TASKMANAGER);
            double heapBaseline = JvmHeap.usedAfterFullGc(cluster, Role.TASKMANAGER);

            runShortJobs(cluster, JOBS);

            awaitNoJobSeries(cluster);
            assertThat(seriesCount(cluster, Role.JOBMANAGER))
                    .as("JobManager series vs baseline")
                    .isLessThanOrEqualTo(jmBaseline + 5);
            assertThat(seriesCount(cluster, Role.TASKMANAGER))
                    .as("TaskManager series vs baseline")
                    .isLessThanOrEqualTo(tmBaseline + 5);
            double heapAfter = JvmHeap.usedAfterFullGc(cluster, Role.TASKMANAGER);
            System.out.printf(
                    "after %d jobs: JM series %d -> %d, TM series %d -> %d, TM heap after GC %.1f -> %.1f MiB%n",
                    JOBS,
                    jmBaseline,
                    seriesCount(cluster, Role.JOBMANAGER),
                    tmBaseline,
                    seriesCount(cluster, Role.TASKMANAGER),
                    heapBaseline / 1048576,
                    heapAfter / 1048576);
            assertThat(heapAfter - heapBaseline)
                    .as("TaskManager heap growth after %s jobs (bytes)", JOBS)
                    .isLessThan(32.0 * 1024 * 1024);
            JsonNode jobs =
                    PluginOnSessionClusterITCase.json(
                            cluster.insightGet(Role.JOBMANAGER, "/api/v1/jobs"));
            assertThat(jobs.path("total").asInt())
                    .as("jobs kept by the hub (jobs.max = 200)")
                    .isBetween(1, 200);
        }
    }

    private static void runShortJobs(LocalFlinkCluster cluster, int count) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
        try {
            List<Future<?>> sessions = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                sessions.add(
                        pool.submit(
                                () -> {
                                    try (SqlSession session = cluster.sqlSession()) {
                                        DemoWorkload.prepareShortQueries(session);
                                        List<String> queries = DemoWorkload.shortQueries();
                                        int i;
                                        while ((i = next.getAndIncrement()) < count) {
                                            assertThat(
                                                            session.query(
                                                                    queries.get(
                                                                            i % queries.size())))
                                                    .hasSize(1);
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> session : sessions) {
                session.get(15, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Job metrics go when the job ends; the JobManager drops its job group a little later. */
    private static void awaitNoJobSeries(LocalFlinkCluster cluster) {
        for (Role role : List.of(Role.JOBMANAGER, Role.TASKMANAGER)) {
            Waits.until(
                    "no series with a job_id label in the " + role + " scrape",
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(1),
                    () -> {
                        String body = cluster.insightGet(role, "/metrics");
                        return body.contains("job_id=\"") ? Optional.empty() : Optional.of(true);
                    },
                    () -> firstJobLines(cluster.insightGet(role, "/metrics")));
        }
    }

    private static int seriesCount(LocalFlinkCluster cluster, Role role) {
        int count = 0;
        for (String line : cluster.insightGet(role, "/metrics").split("\n")) {
            if (!line.isEmpty() && line.charAt(0) != '#') {
                count++;
            }
        }
        return count;
    }

    private static String firstJobLines(String body) {
        StringBuilder out = new StringBuilder("stale series:\n");
        int shown = 0;
        for (String line : body.split("\n")) {
            if (line.contains("job_id=\"") && shown++ < 10) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }
}
