package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * History that survives the JobManager, on a real session cluster without high availability: the
 * hub writes to {@code stores.dir} every second; the JobManager is killed (SIGKILL) and started
 * again, then stopped (SIGTERM) and started again. Each time the new hub serves the history,
 * checkpoints and job of before, with the gap where no JobManager ran; the streaming job, gone with
 * its JobManager, is SUSPENDED; the statements of the interactive client's queries through the
 * gateway (which outlives the JobManager) are counted once, not again from the gateway's log. Then
 * a damaged file in the directory: one log line, and the rest is read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DurableHistoryITCase {

    private static final String TM_COUNT = "insight_taskmanager_count";
    private static final String GATEWAY_PORTS = "19491-19499";
    private static final Duration WAIT = Duration.ofSeconds(90);

    /** The write interval and some slack: what the hub held longer than this ago is on disk. */
    private static final long WRITTEN_MILLIS = 4_000;

    private LocalFlinkCluster cluster;
    private Path storesDir;
    private SqlSession session;
    private String jobId;

    @BeforeAll
    void startCluster() throws IOException {
        storesDir = TestClusters.workDir("durable-history-stores");
        cluster =
                TestClusters.withPlugin("durable-history", "19470-19490")
                        .gatewayClasspath(TestClusters.clientJar())
                        .gatewayConfig("metrics.reporter.insight.port", GATEWAY_PORTS)
                        .config(
                                "metrics.reporter.insight.hub.clients",
                                "127.0.0.1:" + GATEWAY_PORTS)
                        .config("taskmanager.network.sort-shuffle.min-buffers", "16")
                        .config("metrics.reporter.insight.stores.dir", storesDir.toUri().toString())
                        .config("metrics.reporter.insight.stores.dir.write-interval", "1 s")
                        .config("metrics.reporter.insight.hub.poll-interval", "1 s")
                        .config("metrics.reporter.insight.history.resolution", "1 s")
                        // the TaskManager notices a killed JobManager soon and registers anew
                        .config("heartbeat.interval", "2 s")
                        .config("heartbeat.timeout", "10 s")
                        .config("cluster.registration.error-delay", "2 s")
                        .start();
        session = cluster.sqlSession();
        jobId = DemoWorkload.startStreamingJob(cluster, session, WAIT);
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aKilledJobManagersHistoryCheckpointsAndJobAreServedAfterItsRestartWithTheGap()
            throws Exception {
        awaitCheckpoints(3);
        awaitSamples(10);
        Thread.sleep(WRITTEN_MILLIS); // at least one write of all that
        try (SqlSession queries = InteractiveClientSupport.interactiveSession(cluster)) {
            for (int i = 0; i < 10; i++) {
                queries.query(DemoWorkload.shortQueries().get(i % 3));
            }
        }
        awaitCalls(10);
        Thread.sleep(WRITTEN_MILLIS);
        List<Long> samplesBefore = sampleTimes();
        List<Long> checkpointsBefore = checkpointIds();

        long killedAt = System.currentTimeMillis();
        cluster.kill(Role.JOBMANAGER);
        Thread.sleep(3_000);
        long restartBegan = System.currentTimeMillis();
        cluster.restartJobManager();
        long restartedAt = System.currentTimeMillis();
        JsonNode dir = awaitRestored();

        List<Long> samplesAfter = sampleTimes();
        List<Long> written =
                samplesBefore.stream().filter(t -> t < killedAt - WRITTEN_MILLIS).toList();
        assertThat(written).hasSizeGreaterThanOrEqualTo(5);
        assertThat(samplesAfter).as("samples of before the kill").containsAll(written);
        assertThat(samplesAfter.stream().filter(t -> t > killedAt && t < restartBegan))
                .as("samples while no JobManager ran: the gap")
                .isEmpty();
        assertThat(checkpointIds())
                .as("checkpoints of before the kill")
                .containsAll(checkpointsBefore.subList(0, checkpointsBefore.size() - 2));
        assertThat(jobStatus())
                .as("the streaming job, gone with its JobManager")
                .isEqualTo("SUSPENDED");
        assertThat(dir.path("restoredSeries").asInt()).isPositive();
        assertThat(dir.path("lastFailure").isNull()).isTrue();
        assertThat(pluginWarnings()).isEmpty();
        awaitSamplesAfter(restartedAt); // and the new hub goes on gathering

        // the statements came back with how far the gateway's log was read: read on from there
        assertThat(dir.path("restoredStatements").asInt()).isEqualTo(3);
        Thread.sleep(3_000); // three more polls of the gateway's log
        assertThat(calls()).as("the queries of before the kill, counted once").isEqualTo(10);
        try (SqlSession queries = InteractiveClientSupport.interactiveSession(cluster)) {
            for (int i = 0; i < 5; i++) {
                queries.query(DemoWorkload.shortQueries().get(i % 3));
            }
        }
        awaitCalls(15);
    }

    private long calls() {
        long calls = 0;
        for (JsonNode row : get("/api/v1/statements?limit=1000").path("statements")) {
            calls += row.path("calls").asLong();
        }
        return calls;
    }

    private void awaitCalls(long calls) {
        Waits.until(
                calls + " queries in the hub's statements",
                WAIT,
                Duration.ofMillis(500),
                () -> calls() >= calls ? Optional.of(true) : Optional.empty(),
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER, Role.SQL_GATEWAY)));
        assertThat(calls()).as("queries counted").isEqualTo(calls);
    }

    @Test
    @Order(2)
    void aStoppedJobManagerLosesNothingItHeld() throws Exception {
        awaitSamples(5);
        long stoppedAt = System.currentTimeMillis();
        List<Long> samplesBefore = sampleTimes();
        List<Long> checkpointsBefore = checkpointIds();
        cluster.stop(Role.JOBMANAGER); // SIGTERM: the hub writes what is new a last time
        cluster.restartJobManager();
        awaitRestored();

        List<Long> samplesAfter = sampleTimes();
        assertThat(samplesAfter).as("every sample of before the stop").containsAll(samplesBefore);
        assertThat(checkpointIds()).containsAll(checkpointsBefore);
        assertThat(samplesBefore.get(samplesBefore.size() - 1))
                .as("the newest sample was taken just before the stop")
                .isGreaterThan(stoppedAt - 3_000);
        assertThat(pluginWarnings()).isEmpty();
    }

    @Test
    @Order(3)
    void aDamagedFileIsSkippedWithOneLineAndTheRestIsRead() throws Exception {
        List<Long> samplesBefore = sampleTimes();
        cluster.stop(Role.JOBMANAGER);
        Path segment;
        try (Stream<Path> files = Files.list(storesDir)) {
            segment =
                    files.filter(p -> p.getFileName().toString().startsWith("segment-"))
                            .max((a, b) -> a.getFileName().compareTo(b.getFileName()))
                            .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(segment);
        bytes[bytes.length / 2] ^= 1;
        Files.write(segment, bytes);
        Files.writeString(storesDir.resolve("README.txt"), "a file that is not the plugin's");
        cluster.restartJobManager();
        awaitRestored();

        List<String> warnings = pluginWarnings();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("skipped").contains(segment.getFileName().toString());
        assertThat(sampleTimes())
                .as("samples of before, but those of the damaged file")
                .isNotEmpty();
        assertThat(sampleTimes().get(0)).isLessThanOrEqualTo(samplesBefore.get(0) + 60_000);
        assertThat(storesDir.resolve("README.txt")).exists();
        assertThat(cluster.restGet("/overview").path("taskmanagers").asInt()).isEqualTo(1);
    }

    private JsonNode awaitRestored() {
        return Waits.until(
                "the hub's read back of " + storesDir,
                WAIT,
                Duration.ofMillis(500),
                () -> {
                    JsonNode dir = overview().path("storesDir");
                    return dir.path("restoredFiles").asInt() > 0
                            ? Optional.of(dir)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    private void awaitCheckpoints(int least) {
        Waits.until(
                least + " checkpoints in the hub",
                WAIT,
                Duration.ofMillis(500),
                () -> checkpointIds().size() >= least ? Optional.of(true) : Optional.empty(),
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    private void awaitSamples(int least) {
        Waits.until(
                least + " samples of " + TM_COUNT,
                WAIT,
                Duration.ofMillis(500),
                () -> sampleTimes().size() >= least ? Optional.of(true) : Optional.empty(),
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    private void awaitSamplesAfter(long millis) {
        Waits.until(
                "a sample of " + TM_COUNT + " after " + Instant.ofEpochMilli(millis),
                WAIT,
                Duration.ofMillis(500),
                () -> {
                    List<Long> times = sampleTimes();
                    return !times.isEmpty() && times.get(times.size() - 1) > millis
                            ? Optional.of(true)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }

    private List<Long> sampleTimes() {
        return HubReads.sampleTimes(cluster, Role.JOBMANAGER, TM_COUNT);
    }

    private List<Long> checkpointIds() {
        JsonNode answer = get("/api/v1/checkpoints?tasks=false&limit=1000&job=" + jobId);
        List<Long> out = new ArrayList<>();
        for (JsonNode job : answer.path("jobs")) {
            for (JsonNode c : job.path("checkpoints")) {
                if ("COMPLETED".equals(c.path("status").asText())) {
                    out.add(c.path("checkpointId").asLong());
                }
            }
        }
        out.sort(Long::compare);
        return out;
    }

    private String jobStatus() {
        return get("/api/v1/jobs?job=" + jobId).path("jobs").path(0).path("status").asText();
    }

    private JsonNode overview() {
        return get("/api/v1/overview");
    }

    private JsonNode get(String path) {
        return HubReads.get(cluster, Role.JOBMANAGER, path);
    }

    /** The plugin's WARN lines in the running JobManager's log: a healthy start has none. */
    private List<String> pluginWarnings() throws IOException {
        return Files.readAllLines(cluster.logFile(Role.JOBMANAGER)).stream()
                .filter(l -> l.contains("WARN") && l.contains("Flink Insight"))
                .toList();
    }
}
