package io.flinkinsight.it.ecosystem;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.PrometheusServer;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;
import io.flinkinsight.it.TestClusters;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server scrapes a real cluster with the plugin everywhere (JobManager,
 * TaskManager, and the SQL Gateway running the interactive client) while a checkpointing job and
 * short queries run: every target is up, the scrape negotiates OpenMetrics, counters rise under
 * {@code rate()}, summaries' quantiles and {@code _count} carry Flink's names and labels, the
 * client figures arrive with theirs, the alerting rules load and evaluate, and every query of the
 * Grafana dashboard returns data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealPrometheusITCase {

    /** Away from the other ITCases' ranges, so they can run at once. */
    private static final String CLUSTER_INSIGHT_PORTS = "19400-19439";

    private static final String GATEWAY_INSIGHT_PORTS = "19440-19449";

    /**
     * What Grafana would make of {@code $__rate_interval} at a 1 s scrape interval, with room to
     * spare.
     */
    private static final String RATE_INTERVAL = "30s";

    private static final Duration SETTLE = Duration.ofSeconds(120);

    private LocalFlinkCluster cluster;
    private SqlSession streamingSession;
    private PrometheusServer prometheus;

    @BeforeAll
    void startClusterPrometheusAndWorkload() throws Exception {
        cluster =
                TestClusters.withPlugin("prometheus", CLUSTER_INSIGHT_PORTS)
                        .gatewayClasspath(TestClusters.clientJar())
                        .gatewayConfig("metrics.reporter.insight.port", GATEWAY_INSIGHT_PORTS)
                        .config(
                                "metrics.reporter.insight.hub.clients",
                                "127.0.0.1:" + GATEWAY_INSIGHT_PORTS)
                        .config("metrics.latency.interval", "200")
                        // The streaming job's series at once rather than after 30 s: the files are
                        // checked against Flink's names, the job-series rule in
                        // PluginOnSessionClusterITCase.
                        .config("metrics.reporter.insight.scrape.job-series.min-age", "0")
                        .start();
        streamingSession = cluster.sqlSession();
        DemoWorkload.startStreamingJob(cluster, streamingSession, Duration.ofSeconds(60));
        runShortQueries(
                1); // the gateway's plugin serves once the interactive client registers its figures
        Map<String, List<String>> targets = new LinkedHashMap<>();
        targets.put("flink", List.of(hostPort(Role.JOBMANAGER), hostPort(Role.TASKMANAGER)));
        targets.put("flink-sql-gateway", List.of(hostPort(Role.SQL_GATEWAY)));
        prometheus =
                PrometheusServer.start(
                        cluster.workDir(),
                        targets,
                        Promtool.ecosystem().resolve("prometheus/flink-insight-alerts.yml"));
        runShortQueries(2);
        // Rates need two scrapes of the risen counters; the latest queries must be inside the rate
        // window.
        Waits.until(
                "completed checkpoints and latency markers in Prometheus",
                SETTLE,
                Duration.ofSeconds(2),
                () ->
                        !prometheus
                                                .query(
                                                        "flink_jobmanager_job_numberOfCompletedCheckpoints > 1")
                                                .isEmpty()
                                        && !prometheus
                                                .query(
                                                        "flink_taskmanager_job_task_latency_source_id_operator_id_operator_subtask_index_latency")
                                                .isEmpty()
                                ? Optional.of(true)
                                : Optional.empty(),
                this::diagnostics);
        runShortQueries(2);
        Thread.sleep(3_000); // two more scrapes of the gateway's figures
    }

    @AfterAll
    void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (streamingSession != null) {
            streamingSession.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyTargetIsUp() {
        JsonNode active = prometheus.api("/api/v1/targets?state=active").path("activeTargets");
        assertThat(active).hasSize(3);
        for (JsonNode target : active) {
            assertThat(target.path("health").asText())
                    .as("target %s: %s", target.path("scrapeUrl"), target.path("lastError"))
                    .isEqualTo("up");
        }
    }

    /**
     * Prometheus asks for OpenMetrics first. In OpenMetrics the plugin types Flink's counters
     * {@code unknown} (a counter there must end in {@code _total}, which would rename them) and its
     * own counters {@code counter} under the family name without {@code _total}; in the 0.0.4 text
     * both would be {@code counter}.
     */
    @Test
    void theScrapeNegotiatesOpenMetrics() {
        JsonNode flinkCounter = metadata("flink_taskmanager_job_task_numRecordsIn");
        assertThat(flinkCounter.path("type").asText())
                .as("metadata %s", flinkCounter)
                .isEqualTo("unknown");
        JsonNode ownCounter = metadata("flink_insight_scrapes_refused");
        assertThat(ownCounter.path("type").asText())
                .as("metadata %s", ownCounter)
                .isEqualTo("counter");
    }

    @Test
    void countersRiseUnderRate() {
        // Label values keep only [a-zA-Z0-9:_] by default, as with Flink's PrometheusReporter.
        String jobName = DemoWorkload.STREAMING_JOB_NAME.replaceAll("[^a-zA-Z0-9:_]", "_");
        JsonNode result =
                prometheus.query(
                        "sum by (job_name) (rate(flink_taskmanager_job_task_numRecordsIn{job_name=\""
                                + jobName
                                + "\"}["
                                + RATE_INTERVAL
                                + "]))");
        assertThat(result).as("rate of the streaming job's records in").hasSize(1);
        assertThat(value(result.get(0))).as(PrometheusServer.describe(result)).isGreaterThan(0);
        JsonNode submitted =
                prometheus.query("increase(flink_insight_client_queries_submitted[5m])");
        assertThat(submitted).hasSize(1);
        assertThat(value(submitted.get(0)))
                .as(PrometheusServer.describe(submitted))
                .isGreaterThan(0);
    }

    @Test
    void summariesKeepFlinksNamesAndLabelsWithQuantilesAndCount() {
        String latency =
                "flink_taskmanager_job_task_latency_source_id_operator_id_operator_subtask_index_latency";
        JsonNode p99 = prometheus.query(latency + "{quantile=\"0.99\"}");
        assertThat(p99).isNotEmpty();
        assertThat(labels(p99.get(0)))
                .contains(
                        "job_id",
                        "job_name",
                        "source_id",
                        "operator_id",
                        "operator_subtask_index",
                        "host",
                        "tm_id",
                        "quantile",
                        "instance",
                        "job");
        JsonNode count = prometheus.query(latency + "_count");
        assertThat(count).hasSameSizeAs(p99);
        assertThat(value(count.get(0))).isGreaterThan(0);
    }

    @Test
    void clientFiguresArriveWithTheirLabels() {
        JsonNode e2e =
                prometheus.query("flink_insight_client_queries_e2eLatencyMs{quantile=\"0.5\"}");
        assertThat(e2e).as("the gateway's end-to-end latency").hasSize(1);
        assertThat(labels(e2e.get(0)))
                .containsExactlyInAnyOrder("__name__", "host", "quantile", "instance", "job");
        assertThat(e2e.get(0).path("metric").path("job").asText()).isEqualTo("flink-sql-gateway");
        assertThat(value(e2e.get(0))).isGreaterThan(0);
        JsonNode hits = prometheus.query("flink_insight_client_pool_hits");
        assertThat(hits).hasSize(1);
    }

    @Test
    void alertingRulesLoadAndEvaluate() {
        List<String> unhealthy = new ArrayList<>();
        int rules = 0;
        for (JsonNode group : prometheus.api("/api/v1/rules").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                rules++;
                if (!"ok".equals(rule.path("health").asText())) {
                    unhealthy.add(
                            rule.path("name").asText() + ": " + rule.path("lastError").asText());
                }
            }
        }
        assertThat(rules).isGreaterThanOrEqualTo(10);
        assertThat(unhealthy).as("rules Prometheus could not evaluate").isEmpty();
    }

    @Test
    void everyDashboardQueryReturnsData() throws Exception {
        List<String> empty = new ArrayList<>();
        Map<String, String> expressions = EcosystemExpressions.dashboardExpressions();
        for (Map.Entry<String, String> e : expressions.entrySet()) {
            String promQl =
                    e.getValue()
                            .replace("$__rate_interval", RATE_INTERVAL)
                            .replaceAll("\\$\\{?\\w+}?", ".*");
            if (prometheus.query(promQl).isEmpty()) {
                empty.add(e.getKey() + ": " + promQl);
            }
        }
        assertThat(expressions).hasSizeGreaterThan(20);
        assertThat(empty).as("dashboard queries without data").isEmpty();
    }

    private String diagnostics() {
        StringBuilder out = new StringBuilder("targets:\n");
        for (JsonNode t : prometheus.api("/api/v1/targets?state=active").path("activeTargets")) {
            out.append(t.path("scrapeUrl").asText())
                    .append(' ')
                    .append(t.path("health").asText())
                    .append(' ')
                    .append(t.path("lastError").asText())
                    .append('\n');
        }
        out.append("checkpoints: ")
                .append(
                        PrometheusServer.describe(
                                prometheus.query(
                                        "flink_jobmanager_job_numberOfCompletedCheckpoints")))
                .append('\n');
        out.append("latency series: ")
                .append(prometheus.query("count({__name__=~\".*latency.*\"}) by (__name__)"))
                .append('\n');
        return out + prometheus.logTail();
    }

    private JsonNode metadata(String metric) {
        JsonNode entries = prometheus.api("/api/v1/metadata?metric=" + metric).path(metric);
        assertThat(entries).as("Prometheus's metadata of %s", metric).isNotEmpty();
        return entries.get(0);
    }

    private void runShortQueries(int rounds) {
        try (SqlSession session =
                cluster.sqlSession(Map.of("execution.target", "remote-interactive"))) {
            DemoWorkload.prepareShortQueries(session);
            for (int round = 0; round < rounds; round++) {
                for (String query : DemoWorkload.shortQueries()) {
                    assertThat(session.query(query)).as("rows of %s", query).hasSize(1);
                }
            }
        }
    }

    private String hostPort(Role role) {
        return cluster.insightUrl(role).replaceFirst("^http://", "").replaceFirst("/$", "");
    }

    private static double value(JsonNode sample) {
        return Double.parseDouble(sample.path("value").get(1).asText());
    }

    private static List<String> labels(JsonNode sample) {
        List<String> out = new ArrayList<>();
        sample.path("metric").fieldNames().forEachRemaining(out::add);
        return out;
    }
}
