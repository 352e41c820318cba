package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The built plugin jar in plugins/insight/ of a real session cluster (JobManager, TaskManager and
 * SQL Gateway as separate JVMs): a checkpointing streaming job with RocksDB incremental checkpoints
 * and short SQL queries through the gateway, then the scrape endpoint and the JSON API, as a user
 * and Prometheus see them. The streaming job's series stay out of {@code /metrics} while it is
 * younger than {@code scrape.job-series.min-age} and are there after.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PluginOnSessionClusterITCase {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Shorter than the default 30 s, so the tests that need the streaming job's series wait less,
     * and long enough to scrape both processes while the job is younger.
     */
    private static final Duration JOB_SERIES_MIN_AGE = Duration.ofSeconds(20);

    private LocalFlinkCluster cluster;
    private SqlSession streamingSession;
    private String streamingJobId;
    private YoungJob youngJob;
    private final List<String> shortQueryJobIds = new ArrayList<>();

    /**
     * Both processes' {@code /metrics} and {@code /api/v1/metrics} (the job's metrics) right after
     * the streaming job started, and how old the job was then.
     */
    private record YoungJob(
            String taskManagerScrape,
            String taskManagerJson,
            String jobManagerScrape,
            String jobManagerJson,
            long ageMillis) {}

    @BeforeAll
    void startClusterAndWorkload() {
        cluster =
                TestClusters.withPlugin("session-cluster")
                        .config("metrics.latency.interval", "200")
                        .config("metrics.reporter.insight.history.resolution", "1 s")
                        .config("metrics.reporter.insight.hub.poll-interval", "2 s")
                        .config(
                                "metrics.reporter.insight.scrape.job-series.min-age",
                                JOB_SERIES_MIN_AGE.toSeconds() + " s")
                        .start();
        streamingSession = cluster.sqlSession();
        streamingJobId =
                DemoWorkload.startStreamingJob(cluster, streamingSession, Duration.ofSeconds(60));
        youngJob = scrapeWhileYoung(streamingJobId);
        try (SqlSession queries = cluster.sqlSession()) {
            DemoWorkload.prepareShortQueries(queries);
            for (String query : DemoWorkload.shortQueries()) {
                assertThat(queries.query(query)).as("rows of %s", query).hasSize(1);
            }
        }
        JsonNode jobs = cluster.restGet("/jobs/overview").path("jobs");
        for (JsonNode job : jobs) {
            if (job.path("state").asText().equals("FINISHED")) {
                shortQueryJobIds.add(job.path("jid").asText());
            }
        }
        assertThat(shortQueryJobIds)
                .as("finished query jobs in Flink's REST")
                .hasSize(DemoWorkload.shortQueries().size());
    }

    @AfterAll
    void stop() {
        if (streamingSession != null) {
            streamingSession.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Read right after the job started, once the TaskManager's JSON API lists its task metrics: in
     * the scrapes, none of its series, and the samples left out counted.
     */
    private YoungJob scrapeWhileYoung(String jobId) {
        String taskManagerJson =
                Waits.until(
                        "the streaming job's task metrics on the TaskManager's /api/v1/metrics",
                        Duration.ofSeconds(15),
                        Duration.ofMillis(100),
                        () -> {
                            String b =
                                    cluster.insightGet(
                                            Role.TASKMANAGER,
                                            "/api/v1/metrics?prefix=flink_taskmanager_job_task_");
                            return b.contains(jobId) ? Optional.of(b) : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.TASKMANAGER)));
        String taskManagerScrape = cluster.insightGet(Role.TASKMANAGER, "/metrics");
        String jobManagerScrape = cluster.insightGet(Role.JOBMANAGER, "/metrics");
        String jobManagerJson =
                cluster.insightGet(Role.JOBMANAGER, "/api/v1/metrics?prefix=flink_jobmanager_job_");
        long startTime = cluster.restGet("/jobs/" + jobId).path("start-time").asLong();
        return new YoungJob(
                taskManagerScrape,
                taskManagerJson,
                jobManagerScrape,
                jobManagerJson,
                System.currentTimeMillis() - startTime);
    }

    @Test
    void aJobYoungerThanTheMinimumAgeHasNoSeriesInTheScrapes() {
        // Seconds after its start on any machine; a JobManager that took longer is no test.
        assumeThat(youngJob.ageMillis())
                .as("the job's age when scraped (ms)")
                .isLessThan(JOB_SERIES_MIN_AGE.toMillis() - 3000);
        String label = "job_id=\"" + streamingJobId + "\"";
        assertThat(youngJob.taskManagerJson()).as("JSON API").contains(streamingJobId);
        assertThat(youngJob.taskManagerScrape())
                .contains("# TYPE flink_taskmanager_Status_JVM_Memory_Heap_Used gauge")
                .doesNotContain(label);
        assertThat(withheld(youngJob.taskManagerScrape())).isPositive();
        assertThat(youngJob.jobManagerJson()).as("JSON API").contains(streamingJobId);
        assertThat(youngJob.jobManagerScrape())
                .contains("# TYPE flink_jobmanager_numRegisteredTaskManagers gauge")
                .doesNotContain(label);
        assertThat(withheld(youngJob.jobManagerScrape())).isPositive();
    }

    @Test
    void jobManagerScrapePassesPromtoolAndAnIndependentParser() throws Exception {
        // The streaming job's series, once it is older than the minimum age.
        String body =
                Waits.until(
                        "the streaming job's checkpoint figures on the JobManager's /metrics",
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1),
                        () -> {
                            String b = cluster.insightGet(Role.JOBMANAGER, "/metrics");
                            return b.contains("flink_jobmanager_job_lastCheckpointSize{")
                                    ? Optional.of(b)
                                    : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
        ExpositionCheckers.assertPromtoolAccepts(body);
        ExpositionCheckers.assertPythonParserAccepts(body);
        assertThat(body).contains("# TYPE flink_jobmanager_numRegisteredTaskManagers gauge");
        assertThat(
                        ExpositionCheckers.labelNames(
                                body, "flink_jobmanager_numRegisteredTaskManagers"))
                .containsExactly("host");
        assertThat(ExpositionCheckers.labelNames(body, "flink_jobmanager_job_lastCheckpointSize"))
                .contains("host", "job_id", "job_name");
    }

    @Test
    void taskManagerScrapeHoldsTaskAndOperatorMetricsWithFlinksLabels() throws Exception {
        String body =
                Waits.until(
                        "operator metrics of the streaming job on the TaskManager",
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1),
                        () -> {
                            String b = cluster.insightGet(Role.TASKMANAGER, "/metrics");
                            return b.contains("flink_taskmanager_job_task_operator_numRecordsOut{")
                                    ? Optional.of(b)
                                    : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.TASKMANAGER)));
        ExpositionCheckers.assertPromtoolAccepts(body);
        ExpositionCheckers.assertPythonParserAccepts(body);
        assertThat(
                        ExpositionCheckers.labelNames(
                                body, "flink_taskmanager_Status_JVM_Memory_Heap_Used"))
                .containsExactlyInAnyOrder("host", "tm_id");
        assertThat(ExpositionCheckers.labelNames(body, "flink_taskmanager_job_task_numRecordsIn"))
                .containsExactlyInAnyOrder(
                        "host",
                        "tm_id",
                        "job_id",
                        "job_name",
                        "task_id",
                        "task_name",
                        "task_attempt_id",
                        "task_attempt_num",
                        "subtask_index");
        assertThat(
                        ExpositionCheckers.labelNames(
                                body, "flink_taskmanager_job_task_operator_numRecordsOut"))
                .contains("operator_id", "operator_name", "task_name", "job_id");
        // Counters are typed as counters (Flink's reporter says gauge); names stay the same.
        assertThat(body).contains("# TYPE flink_taskmanager_job_task_numRecordsIn counter");
    }

    @Test
    void checkpointsListCompletedCheckpointsWithAsyncPhaseFigures() throws Exception {
        JsonNode completed =
                Waits.until(
                        "3 completed checkpoints with a checkpointed size",
                        Duration.ofSeconds(90),
                        Duration.ofSeconds(1),
                        () -> {
                            List<JsonNode> found = new ArrayList<>();
                            // The list of every job leaves per-task details out unless asked.
                            JsonNode jobs =
                                    json(cluster.insightGet(
                                                    Role.JOBMANAGER,
                                                    "/api/v1/checkpoints?tasks=true"))
                                            .path("jobs");
                            for (JsonNode job : jobs) {
                                for (JsonNode cp : job.path("checkpoints")) {
                                    if (cp.path("status").asText().equals("COMPLETED")
                                            && cp.path("checkpointedSize").asLong() > 0) {
                                        found.add(cp);
                                    }
                                }
                            }
                            return found.size() >= 3
                                    ? Optional.of(JSON.valueToTree(found))
                                    : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
        for (JsonNode cp : completed) {
            assertThat(cp.path("fullSize").asLong())
                    .isGreaterThanOrEqualTo(cp.path("checkpointedSize").asLong());
            assertThat(cp.path("max").path("asyncDurationMs").isIntegralNumber())
                    .as("max async duration")
                    .isTrue();
            assertThat(cp.path("sum").path("asyncDurationMs").asLong())
                    .isGreaterThanOrEqualTo(cp.path("max").path("asyncDurationMs").asLong());
            assertThat(cp.path("endTime").asLong())
                    .isGreaterThanOrEqualTo(cp.path("triggerTime").asLong());
            assertThat(cp.path("tasks").size())
                    .as("per-task figures (CHILDREN_SPANS_PER_TASK)")
                    .isPositive();
        }
    }

    @Test
    void jobsListEachQueryWithItsClusterSideLatency() throws Exception {
        JsonNode jobs = json(cluster.insightGet(Role.JOBMANAGER, "/api/v1/jobs")).path("jobs");
        for (String jobId : shortQueryJobIds) {
            JsonNode job = find(jobs, "jobId", jobId);
            assertThat(job).as("job %s in /api/v1/jobs", jobId).isNotNull();
            assertThat(job.path("status").asText()).isEqualTo("FINISHED");
            long latency = job.path("clusterLatencyMs").asLong(-1);
            JsonNode flinkView = cluster.restGet("/jobs/" + jobId);
            long flinkDuration = flinkView.path("duration").asLong();
            assertThat(latency).as("cluster-side latency of %s", jobId).isPositive();
            // Flink's own duration runs from INITIALIZING to the end; ours from the first status
            // event: same span.
            assertThat(Math.abs(latency - flinkDuration))
                    .as("vs Flink's duration %s ms", flinkDuration)
                    .isLessThanOrEqualTo(Math.max(200, flinkDuration / 2));
            assertThat(job.path("transitions").size()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void seriesHistoryGrowsOverTime() throws Exception {
        String query = "/api/v1/series?metric=flink_jobmanager_numRegisteredTaskManagers&from=-1h";
        int first = points(query);
        int later =
                Waits.until(
                        "more history points",
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(1),
                        () -> {
                            int now = points(query);
                            return now > first ? Optional.of(now) : Optional.empty();
                        },
                        () -> "");
        assertThat(later).isGreaterThan(first);
    }

    @Test
    void hubGathersVertexThroughputFromTaskManagersThroughFlinksRestApi() throws Exception {
        JsonNode series =
                Waits.until(
                        "hub series of records-out per vertex",
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1),
                        () -> {
                            JsonNode s =
                                    json(cluster.insightGet(
                                                    Role.JOBMANAGER,
                                                    "/api/v1/series?metric=insight_vertex_records_out_per_second&from=-1h"))
                                            .path("series");
                            return s.size() > 0 ? Optional.of(s) : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
        assertThat(series.get(0).path("labels").path("vertex_id").asText()).isNotEmpty();
        JsonNode latency =
                Waits.until(
                        "hub series of latency-marker quantiles per vertex",
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1),
                        () -> {
                            JsonNode s =
                                    json(cluster.insightGet(
                                                    Role.JOBMANAGER,
                                                    "/api/v1/series?metric=insight_vertex_latency_ms&from=-1h"))
                                            .path("series");
                            return s.size() > 0 ? Optional.of(s) : Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
        List<String> quantiles = new ArrayList<>();
        latency.forEach(s -> quantiles.add(s.path("labels").path("quantile").asText()));
        assertThat(quantiles).contains("0.5", "0.99");
    }

    @Test
    void overviewNamesTheRoleOfEachProcess() throws Exception {
        assertThat(
                        json(cluster.insightGet(Role.JOBMANAGER, "/api/v1/overview"))
                                .path("role")
                                .asText())
                .isEqualTo("jobmanager");
        assertThat(
                        json(cluster.insightGet(Role.TASKMANAGER, "/api/v1/overview"))
                                .path("role")
                                .asText())
                .isEqualTo("taskmanager");
    }

    @Test
    void hostileRequestsAreRefusedAndTheServerKeepsServing() throws Exception {
        HostileHttp.assertRefusesHostileInputAndKeepsServing(cluster.insightUrl(Role.JOBMANAGER));
        assertThat(cluster.restGet("/overview").path("taskmanagers").asInt()).isEqualTo(1);
    }

    @Test
    void slowHeadersAndAConnectionFloodFromOneAddressDoNotStopTheScrape() throws Exception {
        HostileHttp.assertSlowHeaderClientIsCut(cluster.insightUrl(Role.TASKMANAGER));
        HostileHttp.assertOneAddressCannotStarveTheScrape(cluster.insightUrl(Role.TASKMANAGER));
        assertThat(cluster.restGet("/overview").path("taskmanagers").asInt()).isEqualTo(1);
    }

    private int points(String query) throws Exception {
        int total = 0;
        for (JsonNode s : json(cluster.insightGet(Role.JOBMANAGER, query)).path("series")) {
            total += s.path("points").size();
        }
        return total;
    }

    /** The value of flink_insight_scrape_job_series_withheld in a scrape. */
    private static double withheld(String scrape) {
        String name = "flink_insight_scrape_job_series_withheld ";
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name)) {
                return Double.parseDouble(line.substring(name.length()));
            }
        }
        throw new AssertionError("no " + name + "in the scrape");
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode node : array) {
            if (node.path(field).asText().equals(value)) {
                return node;
            }
        }
        return null;
    }

    static JsonNode json(String body) throws Exception {
        return JSON.readTree(body);
    }
}
