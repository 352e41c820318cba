package io.flinkinsight.it;

import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.LocalFlinkClusterBuilder;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static io.flinkinsight.it.InteractiveClientSupport.assertShortQueryRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same built plugin jar (and the interactive client's jar for this Flink line on the gateway's
 * classpath: the 2.x jar from 2.0 on, interactive-client-flink1 on 1.20) in a real session cluster
 * of each older Flink the harness starts; the primary version runs the full suite instead. Per
 * version: JobManager, TaskManager and SQL Gateway of that version, the plugin serving {@code
 * /metrics} in the JobManager and the TaskManager (promtool-clean), a checkpointing streaming job
 * (RocksDB, incremental, every 2 s) and the three short queries through the gateway on Flink's own
 * {@code remote} target and on {@code remote-interactive}. What a version does not give yet is in
 * its own test method, skipped by an assumption that says what it needs.
 */
class FlinkVersionsSmokeITCase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyOlderVersionOfTheHarnessHasItsSmokeTest() {
        Set<String> covered = new TreeSet<>();
        for (Class<?> nested : FlinkVersionsSmokeITCase.class.getDeclaredClasses()) {
            if (nested.isAnnotationPresent(Nested.class)) {
                covered.add(versionOf(nested));
            }
        }
        Set<String> older = new TreeSet<>(FlinkDistribution.VERSIONS);
        older.remove(FlinkDistribution.PRIMARY_VERSION);
        assertThat(covered).isEqualTo(older);
    }

    /** {@code Flink_1_20_3} → {@code 1.20.3}. */
    private static String versionOf(Class<?> nested) {
        return nested.getSimpleName().substring("Flink_".length()).replace('_', '.');
    }

    @Nested
    class Flink_1_20_3 extends OnVersion {}

    @Nested
    class Flink_2_0_0 extends OnVersion {}

    @Nested
    class Flink_2_1_1 extends OnVersion {}

    @Nested
    class Flink_2_2_0 extends OnVersion {}

    /** The smoke test of the version its subclass is named for. */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnVersion {

        private final String version = versionOf(getClass());
        private LocalFlinkCluster cluster;
        private SqlSession streamingSession;
        private String streamingJobId;

        @BeforeAll
        void startClusterAndStreamingJob() {
            LocalFlinkClusterBuilder builder =
                    TestClusters.withPlugin("flink-" + version)
                            .flinkVersion(version)
                            .config("metrics.reporter.insight.hub.poll-interval", "2 s")
                            // The streaming job's series at once, not after 30 s on each version:
                            // the job-series rule is the plugin's own, checked in
                            // PluginOnSessionClusterITCase.
                            .config("metrics.reporter.insight.scrape.job-series.min-age", "0");
            builder.gatewayClasspath(
                    atLeast(2, 0) ? TestClusters.clientJar() : TestClusters.clientJarFlink1());
            cluster = builder.start();
            streamingSession = cluster.sqlSession();
            streamingJobId =
                    DemoWorkload.startStreamingJob(
                            cluster, streamingSession, Duration.ofSeconds(90));
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

        @Test
        void clusterRunsThisFlinkVersion() {
            assertThat(cluster.restGet("/config").path("flink-version").asText())
                    .isEqualTo(version);
        }

        @Test
        void pluginServesPromtoolCleanMetricsInJobManagerAndTaskManager() throws Exception {
            String jobManager = cluster.insightGet(Role.JOBMANAGER, "/metrics");
            ExpositionCheckers.assertPromtoolAccepts(jobManager);
            assertThat(jobManager)
                    .contains("# TYPE flink_jobmanager_numRegisteredTaskManagers gauge");

            String taskManager =
                    Waits.until(
                            "operator metrics of the streaming job on the TaskManager",
                            Duration.ofSeconds(60),
                            Duration.ofSeconds(1),
                            () -> {
                                String body = cluster.insightGet(Role.TASKMANAGER, "/metrics");
                                return body.contains(
                                                "flink_taskmanager_job_task_operator_numRecordsOut{")
                                        ? Optional.of(body)
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.TASKMANAGER)));
            ExpositionCheckers.assertPromtoolAccepts(taskManager);
            assertThat(
                            ExpositionCheckers.labelNames(
                                    taskManager, "flink_taskmanager_Status_JVM_Memory_Heap_Used"))
                    .containsExactlyInAnyOrder("host", "tm_id");
        }

        @Test
        void pluginOverviewNamesTheRoleOfEachProcess() throws Exception {
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
        void streamingJobCompletesCheckpointsWithState() {
            JsonNode latest =
                    Waits.until(
                            "3 completed checkpoints of " + streamingJobId + " in Flink's REST API",
                            Duration.ofSeconds(90),
                            Duration.ofSeconds(1),
                            () -> {
                                JsonNode stats =
                                        cluster.restGet("/jobs/" + streamingJobId + "/checkpoints");
                                return stats.path("counts").path("completed").asInt() >= 3
                                        ? Optional.of(stats.path("latest").path("completed"))
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
            assertThat(latest.path("checkpointed_size").asLong())
                    .as("latest completed checkpoint: %s", latest)
                    .isPositive();
        }

        @Test
        void shortQueriesReturnTheirRowsOnFlinksRemoteTarget() {
            try (SqlSession session = cluster.sqlSession(Map.of("execution.target", "remote"))) {
                DemoWorkload.prepareShortQueries(session);
                for (int q = 0; q < DemoWorkload.shortQueries().size(); q++) {
                    assertShortQueryRows(q, session.query(DemoWorkload.shortQueries().get(q)));
                }
            }
        }

        @Test
        void pluginCheckpointsApiListsCompletedCheckpointsWithSizes() throws Exception {
            // before 2.2 the Checkpoint span has no children and no phase figures: the hub fills in
            // per-task
            // figures from /jobs/:jid/checkpoints/details/:cid
            boolean tasksFromRest = !atLeast(2, 2);
            List<JsonNode> completed =
                    Waits.until(
                            "3 completed checkpoints with a checkpointed size on"
                                    + " /api/v1/checkpoints"
                                    + (tasksFromRest ? ", one with its tasks" : ""),
                            Duration.ofSeconds(90),
                            Duration.ofSeconds(1),
                            () -> {
                                List<JsonNode> found = new ArrayList<>();
                                boolean withTasks = false;
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
                                            withTasks |= cp.path("tasks").size() > 0;
                                        }
                                    }
                                }
                                return found.size() >= 3 && (withTasks || !tasksFromRest)
                                        ? Optional.of(found)
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
            for (JsonNode cp : completed) {
                assertThat(cp.path("fullSize").asLong())
                        .isGreaterThanOrEqualTo(cp.path("checkpointedSize").asLong());
                assertThat(cp.path("durationMs").asLong(-1))
                        .as("duration of %s", cp)
                        .isNotNegative();
            }
        }

        @Test
        void pluginJobsApiListsTheShortQueriesWithTheirClusterSideLatency() throws Exception {
            List<String> queryJobs = runShortQueriesAndCollectTheirJobIds();
            // Before 2.2 the hub learns a job's end at its next poll of Flink's REST API, not from
            // an event, and a
            // job that ended between two polls gets its earlier transitions when the hub reads it
            // once more, in
            // that round or a later one: so wait for both, then check the rest.
            JsonNode jobs =
                    Waits.until(
                            "the short queries' jobs on /api/v1/jobs, finished, with their transitions",
                            Duration.ofSeconds(30),
                            Duration.ofSeconds(1),
                            () -> {
                                JsonNode listed =
                                        json(cluster.insightGet(Role.JOBMANAGER, "/api/v1/jobs"))
                                                .path("jobs");
                                Set<String> finished = new TreeSet<>();
                                listed.forEach(
                                        job -> {
                                            List<String> seen = new ArrayList<>();
                                            job.path("transitions")
                                                    .forEach(
                                                            t ->
                                                                    seen.add(
                                                                            t.path("status")
                                                                                    .asText()));
                                            if (job.path("status").asText().equals("FINISHED")
                                                    && seen.contains("RUNNING")) {
                                                finished.add(job.path("jobId").asText());
                                            }
                                        });
                                return finished.containsAll(queryJobs)
                                        ? Optional.of(listed)
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
            for (JsonNode job : jobs) {
                if (queryJobs.contains(job.path("jobId").asText())) {
                    assertThat(job.path("status").asText()).isEqualTo("FINISHED");
                    assertThat(job.path("clusterLatencyMs").asLong(-1))
                            .as("cluster-side latency of %s", job)
                            .isPositive();
                    // from job events on 2.2+, from the timestamps of Flink's /jobs/:jid before
                    List<String> statuses = new ArrayList<>();
                    job.path("transitions").forEach(t -> statuses.add(t.path("status").asText()));
                    assertThat(statuses)
                            .as("transitions of %s", job)
                            .contains("RUNNING", "FINISHED");
                }
            }
        }

        @Test
        void pluginOverviewListsTheCapabilitiesOfThisFlink() throws Exception {
            JsonNode overview = json(cluster.insightGet(Role.JOBMANAGER, "/api/v1/overview"));
            assertThat(overview.path("flinkVersion").asText()).isEqualTo(version);
            Map<String, Boolean> available = new HashMap<>();
            overview.path("capabilities")
                    .forEach(
                            c ->
                                    available.put(
                                            c.path("name").asText(),
                                            c.path("available").asBoolean()));
            assertThat(available)
                    .as("capabilities in %s", overview)
                    .containsEntry("checkpoint-spans", true)
                    .containsEntry("checkpoint-phase-figures", atLeast(2, 2))
                    .containsEntry("checkpoint-task-spans", atLeast(2, 2))
                    .containsEntry("event-reporters", atLeast(2, 1))
                    .containsEntry("job-events", atLeast(2, 2));
        }

        /**
         * On the pooled client itself, not on the fallback to Flink's own: the gateway's log has
         * the client's start line, naming what this Flink's API lacks, and no fallback warning.
         */
        @Test
        void shortQueriesReturnTheirRowsOnTheInteractiveClient() throws Exception {
            try (SqlSession session = InteractiveClientSupport.interactiveSession(cluster)) {
                for (int q = 0; q < DemoWorkload.shortQueries().size(); q++) {
                    assertShortQueryRows(q, session.query(DemoWorkload.shortQueries().get(q)));
                }
            }
            String gatewayLog = Files.readString(cluster.logFile(Role.SQL_GATEWAY));
            assertThat(gatewayLog)
                    .contains("Flink Insight interactive client started")
                    .contains(
                            atLeast(2, 1)
                                    ? "Flink 2.1+ API"
                                    : atLeast(2, 0) ? "Flink 2.0 API" : "Flink 1.20 API")
                    .doesNotContain("The interactive client cannot run on this Flink")
                    .doesNotContain("Keep-alive REST channels are off");
        }

        private List<String> runShortQueriesAndCollectTheirJobIds() {
            Set<String> before = finishedJobs();
            shortQueriesReturnTheirRowsOnFlinksRemoteTarget();
            List<String> after = new ArrayList<>(finishedJobs());
            after.removeAll(before);
            assertThat(after)
                    .as("finished short query jobs in Flink's REST API")
                    .hasSize(DemoWorkload.shortQueries().size());
            return after;
        }

        /**
         * The panel in Chromium on the oldest line (the one that gives least): checkpoints and jobs
         * from Flink's REST API are shown, and notes say which figures need a newer Flink, instead
         * of empty charts.
         */
        @Test
        void panelShowsWhatThisFlinkGivesAndNotesWhatItDoesNot() throws Exception {
            assumeTrue(
                    !atLeast(2, 0),
                    "the browser check runs on the 1.20 line, the one that gives least");
            PanelInBrowserITCase.awaitCompletedCheckpoints(cluster, 3);
            PanelInBrowserITCase.runE2e(
                    "e2e/older-flink.e2e.mjs",
                    Map.of(
                            "INSIGHT_URL", cluster.insightUrl(Role.JOBMANAGER),
                            "JOB_ID", streamingJobId,
                            "FLINK_VERSION", version));
        }

        private Set<String> finishedJobs() {
            Set<String> ids = new TreeSet<>();
            for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
                if (job.path("state").asText().equals("FINISHED")) {
                    ids.add(job.path("jid").asText());
                }
            }
            return ids;
        }

        private boolean atLeast(int major, int minor) {
            String[] parts = version.split("\\.");
            int ourMajor = Integer.parseInt(parts[0]);
            int ourMinor = Integer.parseInt(parts[1]);
            return ourMajor > major || (ourMajor == major && ourMinor >= minor);
        }
    }

    static JsonNode json(String body) throws Exception {
        return JSON.readTree(body);
    }
}
