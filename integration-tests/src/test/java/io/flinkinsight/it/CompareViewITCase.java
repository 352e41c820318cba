package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.ChangelogPair;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's RocksDB/changelog pair on a real cluster: {@code /api/v1/compare} heads the two
 * columns with the configuration Flink's REST API reports for each job (the changelog differs), its
 * statistics agree with the checkpoints the hub serves on {@code /api/v1/checkpoints}, bad
 * selections are 400s that name the parameter; then the compare view in Chromium
 * (web-extension/e2e/compare.e2e.mjs) against the same hub.
 */
class CompareViewITCase {

    private static final int CHECKPOINTS = 6;

    private static LocalFlinkCluster cluster;
    private static SqlSession rocksdbSession;
    private static SqlSession changelogSession;
    private static ChangelogPair.JobIds pair;
    private static String hub;

    @BeforeAll
    static void startThePair() {
        Path work = TestClusters.workDir("compare");
        cluster =
                TestClusters.withPlugin("compare")
                        .workDir(work)
                        .config(ChangelogPair.clusterSettings(work))
                        .config("metrics.reporter.insight.history.resolution", "1 s")
                        .config("metrics.reporter.insight.hub.poll-interval", "2 s")
                        .start();
        rocksdbSession = cluster.sqlSession();
        changelogSession = cluster.sqlSession();
        pair =
                ChangelogPair.start(
                        cluster, rocksdbSession, changelogSession, Duration.ofSeconds(90));
        hub = cluster.insightUrl(Role.JOBMANAGER);
        Waits.until(
                CHECKPOINTS + " completed checkpoints of each job, their settings read by the hub",
                Duration.ofSeconds(120),
                Duration.ofSeconds(1),
                () -> {
                    JsonNode r = compare("jobs=" + pair.rocksdb() + "," + pair.changelog());
                    JsonNode completed = row(r, "completed_per_hour").path("cells");
                    boolean ready =
                            completed.get(0).path("samples").asInt() >= CHECKPOINTS
                                    && completed.get(1).path("samples").asInt() >= CHECKPOINTS
                                    && !r.path("columns").get(0).path("settings").isNull()
                                    && !r.path("columns").get(1).path("settings").isNull();
                    return ready ? Optional.of(r) : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    @AfterAll
    static void stop() {
        if (changelogSession != null) {
            changelogSession.close();
        }
        if (rocksdbSession != null) {
            rocksdbSession.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static JsonNode compare(String query) {
        try {
            return PluginOnSessionClusterITCase.json(
                    cluster.insightGet(Role.JOBMANAGER, "/api/v1/compare?" + query));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode row(JsonNode compare, String key) {
        for (JsonNode row : compare.path("rows")) {
            if (key.equals(row.path("key").asText())) {
                return row;
            }
        }
        throw new AssertionError("no row " + key + " in " + compare);
    }

    /**
     * The hub's completed checkpoints of a job (not savepoints), oldest first: trigger time and
     * duration.
     */
    private static List<long[]> completed(String jobId) throws Exception {
        JsonNode answer =
                PluginOnSessionClusterITCase.json(
                        cluster.insightGet(
                                Role.JOBMANAGER,
                                "/api/v1/checkpoints?tasks=false&limit=1000&job=" + jobId));
        List<long[]> out = new ArrayList<>();
        for (JsonNode c : answer.path("jobs").get(0).path("checkpoints")) {
            if ("COMPLETED".equals(c.path("status").asText())
                    && !c.path("type").asText().contains("Savepoint")) {
                out.add(new long[] {c.path("triggerTime").asLong(), c.path("durationMs").asLong()});
            }
        }
        out.sort((a, b) -> Long.compare(a[0], b[0]));
        return out;
    }

    @Test
    void columnsAreHeadedByWhatFlinkReportsOfEachJob() {
        JsonNode r = compare("jobs=" + pair.rocksdb() + "," + pair.changelog());

        assertThat(r.path("columns").get(0).path("jobId").asText()).isEqualTo(pair.rocksdb());
        assertThat(r.path("columns").get(1).path("jobId").asText()).isEqualTo(pair.changelog());
        assertThat(r.path("differences").toString()).contains("\"changelog\"");
        JsonNode rocksdb = r.path("columns").get(0).path("settings");
        JsonNode changelog = r.path("columns").get(1).path("settings");
        assertThat(rocksdb.path("changelog").asBoolean()).isFalse();
        assertThat(changelog.path("changelog").asBoolean()).isTrue();
        assertThat(changelog.path("materializationIntervalMs").asLong()).isEqualTo(60_000);
        for (JsonNode s : List.of(rocksdb, changelog)) {
            assertThat(s.path("stateBackend").asText()).contains("RocksDB");
            assertThat(s.path("checkpointIntervalMs").asLong()).isEqualTo(3_000);
            assertThat(s.path("checkpointMode").asText()).isEqualToIgnoringCase("exactly_once");
            assertThat(s.path("unaligned").asBoolean()).isFalse();
            assertThat(s.path("parallelism").asInt()).isEqualTo(1);
            // Flink's REST API does not report it; the checkpoints show it (both upload less than
            // their full size)
            assertThat(s.path("incremental").asBoolean()).isTrue();
        }
        for (String key : List.of("records_in", "records_out", "busy")) {
            for (JsonNode cell : row(r, key).path("cells")) {
                assertThat(cell.path("samples").asInt()).as(key).isPositive();
            }
        }
        assertThat(r.path("columns").get(1).path("checkpoints").size())
                .isGreaterThanOrEqualTo(CHECKPOINTS);
    }

    @Test
    void theStatisticsOfPastRangesAgreeWithTheCheckpointsTheHubServes() throws Exception {
        List<long[]> checkpoints = completed(pair.rocksdb());
        // Two ranges that have ended, so nothing changes between the two answers.
        long start = checkpoints.get(0)[0];
        long mid = checkpoints.get(checkpoints.size() / 2)[0];
        long end = checkpoints.get(checkpoints.size() - 1)[0] + 1;
        JsonNode r =
                compare(
                        "job="
                                + pair.rocksdb()
                                + "&ranges="
                                + start
                                + "-"
                                + mid
                                + ","
                                + mid
                                + "-"
                                + end);

        assertThat(r.path("mode").asText()).isEqualTo("ranges");
        assertThat(r.path("differences").size()).isZero();
        long[] first =
                checkpoints.stream()
                        .filter(c -> c[0] >= start && c[0] <= mid)
                        .mapToLong(c -> c[1])
                        .sorted()
                        .toArray();
        JsonNode p50 = row(r, "duration_p50").path("cells").get(0);
        assertThat(p50.path("samples").asInt()).isEqualTo(first.length);
        // nearest rank: the ceil(n/2)-th smallest
        assertThat(p50.path("value").asDouble())
                .isEqualTo((double) first[(first.length + 1) / 2 - 1]);
        assertThat(row(r, "duration_p999").path("cells").get(0).path("value").asDouble())
                .isEqualTo((double) Arrays.stream(first).max().orElseThrow());
        JsonNode perHour = row(r, "completed_per_hour").path("cells").get(0);
        assertThat(perHour.path("value").asDouble())
                .isCloseTo(
                        first.length * 3_600_000.0 / (mid - start),
                        org.assertj.core.data.Offset.offset(1e-6));
        JsonNode second = row(r, "duration_p50").path("cells").get(1);
        double expectedChange =
                (second.path("value").asDouble() - p50.path("value").asDouble())
                        / p50.path("value").asDouble()
                        * 100;
        assertThat(second.path("changePercent").asDouble())
                .isCloseTo(expectedChange, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void badSelectionsAreRefusedNamingTheParameter() {
        Map<String, String> refusals =
                Map.of(
                        "jobs=" + pair.rocksdb(),
                        "parameter 'jobs'",
                        "job="
                                + pair.rocksdb()
                                + "&ranges="
                                + URLEncoder.encode("-1h-now", StandardCharsets.UTF_8),
                        "parameter 'ranges'",
                        "jobs=" + pair.rocksdb() + "," + "0".repeat(32),
                        "is not known to the hub",
                        "",
                        "either 'jobs'");
        refusals.forEach(
                (query, message) -> {
                    HttpResponse<String> response =
                            cluster.http().get(hub + "/api/v1/compare?" + query);
                    assertThat(response.statusCode()).as(query).isEqualTo(400);
                    assertThat(response.body()).as(query).contains(message);
                });
    }

    @Test
    void theCompareViewShowsThePairInChromium() throws Exception {
        String screenshots =
                System.getProperty(
                        "insight.screenshots",
                        Path.of("target", "panel-screenshots").toAbsolutePath().toString());
        PanelInBrowserITCase.runE2e(
                "e2e/compare.e2e.mjs",
                Map.of(
                        "INSIGHT_URL", hub,
                        "COMPARE_JOBS", pair.rocksdb() + "," + pair.changelog(),
                        "SCREENSHOT_DIR", screenshots));
    }
}
