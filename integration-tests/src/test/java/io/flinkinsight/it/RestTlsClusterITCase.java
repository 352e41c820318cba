package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.RestTls;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster with Flink's REST TLS and mutual authentication (keys made by keytool): the interactive
 * client runs queries through the gateway; the hub polls Flink's REST API and the dashboard proxy
 * serves Flink's dashboard with Flink's own trust store and certificate; with {@code
 * http.ssl.enabled} the plugin's port serves HTTPS from the same stores, refuses a client without
 * Flink's certificate, and the hub gathers the gateway's figures over HTTPS.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestTlsClusterITCase {

    private static final String CLUSTER_INSIGHT_PORTS = "19420-19429";
    private static final String GATEWAY_INSIGHT_PORTS = "19430-19433";

    private RestTls tls;
    private LocalFlinkCluster cluster;

    @BeforeAll
    void startCluster() throws IOException {
        tls = RestTls.create(Files.createDirectories(TestClusters.workDir("rest-tls-keys")));
        cluster =
                TestClusters.withPlugin("rest-tls", CLUSTER_INSIGHT_PORTS)
                        .restTls(tls)
                        .gatewayClasspath(TestClusters.clientJar())
                        .gatewayConfig("metrics.reporter.insight.port", GATEWAY_INSIGHT_PORTS)
                        .config(
                                "metrics.reporter.insight.hub.clients",
                                "127.0.0.1:" + GATEWAY_INSIGHT_PORTS)
                        .config("metrics.reporter.insight.hub.poll-interval", "1 s")
                        .config("metrics.reporter.insight.history.resolution", "1 s")
                        .config("metrics.reporter.insight.http.ssl.enabled", "true")
                        .start();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void queriesTheHubAndTheDashboardProxyWorkOverFlinksRestTlsWithMutualAuthentication()
            throws Exception {
        String hub = cluster.insightUrl(Role.JOBMANAGER);
        assertThat(hub).as("the plugin's port with http.ssl.enabled").startsWith("https://");
        assertThat(cluster.restUrl()).startsWith("https://");

        try (SqlSession session = InteractiveClientSupport.interactiveSession(cluster)) {
            List<String> queries = DemoWorkload.shortQueries();
            for (int i = 0; i < queries.size(); i++) {
                InteractiveClientSupport.assertShortQueryRows(i, session.query(queries.get(i)));
            }
        }

        // The hub's own polls of Flink's REST API (the TaskManager count comes only from GET
        // /taskmanagers).
        Waits.until(
                "the hub's TaskManager count, polled from Flink's REST API over TLS",
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                () -> {
                    JsonNode points =
                            cluster.http()
                                    .getJson(
                                            hub
                                                    + "/api/v1/series?metric=insight_taskmanager_count"
                                                    + "&from=-10m")
                                    .path("series")
                                    .path(0)
                                    .path("points");
                    return points.size() > 0 && points.get(points.size() - 1).get(1).asDouble() >= 1
                            ? Optional.of(points)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));

        // Flink's dashboard through the proxy, which calls Flink's REST API with Flink's
        // certificate.
        JsonNode overview = cluster.http().getJson(hub + "/flink/overview");
        assertThat(overview.path("taskmanagers").asInt()).isPositive();
        assertThat(cluster.http().getString(hub + "/flink/")).contains("<html");

        // The gateway's client figures, gathered by the hub over HTTPS with the same stores.
        InteractiveClientSupport.ClientFigures figures =
                InteractiveClientSupport.settledFigures(
                        cluster,
                        hub,
                        "the short queries in the hub's client figures",
                        f -> f.available() && f.succeeded() >= DemoWorkload.shortQueries().size());
        assertThat(figures.failed()).isZero();

        String log = Files.readString(cluster.logFile(Role.JOBMANAGER));
        assertThat(log)
                .as("the JobManager's log")
                .doesNotContain("PKIX path building failed")
                .doesNotContain("Flink Insight HTTP server not started");
    }

    @Test
    void thePortRefusesAClientWithoutFlinksCertificate() throws Exception {
        String hub = cluster.insightUrl(Role.JOBMANAGER);
        for (SSLContext context :
                List.of(
                        tls.trustOnlyContext(),
                        RestTls.create(
                                        Files.createDirectories(
                                                TestClusters.workDir("rest-tls-stranger")))
                                .clientContext())) {
            HttpClient client =
                    HttpClient.newBuilder()
                            .sslContext(context)
                            .connectTimeout(Duration.ofSeconds(5))
                            .build();
            assertThatThrownBy(
                            () ->
                                    client.send(
                                            HttpRequest.newBuilder(URI.create(hub + "/metrics"))
                                                    .timeout(Duration.ofSeconds(10))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        }
        assertThat(cluster.http().getString(hub + "/metrics")).contains("flink_jobmanager_");
    }
}
