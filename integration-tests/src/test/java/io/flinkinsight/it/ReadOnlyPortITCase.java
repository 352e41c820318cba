package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;
import io.flinkinsight.harness.demo.DemoWorkload;
import io.flinkinsight.it.FlinkRestRoutes.Route;
import io.flinkinsight.it.RouteSpellings.Spelling;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.EOFException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's port is read-only towards Flink: on a real session cluster with a checkpointing
 * streaming job, every state-changing route of Flink's REST API (scanned from Flink's own jars, so
 * a route a new release adds is covered) and every GET route with side effects or sensitive content
 * is refused in every spelling a decoder on the way might read as that route, under every prefix
 * the port serves, and the job runs and checkpoints on. A positive control first shows the port
 * does serve Flink's read-only views, so a port that refuses everything cannot pass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadOnlyPortITCase {

    /**
     * GET routes that act (cancel, stop, sample, profile) or hand out what the dashboard's proxy
     * has no need for.
     */
    private static final Set<String> SENSITIVE_GETS =
            Set.of(
                    "/jobs/:jobid/yarn-cancel",
                    "/jobs/:jobid/yarn-stop",
                    "/jobs/:jobid/vertices/:vertexid/flamegraph",
                    "/jars/:jarid/plan",
                    "/jars",
                    "/jobmanager/thread-dump",
                    "/taskmanagers/:taskmanagerid/thread-dump",
                    "/jobmanager/logs",
                    "/jobmanager/logs/:filename",
                    "/jobmanager/log",
                    "/jobmanager/stdout",
                    "/taskmanagers/:taskmanagerid/logs",
                    "/taskmanagers/:taskmanagerid/logs/:filename",
                    "/taskmanagers/:taskmanagerid/log",
                    "/taskmanagers/:taskmanagerid/stdout",
                    "/jobmanager/environment",
                    "/jobmanager/profiler",
                    "/taskmanagers/:taskmanagerid/profiler");

    /**
     * And any GET whose template holds one of these: a route Flink adds later under such a name is
     * covered too.
     */
    private static final List<String> SENSITIVE_WORDS =
            List.of("profiler", "thread-dump", "log", "stdout", "flamegraph", "yarn-", "plan");

    /** Sent with the canonical spelling only: the method check comes before any path check. */
    private static final List<String> OTHER_METHODS =
            List.of("POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "get");

    private static final String TRIGGER_ID = "0123456789abcdef0123456789abcdef";

    /**
     * Leaking answers recorded per route before its remaining spellings are skipped: on a port that
     * leaks, every spelling of a log or thread-dump route makes Flink render one, and the test must
     * stay within minutes.
     */
    private static final int MAX_LEAKS_PER_ROUTE =
            Integer.getInteger("insight.read-only.max-leaks-per-route", 20);

    /**
     * A job cancelled through the port is started again (at most this often) so later routes are
     * still checked.
     */
    private static final int MAX_JOB_RESTARTS = 2;

    private SortedSet<Route> routes;
    private LocalFlinkCluster cluster;
    private final List<SqlSession> sessions = new ArrayList<>();
    private final Set<String> jobsSeen = new HashSet<>();
    private int restarts;
    private String jobId;
    private String vertexId;
    private String taskManagerId;
    private long checkpointId;
    private URI hub;

    @BeforeAll
    void startClusterAndJob() throws IOException {
        // First: a broken scan fails in seconds, before a cluster is started.
        routes = FlinkRestRoutes.scan();
        cluster =
                TestClusters.withPlugin("read-only-port")
                        .config("metrics.reporter.insight.hub.poll-interval", "2 s")
                        .start();
        SqlSession session = cluster.sqlSession();
        sessions.add(session);
        jobId = DemoWorkload.startStreamingJob(cluster, session, Duration.ofSeconds(60));
        jobsSeen.add(jobId);
        vertexId = firstVertex(jobId);
        checkpointId = awaitCheckpointCompletedAfter(0, Duration.ofSeconds(60)).path("id").asLong();
        taskManagerId =
                cluster.restGet("/taskmanagers").path("taskmanagers").path(0).path("id").asText();
        assertThat(taskManagerId).as("TaskManager id in Flink's REST").isNotEmpty();
        hub = URI.create(cluster.insightUrl(Role.JOBMANAGER));
    }

    @AfterAll
    void stop() {
        sessions.forEach(SqlSession::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void portServesFlinksReadOnlyViewsAndItsOwnEndpoints() throws IOException {
        assertServesReadOnlyViews();
    }

    @Test
    @Order(2)
    void noSpellingOfAStateChangingOrSensitiveFlinkRouteGetsThrough() throws IOException {
        List<Route> targets = routes.stream().filter(ReadOnlyPortITCase::isTarget).toList();
        assertThat(targets)
                .as("targets from the scan")
                .contains(
                        new Route("GET", "/jobs/:jobid/yarn-cancel"),
                        new Route("GET", "/jobs/:jobid/yarn-stop"));
        List<String> leaks = new ArrayList<>();
        int sent = 0;
        int connections;
        long started = System.nanoTime();
        try (RawHttpClient http = client()) {
            for (Route route : targets) {
                Batch batch = sendEverySpelling(http, route);
                sent += batch.sent;
                leaks.addAll(batch.leaks);
                if (batch.skipped > 0) {
                    leaks.add(
                            route
                                    + ": "
                                    + batch.skipped
                                    + " more requests not sent after "
                                    + MAX_LEAKS_PER_ROUTE
                                    + " let through");
                }
                String job = checkJobAfter(route, leaks);
                System.out.printf(
                        "read-only port: %-75s %5d requests, %3d let through%s, job %s%n",
                        route,
                        batch.sent,
                        batch.leaks.size(),
                        batch.skipped > 0 ? " (" + batch.skipped + " more not sent)" : "",
                        job);
            }
            connections = http.connections();
        }
        long barrageEnd = System.currentTimeMillis();
        System.out.printf(
                "read-only port: %d targets, %d requests in %d ms on %d connection(s), %d let through%n",
                targets.size(),
                sent,
                (System.nanoTime() - started) / 1_000_000,
                connections,
                leaks.size());

        assertServesReadOnlyViews();
        String finalState = jobStatus();
        if (finalState.equals("RUNNING")) {
            awaitCheckpointCompletedAfter(barrageEnd, Duration.ofSeconds(60));
        } else {
            leaks.add("at the end job " + jobId + " is " + finalState + ", not RUNNING");
        }
        assertThat(leaks)
                .withFailMessage(
                        () ->
                                leaks.size()
                                        + " requests or checks show a route through the"
                                        + " read-only port (method, target, answer, trick):\n  "
                                        + String.join("\n  ", leaks))
                .isEmpty();
    }

    @Test
    @Order(3)
    void subtaskRangesNeverReachFlinkAndItsRestApiStaysResponsive() throws Exception {
        String ranges = String.join(",", Collections.nCopies(41, "0-2147483647"));
        String madeUp =
                "/flink/jobs/"
                        + "0".repeat(32)
                        + "/vertices/"
                        + "1".repeat(32)
                        + "/subtasks/metrics";
        String real = "/flink/jobs/" + jobId + "/vertices/" + vertexId + "/subtasks/metrics";
        try (RawHttpClient http = client()) {
            for (String path : List.of(madeUp, madeUp, madeUp, real, real, real)) {
                RawHttpClient.Response r =
                        http.send("GET", path + "?get=numRecordsIn&subtasks=" + ranges);
                assertThat(r.status()).as("GET %s?subtasks=<41 ranges>", path).isEqualTo(400);
                assertThat(r.bodyText()).contains("'subtasks'");
            }
            // What the dashboard's job graph sends still works.
            RawHttpClient.Response graph =
                    http.send(
                            "GET",
                            real
                                    + "?get=backPressuredTimeMsPerSecond,busyTimeMsPerSecond,numRecordsInPerSecond");
            assertThat(graph.status()).isEqualTo(200);
            assertThat(graph.bodyText()).contains("busyTimeMsPerSecond");
        }
        // Six such requests used to keep the JobManager's REST threads (4 by default) busy for
        // minutes: Flink's own
        // /overview must answer as usual in the seconds after (timed out at 5 s, where a blocked
        // thread pool leaves
        // it waiting for ever; 10 rounds, a second apart).
        HttpClient flink = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long start = System.nanoTime();
            HttpResponse<String> overview =
                    flink.send(
                            HttpRequest.newBuilder(URI.create(cluster.restUrl() + "/overview"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            millis.add((System.nanoTime() - start) / 1_000_000);
            assertThat(overview.statusCode()).isEqualTo(200);
            Thread.sleep(1_000);
        }
        System.out.printf(
                "read-only port: Flink's /overview after six subtask-range requests: %s ms%n",
                millis);
    }

    @Test
    @Order(4)
    void aPageOfAnotherSiteWhoseNameWasReResolvedToThisHostGetsNothing() throws IOException {
        String rebinding = "rebind.attacker.example:" + hub.getPort();
        String headers = "Host: " + rebinding + "\r\nOrigin: http://" + rebinding + "\r\n";
        try (RawHttpClient http = client()) {
            for (String path :
                    List.of(
                            "/api/v1/jobs",
                            "/api/v1/overview",
                            "/flink/jobmanager/config",
                            "/flink/jobs/" + jobId + "/exceptions",
                            "/")) {
                RawHttpClient.Response r = http.send("GET", path, headers);
                assertThat(r.status()).as("GET %s with Host %s", path, rebinding).isEqualTo(421);
                assertThat(r.bodyText())
                        .as(path)
                        .contains("metrics.reporter.insight.http.allowed-hosts")
                        .doesNotContain(jobId);
            }
            assertThat(
                            http.send(
                                            "GET",
                                            "/api/v1/jobs",
                                            "Host: localhost:" + hub.getPort() + "\r\n")
                                    .status())
                    .as("the same request naming localhost")
                    .isEqualTo(200);
        }
    }

    @Test
    @Order(5)
    void withTheDefaultsANonLoopbackPeerGetsTheMetricsButNotThePanelTheApiOrTheProxy()
            throws IOException {
        InetAddress ownAddress = nonLoopbackAddress();
        Assumptions.assumeTrue(
                ownAddress != null,
                "this machine has no non-loopback IPv4 address to connect from");
        try (RawHttpClient peer = new RawHttpClient(hub.getHost(), hub.getPort(), ownAddress)) {
            for (String path :
                    List.of(
                            "/",
                            "/index.html",
                            "/api/v1/overview",
                            "/api/v1/jobs",
                            "/api/v1/checkpoints?job=" + jobId,
                            "/flink/",
                            "/flink/overview",
                            "/flink/jobmanager/config",
                            "/flink/jobs/" + jobId + "/exceptions")) {
                RawHttpClient.Response r = peer.send("GET", path);
                assertThat(r.status()).as("GET %s from %s", path, ownAddress).isEqualTo(403);
                assertThat(r.bodyText()).as(path).contains("loopback").doesNotContain(jobId);
            }
            RawHttpClient.Response metrics = peer.send("GET", "/metrics");
            assertThat(metrics.status()).isEqualTo(200);
            assertThat(metrics.bodyText()).contains("flink_jobmanager_");
            RawHttpClient.Response json =
                    peer.send("GET", "/api/v1/metrics?contains=insight_client_&limit=1000");
            assertThat(json.status())
                    .as("the client figures as JSON, as the hub gathers them")
                    .isEqualTo(200);
            assertThat(peer.send("GET", "/api/v1/metrics?contains=Status").status())
                    .as("any other JSON metrics")
                    .isEqualTo(403);
        }
    }

    /** One of this machine's own IPv4 addresses that is not loopback, or null. */
    private static InetAddress nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    return address;
                }
            }
        }
        return null;
    }

    /** What one route's requests did. */
    private static final class Batch {
        int sent;
        int skipped;
        final List<String> leaks = new ArrayList<>();
    }

    /**
     * Whether the job still runs after a route's requests; if not, records the route and starts the
     * job again (a bounded number of times), so the routes after it are still checked against a
     * running job.
     *
     * @return the job's status after the route's requests
     */
    private String checkJobAfter(Route route, List<String> leaks) {
        if (restarts > MAX_JOB_RESTARTS) {
            return "no longer watched";
        }
        String status = jobStatus();
        if (!status.equals("RUNNING")) {
            leaks.add(
                    route
                            + ": after this route's requests job "
                            + jobId
                            + " is "
                            + status
                            + ", not RUNNING");
            if (restarts++ < MAX_JOB_RESTARTS) {
                startJobAgain();
            }
        }
        return status;
    }

    private Batch sendEverySpelling(RawHttpClient http, Route route) {
        Batch batch = new Batch();
        List<String> methods = methodsFor(route);
        for (Spelling spelling :
                RouteSpellings.all(RouteSpellings.fill(route.template(), parameterValues(), "x"))) {
            List<String> these = new ArrayList<>(methods);
            if (spelling.trick().equals("as is")) {
                OTHER_METHODS.stream().filter(m -> !these.contains(m)).forEach(these::add);
            }
            for (String method : these) {
                if (batch.leaks.size() >= MAX_LEAKS_PER_ROUTE) {
                    batch.skipped++;
                    continue;
                }
                String leak = leak(http, method, spelling.target());
                batch.sent++;
                if (leak != null) {
                    batch.leaks.add(
                            route
                                    + ": "
                                    + method
                                    + " "
                                    + spelling.target()
                                    + " -> "
                                    + leak
                                    + " ("
                                    + spelling.trick()
                                    + ")");
                }
            }
        }
        return batch;
    }

    /** Null when the port refused the request, else what it answered. */
    private String leak(RawHttpClient http, String method, String target) {
        RawHttpClient.Response answer;
        try {
            answer = http.send(method, target);
        } catch (EOFException e) {
            return null; // Closed without an answer: refused.
        } catch (IOException e) {
            // No proof of refusal: the request may be stuck in Flink.
            return "no answer: " + e;
        }
        if (answer.status() >= 400) {
            return null;
        }
        String type = answer.header("Content-Type");
        return answer.status()
                + (type == null ? "" : " " + type)
                + (answer.header("Location") == null
                        ? ""
                        : " Location: " + answer.header("Location"));
    }

    /**
     * The route's own method plus GET and HEAD, unless a GET of the same template is a route of its
     * own.
     */
    private List<String> methodsFor(Route route) {
        if (route.method().equals("GET")) {
            return List.of("GET", "HEAD");
        }
        // A GET of the same template is a different Flink route: read-only ones are proxied on
        // purpose
        // (GET /jobs/:jobid beside PATCH), sensitive ones are targets of their own.
        return routes.contains(new Route("GET", route.template()))
                ? List.of(route.method())
                : List.of(route.method(), "GET", "HEAD");
    }

    private static boolean isTarget(Route route) {
        return !route.method().equals("GET")
                || SENSITIVE_GETS.contains(route.template())
                || SENSITIVE_WORDS.stream().anyMatch(route.template()::contains);
    }

    /**
     * Real values, so a spelling that reaches Flink finds the job, vertex, checkpoint and
     * TaskManager it names.
     */
    private Map<String, String> parameterValues() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("jobid", jobId);
        values.put("vertexid", vertexId);
        values.put("checkpointid", Long.toString(checkpointId));
        values.put("taskmanagerid", taskManagerId);
        values.put("subtaskindex", "0");
        values.put("attempt", "0");
        values.put("triggerid", TRIGGER_ID);
        values.put("jarid", "x.jar");
        values.put("filename", "jobmanager.log");
        return values;
    }

    private void assertServesReadOnlyViews() throws IOException {
        Map<String, String> views = new LinkedHashMap<>();
        views.put("/flink/jobs/overview", jobId);
        views.put("/flink/jobs/" + jobId, "\"jid\":\"" + jobId + "\"");
        views.put("/flink/jobs/" + jobId + "/checkpoints", "\"counts\"");
        views.put("/flink/overview", "\"taskmanagers\"");
        views.put("/flink/", "<html");
        views.put("/metrics", "flink_jobmanager_");
        views.put("/api/v1/overview", "\"jobmanager\"");
        try (RawHttpClient http = client()) {
            for (Map.Entry<String, String> view : views.entrySet()) {
                RawHttpClient.Response answer = http.send("GET", view.getKey());
                assertThat(answer.status()).as("GET %s on the hub", view.getKey()).isEqualTo(200);
                assertThat(answer.bodyText())
                        .as("GET %s on the hub", view.getKey())
                        .contains(view.getValue());
            }
        }
    }

    private RawHttpClient client() {
        return new RawHttpClient(hub.getHost(), hub.getPort());
    }

    /**
     * Submits the streaming job once more in a new session (its tables are temporary) and waits
     * until it runs.
     */
    private void startJobAgain() {
        SqlSession session = cluster.sqlSession();
        sessions.add(session);
        session.set(DemoWorkload.streamingJobSettings());
        DemoWorkload.streamingJobStatements().forEach(session::execute);
        jobId =
                Waits.until(
                        "a new " + DemoWorkload.STREAMING_JOB_NAME + " RUNNING",
                        Duration.ofSeconds(60),
                        Duration.ofMillis(250),
                        () -> {
                            for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
                                String id = job.path("jid").asText();
                                if (DemoWorkload.STREAMING_JOB_NAME.equals(
                                                job.path("name").asText())
                                        && !jobsSeen.contains(id)
                                        && job.path("state").asText().equals("RUNNING")) {
                                    return Optional.of(id);
                                }
                            }
                            return Optional.empty();
                        },
                        () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
        jobsSeen.add(jobId);
        vertexId = firstVertex(jobId);
    }

    /**
     * The job's status from the Dispatcher. Not {@code cluster.jobState}: {@code /jobs/:jobid}
     * comes from Flink's execution graph cache and still says RUNNING for seconds after a cancel.
     */
    private String jobStatus() {
        return cluster.restGet("/jobs/" + jobId + "/status").path("status").asText();
    }

    private String firstVertex(String job) {
        String id = cluster.restGet("/jobs/" + job).path("vertices").path(0).path("id").asText();
        assertThat(id).as("a vertex of job %s", job).isNotEmpty();
        return id;
    }

    /**
     * The job's latest completed checkpoint once one was acknowledged after {@code sinceMillis}.
     */
    private JsonNode awaitCheckpointCompletedAfter(long sinceMillis, Duration timeout) {
        return Waits.until(
                "a checkpoint of job " + jobId + " completed after " + sinceMillis,
                timeout,
                Duration.ofMillis(500),
                () -> {
                    JsonNode checkpoints = cluster.restGet("/jobs/" + jobId + "/checkpoints");
                    JsonNode latest = checkpoints.path("latest").path("completed");
                    return latest.isObject()
                                    && latest.path("latest_ack_timestamp").asLong() > sinceMillis
                            ? Optional.of(latest)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));
    }
}
