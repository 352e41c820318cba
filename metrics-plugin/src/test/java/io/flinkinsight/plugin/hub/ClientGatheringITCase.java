package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.TestingClientMetrics;
import io.flinkinsight.plugin.runtime.InsightConfiguration;
import io.flinkinsight.plugin.runtime.InsightRuntime;

import org.apache.flink.metrics.Gauge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real plugin runtimes with their HTTP servers on 127.0.0.1: a TaskManager and a client
 * process (as in a SQL Gateway, detected from the interactive client's metrics) in one port range,
 * and a JobManager's hub told to gather from that range. The hub must find the client, skip the
 * TaskManager, serve the client's figures, and find the client again after it comes back on another
 * port.
 */
class ClientGatheringITCase {

    private static final int TASK_MANAGER_PORT = 19350;
    private static final String CLIENT_RANGE = "19350-19353";
    private static final int HUB_PORT = 19360;
    private static final Duration WAIT = Duration.ofSeconds(60);

    // Not the plugin's mapper: failsafe runs against the shaded jar, whose Jackson is relocated.
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<InsightRuntime> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(InsightRuntime::close);
    }

    private InsightRuntime start(String... options) {
        Properties p = new Properties();
        p.setProperty("bind-host", "127.0.0.1");
        p.setProperty("history.resolution", "1 s");
        for (int i = 0; i < options.length; i += 2) {
            p.setProperty(options[i], options[i + 1]);
        }
        InsightRuntime runtime =
                InsightRuntime.start(
                        InsightConfiguration.from(p, InsightOptions.USER_PREFIX),
                        Clock.systemUTC());
        started.add(runtime);
        return runtime;
    }

    private JsonNode get(int port, String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                        .timeout(Duration.ofSeconds(5))
                        .build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("GET %s", pathAndQuery).isEqualTo(200);
        return MAPPER.readTree(response.body());
    }

    /**
     * Asks until {@code done} holds (bounded); returns the last answer, which the caller asserts
     * on.
     */
    private JsonNode await(int port, String pathAndQuery, Predicate<JsonNode> done)
            throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode answer = get(port, pathAndQuery);
        while (!done.test(answer) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            answer = get(port, pathAndQuery);
        }
        return answer;
    }

    private static List<String> clientLabels(JsonNode seriesAnswer) {
        List<String> labels = new ArrayList<>();
        seriesAnswer
                .path("series")
                .forEach(s -> labels.add(s.path("labels").path("client").asText()));
        return labels;
    }

    private static double lastValue(JsonNode seriesAnswer) {
        JsonNode points = seriesAnswer.path("series").path(0).path("points");
        return points.path(points.size() - 1).path(1).asDouble(Double.NaN);
    }

    @Test
    void theHubGathersTheClientsFiguresFromItsPortRangeAndFindsItAgainAfterARestart()
            throws Exception {
        InsightRuntime taskManager =
                start("port", String.valueOf(TASK_MANAGER_PORT), "role", "taskmanager");
        InsightRuntime client = start("port", CLIENT_RANGE);
        TestingClientMetrics.register(client::metricAdded, "gateway-1", 1);
        InsightRuntime hub =
                start(
                        "port",
                        String.valueOf(HUB_PORT),
                        "role",
                        "jobmanager",
                        "hub.flink-rest-url",
                        "http://127.0.0.1:1", // refuses at once: only the client figures matter
                        // here
                        "hub.poll-interval",
                        "1 s",
                        "hub.clients",
                        "127.0.0.1:" + CLIENT_RANGE);
        // this JobManager leads, as its ResourceManager's gauge says in a real one: its hub polls
        hub.metricAdded(
                (Gauge<Long>) () -> 1L,
                Leadership.SIGNAL_METRIC,
                LeadershipTest.resourceManagerGroup());
        int clientPort = client.port();

        assertThat(taskManager.port()).isEqualTo(TASK_MANAGER_PORT);
        assertThat(clientPort)
                .as("the client takes the next free port of the range")
                .isEqualTo(19351);
        assertThat(hub.port()).isEqualTo(HUB_PORT);
        assertThat(client.role())
                .as("detected from the insight_client metrics")
                .isEqualTo(ProcessRole.CLIENT);

        JsonNode figures =
                await(
                        HUB_PORT,
                        "/api/v1/client",
                        a -> a.toString().equals(TestingClientMetrics.EXPECTED_JSON));
        assertThat(figures.toString()).isEqualTo(TestingClientMetrics.EXPECTED_JSON);
        assertThat(get(clientPort, "/api/v1/client"))
                .as("the client's own figures")
                .isEqualTo(figures);

        JsonNode hits = get(HUB_PORT, "/api/v1/series?metric=flink_insight_client_pool_hits");
        assertThat(clientLabels(hits))
                .as("one client, not the TaskManager")
                .containsExactly("127.0.0.1:19351");
        assertThat(hits.path("series").path(0).path("labels").path("host").asText())
                .isEqualTo("gateway_1");
        assertThat(lastValue(get(HUB_PORT, "/api/v1/series?metric=insight_hub_clients")))
                .isEqualTo(1.0);

        // The client goes away and comes back on another port of the range, with new counts.
        started.remove(client);
        client.close();
        InsightRuntime restarted = start("port", "19352");
        TestingClientMetrics.register(restarted::metricAdded, "gateway-1", 2);

        String hitsOfRestarted =
                "/api/v1/series?metric=flink_insight_client_pool_hits&client=127.0.0.1:19352";
        JsonNode again = await(HUB_PORT, hitsOfRestarted, a -> lastValue(a) == 18.0);
        assertThat(lastValue(again))
                .as("the restarted client's hits, found by a rescan")
                .isEqualTo(18.0);
        assertThat(
                        clientLabels(
                                get(
                                        HUB_PORT,
                                        "/api/v1/series?metric=flink_insight_client_pool_hits")))
                .as("history keeps the first client's series beside the restarted one's")
                .containsExactlyInAnyOrder("127.0.0.1:19351", "127.0.0.1:19352");
    }
}
