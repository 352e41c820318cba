package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.Waits;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One hub per cluster under ZooKeeper high availability, two JobManagers with the plugin: only the
 * leader's hub sends requests (the standby's {@code flink_insight_hub_rest_requests_total} stays
 * 0), the standby's overview names the leader, and when the leader is killed the new leader's hub
 * starts polling. The leader writes its stores under {@code high-availability.storageDir} (the
 * default), the standby writes nothing, and the new leader serves the old leader's history and goes
 * on gathering. Every wait is bounded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HubHighAvailabilityITCase {

    private static final String REQUESTS = "flink_insight_hub_rest_requests_total";
    private static final String LEADING = "flink_insight_hub_leading";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private LocalFlinkCluster cluster;
    private Role leader;
    private Role standby;

    @BeforeAll
    void startCluster() {
        cluster =
                LocalFlinkCluster.builder()
                        .workDir(TestClusters.workDir("hub-ha"))
                        .pluginJar(TestClusters.pluginJar())
                        .insightPortRange("19450-19469")
                        .zooKeeperHa(true)
                        .jobManagers(2)
                        .config("metrics.reporter.insight.hub.poll-interval", "1 s")
                        .config("metrics.reporter.insight.stores.dir.write-interval", "1 s")
                        // the killed leader's ZooKeeper session ends soon, so its standby takes
                        // over within seconds (the least a ZooKeeper server grants is 2 ticks, 4 s)
                        .config("high-availability.zookeeper.client.session-timeout", "5 s")
                        // not above the session timeout, which Curator warns of
                        .config("high-availability.zookeeper.client.connection-timeout", "5 s")
                        .start();
        leader = cluster.awaitLeadingJobManager(WAIT);
        standby = cluster.jobManagers().stream().filter(r -> !r.equals(leader)).findFirst().get();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void onlyTheLeaderPollsAndTheStandbyNamesIt() throws Exception {
        // The leader's hub polls; by the time it has polled a few rounds the standby, started at
        // the same time, has had every chance to poll too.
        awaitFigureAtLeast(leader, REQUESTS, 10);
        assertThat(figure(leader, LEADING)).isEqualTo(1);
        JsonNode leaderHub = overview(leader).path("hub");
        assertThat(leaderHub.path("leading").asBoolean()).isTrue();
        assertThat(port(leaderHub.path("leader").asText()))
                .isEqualTo(port(cluster.restUrl(leader)));

        assertThat(figure(standby, REQUESTS)).as("the standby's requests").isZero();
        assertThat(figure(standby, "flink_insight_hub_client_requests_total")).isZero();
        assertThat(figure(standby, LEADING)).isZero();
        JsonNode standbyHub = awaitStandbyNamingTheLeader();
        assertThat(standbyHub.path("leading").asBoolean()).isFalse();
        assertThat(figure(standby, REQUESTS)).as("the standby's requests, later").isZero();

        for (Role jobManager : cluster.jobManagers()) {
            assertThat(pluginWarnings(jobManager)).as("WARN lines in %s", jobManager).isEmpty();
        }
        JsonNode dir = awaitWritten(leader);
        assertThat(dir.path("dir").asText()).endsWith("/default/insight");
        assertThat(overview(standby).path("storesDir").isNull())
                .as("the standby's stores on disk")
                .isTrue();
    }

    @Test
    @Order(2)
    void theNewLeaderPollsAfterTheLeaderIsKilled() throws Exception {
        awaitWritten(leader);
        Thread.sleep(2_000); // two more writes: the samples read below are on disk
        List<Long> oldLeaders = sampleTimes(leader);
        assertThat(oldLeaders).hasSizeGreaterThanOrEqualTo(3);
        long killedAt = System.currentTimeMillis();
        cluster.kill(leader);
        Role newLeader = cluster.awaitLeadingJobManager(WAIT);
        assertThat(newLeader).isEqualTo(standby);

        long before = figure(newLeader, REQUESTS);
        awaitFigureAtLeast(newLeader, REQUESTS, before + 10);
        assertThat(figure(newLeader, LEADING)).isEqualTo(1);
        JsonNode hub = overview(newLeader).path("hub");
        assertThat(hub.path("leading").asBoolean()).isTrue();
        assertThat(port(hub.path("leader").asText())).isEqualTo(port(cluster.restUrl(newLeader)));

        JsonNode dir = overview(newLeader).path("storesDir");
        assertThat(dir.path("restoredSamples").asLong()).as("samples read back").isPositive();
        assertThat(sampleTimes(newLeader))
                .as("the old leader's samples, on the new leader")
                .containsAll(oldLeaders.subList(0, oldLeaders.size() - 1));
        Waits.until(
                "a sample of the new leader's own",
                WAIT,
                Duration.ofMillis(500),
                () -> {
                    List<Long> served = sampleTimes(newLeader);
                    return served.get(served.size() - 1) > killedAt
                            ? Optional.of(true)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(newLeader)));
        assertThat(pluginWarnings(newLeader)).as("WARN lines of the new leader").isEmpty();
    }

    /**
     * Waits until the JobManager's hub has written its stores; its overview's {@code storesDir}.
     */
    private JsonNode awaitWritten(Role role) {
        return Waits.until(
                "a write of the stores by " + role,
                WAIT,
                Duration.ofMillis(500),
                () -> {
                    JsonNode dir = overview(role).path("storesDir");
                    return dir.path("lastWriteAt").isTextual()
                            ? Optional.of(dir)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(role)));
    }

    /** The times of the hub's TaskManager count samples, oldest first. */
    private List<Long> sampleTimes(Role role) {
        return HubReads.sampleTimes(cluster, role, "insight_taskmanager_count");
    }

    private JsonNode awaitStandbyNamingTheLeader() {
        String leaderUrl = cluster.restUrl(leader);
        return Waits.until(
                "the standby's overview naming the leader at " + leaderUrl,
                WAIT,
                Duration.ofMillis(500),
                () -> {
                    JsonNode hub = overview(standby).path("hub");
                    return hub.path("leader").isTextual()
                                    && port(hub.path("leader").asText()) == port(leaderUrl)
                            ? Optional.of(hub)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(standby)));
    }

    private void awaitFigureAtLeast(Role role, String name, long least) {
        Waits.until(
                name + " >= " + least + " in " + role,
                WAIT,
                Duration.ofMillis(500),
                () -> figure(role, name) >= least ? Optional.of(true) : Optional.empty(),
                () -> cluster.diagnostics(List.of(role)));
    }

    /** The port of a REST URL: the two JobManagers run on one host, their ports tell them apart. */
    private static int port(String url) {
        return URI.create(url).getPort();
    }

    private JsonNode overview(Role role) {
        return HubReads.get(cluster, role, "/api/v1/overview");
    }

    /** The value of the plugin's own unlabelled figure {@code name} on the process's scrape. */
    private long figure(Role role, String name) {
        for (String line : cluster.insightGet(role, "/metrics").split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError(name + " is not on the scrape of " + role);
    }

    /** The plugin's WARN lines in the process's log: a healthy start has none. */
    private List<String> pluginWarnings(Role role) throws IOException {
        return Files.readAllLines(cluster.logFile(role)).stream()
                .filter(l -> l.contains("WARN") && l.contains("Flink Insight"))
                .toList();
    }
}
