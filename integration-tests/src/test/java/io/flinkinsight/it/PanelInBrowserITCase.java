package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The panel in Debian's Chromium (playwright-core), served by the hub of a real cluster that runs
 * the demo workload's streaming job and its short queries through the interactive client in the SQL
 * Gateway (Insight's trace reporter there reports each query's span, the hub gathers them from the
 * gateway's plugin), among them a query whose alias and one whose job name are XSS payloads: the
 * e2e scripts in web-extension/e2e drive the browser (the tab in Flink's dashboard, pages of other
 * sites and a path-prefix proxy in front of the hub, then the panel itself, its Statements view
 * included); this test sets up the cluster, hands them its URLs, and fails when they fail.
 */
class PanelInBrowserITCase {

    static final String HOSTILE_NAME = "<img src=x onerror=alert(1)>";

    /**
     * The plugin inside the gateway binds here, and the hub gathers its statements from here: next
     * to the JobManager's and TaskManager's {@link TestClusters#INSIGHT_PORTS}.
     */
    static final String GATEWAY_INSIGHT_PORTS = "19291-19299";

    @Test
    void panelShowsTheClusterInChromium() throws Exception {
        try (LocalFlinkCluster cluster =
                        TestClusters.withPlugin("panel")
                                .gatewayClasspath(TestClusters.clientJar())
                                .gatewayConfig(
                                        "metrics.reporter.insight.port", GATEWAY_INSIGHT_PORTS)
                                .config(
                                        "metrics.reporter.insight.hub.clients",
                                        "127.0.0.1:" + GATEWAY_INSIGHT_PORTS)
                                .config("metrics.reporter.insight.history.resolution", "1 s")
                                .config("metrics.reporter.insight.hub.poll-interval", "2 s")
                                .start();
                SqlSession streaming = cluster.sqlSession()) {
            // The RUNNING streaming job, as /jobs/overview names it.
            String streamingJob =
                    DemoWorkload.startStreamingJob(cluster, streaming, Duration.ofSeconds(60));
            try (SqlSession queries = InteractiveClientSupport.interactiveSession(cluster)) {
                for (String query : DemoWorkload.shortQueries()) {
                    queries.query(query);
                }
                // A statement whose text is HTML: an alias is a quoted name, which the statement's
                // normalized text keeps as written.
                assertThat(queries.query("SELECT 1 AS `" + HOSTILE_NAME + "`")).hasSize(1);
                queries.execute("SET 'pipeline.name' = '" + HOSTILE_NAME + "'");
                assertThat(queries.query(DemoWorkload.shortQueries().get(0))).hasSize(1);
            }
            String hub = cluster.insightUrl(Role.JOBMANAGER);
            awaitStatementWithJobPhases(cluster, HOSTILE_NAME);
            awaitCompletedCheckpoints(cluster, 3);
            // The streaming charts need the hub's series of TaskManager figures, gathered over
            // Flink's REST API.
            awaitSeries(cluster, "insight_vertex_latency_ms");
            awaitSeries(cluster, "insight_vertex_records_out_per_second");

            String screenshots =
                    System.getProperty(
                            "insight.screenshots",
                            Path.of("target", "panel-screenshots").toAbsolutePath().toString());
            // First the tab in Flink's own dashboard (the hub's copy under /flink/), while the
            // JobManager is up.
            runE2e(
                    "e2e/flink-tab.e2e.mjs",
                    Map.of("INSIGHT_URL", hub, "SCREENSHOT_DIR", screenshots));
            // Then pages of other sites against the hub's port (no read, no cancel of the streaming
            // job, checked on
            // Flink's own REST API), and the hub behind a reverse proxy with a path prefix.
            runE2e(
                    "e2e/cross-origin.e2e.mjs",
                    Map.of(
                            "INSIGHT_URL", hub,
                            "FLINK_REST_URL", cluster.restUrl(),
                            "JOB_ID", streamingJob,
                            "SCREENSHOT_DIR", screenshots));
            // The panel's script ends by stopping the JobManager, to see the panel's
            // hub-unreachable state.
            long jobManagerPid = cluster.process(Role.JOBMANAGER).pid();
            runE2e(
                    "e2e/panel.e2e.mjs",
                    Map.of(
                            "INSIGHT_URL", hub,
                            "INSIGHT_STOP_HOOK", "kill " + jobManagerPid,
                            "INSIGHT_HOSTILE_STATEMENT", HOSTILE_NAME,
                            "SCREENSHOT_DIR", screenshots));
        }
    }

    static void awaitCompletedCheckpoints(LocalFlinkCluster cluster, int count) {
        Waits.until(
                count + " completed checkpoints",
                Duration.ofSeconds(90),
                Duration.ofSeconds(1),
                () -> {
                    int completed = 0;
                    JsonNode jobs =
                            PluginOnSessionClusterITCase.json(
                                            cluster.insightGet(
                                                    Role.JOBMANAGER, "/api/v1/checkpoints"))
                                    .path("jobs");
                    for (JsonNode job : jobs) {
                        for (JsonNode cp : job.path("checkpoints")) {
                            if ("COMPLETED".equals(cp.path("status").asText())) {
                                completed++;
                            }
                        }
                    }
                    return completed >= count ? Optional.of(completed) : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    /**
     * Waits until the hub has gathered, from the gateway, a statement whose text holds {@code text}
     * and joined one of its queries with its job's phases as the JobManager reported them.
     */
    private static void awaitStatementWithJobPhases(LocalFlinkCluster cluster, String text) {
        Waits.until(
                "a statement holding " + text + " with a query joined to its job",
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                () -> {
                    JsonNode statements =
                            PluginOnSessionClusterITCase.json(
                                            cluster.insightGet(
                                                    Role.JOBMANAGER, "/api/v1/statements"))
                                    .path("statements");
                    for (JsonNode statement : statements) {
                        if (!statement.path("statement").asText().contains(text)) {
                            continue;
                        }
                        String id = statement.path("id").asText();
                        JsonNode queries =
                                PluginOnSessionClusterITCase.json(
                                        cluster.insightGet(
                                                Role.JOBMANAGER,
                                                "/api/v1/queries?statement=" + id));
                        for (JsonNode query : queries.path("latest")) {
                            for (JsonNode phase : query.path("phases")) {
                                if ("cluster".equals(phase.path("side").asText())) {
                                    return Optional.of(id);
                                }
                            }
                        }
                    }
                    return Optional.empty();
                },
                () -> {
                    String statements;
                    try {
                        statements = cluster.insightGet(Role.JOBMANAGER, "/api/v1/statements");
                    } catch (RuntimeException e) {
                        statements = "/api/v1/statements: " + e;
                    }
                    return statements
                            + "\n"
                            + cluster.diagnostics(List.of(Role.JOBMANAGER, Role.SQL_GATEWAY));
                });
    }

    private static void awaitSeries(LocalFlinkCluster cluster, String name) {
        Waits.until(
                "hub series " + name,
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                () -> {
                    JsonNode names =
                            PluginOnSessionClusterITCase.json(
                                            cluster.insightGet(
                                                    Role.JOBMANAGER,
                                                    "/api/v1/series/names?contains=" + name))
                                    .path("names");
                    return names.size() > 0 ? Optional.of(names.size()) : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    /**
     * Runs one of web-extension's e2e scripts with the machine's Node; its output goes to this
     * test's log.
     */
    static void runE2e(String script, Map<String, String> env)
            throws IOException, InterruptedException {
        Path webExtension =
                Path.of(System.getProperty("insight.web-extension", "../web-extension"));
        Path log = Files.createTempFile("e2e-", ".log");
        ProcessBuilder builder =
                new ProcessBuilder("node", script)
                        .directory(webExtension.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(
                                log.toFile()); // a file, so a hung browser cannot block this
        // thread on a pipe
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean finished = process.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        if (!finished) {
            throw new AssertionError(script + " did not finish within 5 minutes:\n" + output);
        }
        System.out.println(output);
        assertThat(process.exitValue()).as("%s in Chromium:%n%s", script, output).isZero();
    }
}
