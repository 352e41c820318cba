package io.flinkinsight.it.ecosystem;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every PromQL expression of the Grafana dashboard and of the alerting rules names only metrics the
 * plugin exports (learnt from a real scrape of the plugin, {@link ExportedNames}), or series
 * Prometheus adds itself; and every dashboard expression parses, checked by promtool as a recording
 * rule.
 */
class EcosystemMetricNamesTest {

    @Test
    void theLexerFindsMetricNamesAndOnlyThem() {
        assertThat(
                        EcosystemExpressions.metricNames(
                                "sum by (instance) (increase(a_b{job=~\"$job\",x=\"and(y)\"}[$__rate_interval])) / ignoring(q)"
                                        + " c offset 1h and on(instance) time() - d:e > 0 and bool 1e3"))
                .containsExactly("a_b", "c", "d:e");
        assertThat(EcosystemExpressions.metricNames("f{job=~\"$job\"}")).containsExactly("f");
    }

    @Test
    void theScrapeHoldsWhatTheEcosystemFilesUse() throws Exception {
        Set<String> exported = ExportedNames.fromARealScrape();
        // Sanity of the scrape itself: Flink's checkpoint statistics, latency tracking, the client,
        // the plugin.
        assertThat(exported)
                .contains(
                        "flink_jobmanager_job_lastCheckpointCompletedTimestamp",
                        "flink_taskmanager_job_task_latency_source_id_operator_id_operator_subtask_index_latency",
                        "flink_insight_client_queries_e2eLatencyMs",
                        "flink_insight_client_queries_e2eLatencyMs_count",
                        "flink_insight_history_series_evicted_total",
                        "flink_insight_scrapes_refused_total");
        // Summaries without _sum, as in Flink's reporter (README, "Compatibility"): a dashboard
        // must not use it.
        assertThat(exported).doesNotContain("flink_insight_client_queries_e2eLatencyMs_sum");
    }

    @Test
    void everyExpressionNamesOnlyMetricsThePluginExports() throws Exception {
        Set<String> exported = ExportedNames.fromARealScrape();
        Map<String, String> expressions = new LinkedHashMap<>(EcosystemExpressions.rules());
        expressions.putAll(EcosystemExpressions.dashboardExpressions());
        assertThat(expressions).hasSizeGreaterThan(40);

        Map<String, Set<String>> unknown = new TreeMap<>();
        Set<String> used = new TreeSet<>();
        for (Map.Entry<String, String> e : expressions.entrySet()) {
            Set<String> names = EcosystemExpressions.metricNames(e.getValue());
            assertThat(names).as("metric names in %s: %s", e.getKey(), e.getValue()).isNotEmpty();
            for (String name : names) {
                used.add(name);
                if (!exported.contains(name) && !ExportedNames.MADE_BY_PROMETHEUS.contains(name)) {
                    unknown.computeIfAbsent(name, k -> new TreeSet<>()).add(e.getKey());
                }
            }
        }
        assertThat(unknown)
                .as("metrics the plugin does not export (it exports %s)", exported)
                .isEmpty();
        assertThat(used)
                .as("what the files use")
                .contains(
                        "flink_jobmanager_job_numberOfFailedCheckpoints",
                        "flink_insight_client_pool_hits",
                        "flink_insight_history_series");
    }

    @Test
    void everyDashboardExpressionParsesInPromtool(@TempDir Path dir) throws Exception {
        StringBuilder rules =
                new StringBuilder("groups:\n  - name: dashboard-expressions\n    rules:\n");
        int i = 0;
        for (Map.Entry<String, String> e : EcosystemExpressions.dashboardExpressions().entrySet()) {
            String expr = EcosystemExpressions.withoutGrafanaVariables(e.getValue());
            rules.append("      - record: dashboard:expr_")
                    .append(i++)
                    .append('\n')
                    .append("        # ")
                    .append(e.getKey().replace('\n', ' '))
                    .append('\n')
                    .append("        expr: '")
                    .append(expr.replace("'", "''"))
                    .append("'\n");
        }
        Files.writeString(dir.resolve("dashboard-expressions.yml"), rules);
        Promtool.Result result = Promtool.run(dir, "check", "rules", "dashboard-expressions.yml");
        assertThat(result.exitCode())
                .as(
                        "promtool check rules on the dashboard's expressions:%n%s%n%s",
                        result.output(), rules)
                .isZero();
    }
}
