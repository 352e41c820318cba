package io.flinkinsight.harness;

import com.fasterxml.jackson.databind.JsonNode;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A running Flink session cluster on 127.0.0.1: JobManager, TaskManagers and optionally the SQL
 * Gateway as separate JVMs, optionally with the Insight plugin. {@link #close()} (or JVM exit)
 * stops exactly those JVMs.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    /**
     * The line the plugin logs once its HTTP server is bound; groups {@code scheme}, {@code host},
     * {@code port}.
     */
    public static final Pattern INSIGHT_LISTENING =
            Pattern.compile(
                    "Flink Insight HTTP server listening on (?<scheme>https?)://(?<host>[^:/\\s]+):(?<port>\\d+)");

    /**
     * What a JobManager's REST endpoint logs when it gains or loses leadership
     * (WebMonitorEndpoint).
     */
    static final Pattern REST_LEADERSHIP =
            Pattern.compile("(\\S+) (was granted leadership with leaderSessionID|lost leadership)");

    static final Duration DEFAULT_INSIGHT_WAIT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final int TAIL_LINES = 60;

    private final ClusterSpec spec;
    private final ClusterPorts ports;
    private final List<FlinkProcess> processes;
    private final SSLContext ssl;
    private final FlinkRestClient rest;
    private final Map<Role, String> insightUrls = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    private volatile Supplier<FlinkProcess> jobManagerStarter;

    LocalFlinkCluster(ClusterSpec spec, ClusterPorts ports, List<FlinkProcess> processes) {
        this.spec = spec;
        this.ports = ports;
        this.ssl = spec.withRestTls() ? spec.restTls().clientContext() : null;
        this.rest = new FlinkRestClient(ssl);
        // The launcher appends to this list while starting, so a failed start still stops what it
        // started.
        this.processes = processes;
        this.shutdownHook = new Thread(this::stopProcesses, "flink-insight-harness-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static LocalFlinkClusterBuilder builder() {
        return new LocalFlinkClusterBuilder();
    }

    public ClusterSpec spec() {
        return spec;
    }

    public ClusterPorts ports() {
        return ports;
    }

    /**
     * Flink's REST API and dashboard, e.g. {@code http://127.0.0.1:8081}; {@code https://} with
     * {@link ClusterSpec#restTls()}.
     */
    public String restUrl() {
        return restScheme() + "://" + ClusterConfiguration.LOOPBACK + ":" + ports.rest();
    }

    /**
     * The REST API of JobManager {@code role} ({@link Role#jobManager(int)}); any JobManager
     * answers, a standby too.
     */
    public String restUrl(Role jobManager) {
        int index = jobManagers().indexOf(jobManager);
        if (index < 0) {
            throw new IllegalArgumentException(jobManager + " is no JobManager of this cluster");
        }
        return restScheme()
                + "://"
                + ClusterConfiguration.LOOPBACK
                + ":"
                + ports.jobManagerRest().get(index);
    }

    /**
     * {@code https} when the REST endpoints have TLS ({@link ClusterSpec#restTls()}), else {@code
     * http}.
     */
    public String restScheme() {
        return spec.withRestTls() ? "https" : "http";
    }

    /**
     * The client context for the REST endpoints of this cluster: {@link RestTls#clientContext()}
     * (presents the cluster's certificate, trusts it) with REST TLS, null without.
     */
    public SSLContext sslContext() {
        return ssl;
    }

    /** The JobManager roles of this cluster, by index: {@link Role#JOBMANAGER} first. */
    public List<Role> jobManagers() {
        List<Role> roles = new ArrayList<>();
        for (int i = 0; i < spec.jobManagers(); i++) {
            roles.add(Role.jobManager(i));
        }
        return roles;
    }

    /**
     * The running JobManager whose REST endpoint leads, by the leadership lines in the logs (the
     * one that was granted leadership last and has not lost it), if any. With one JobManager and no
     * HA: that JobManager.
     */
    public Optional<Role> leadingJobManager() {
        if (!spec.zooKeeperHa()) {
            return Optional.of(Role.JOBMANAGER);
        }
        for (Role role : jobManagers()) {
            FlinkProcess process = process(role);
            if (process.isAlive()
                    && !process.isPaused()
                    && LogFiles.lastMatch(process.logFile(), REST_LEADERSHIP)
                            .filter(m -> m.group(2).startsWith("was granted"))
                            .isPresent()) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }

    /** Waits until a running JobManager leads (see {@link #leadingJobManager()}); returns it. */
    public Role awaitLeadingJobManager(Duration timeout) {
        return Waits.until(
                "a leading JobManager",
                timeout,
                Duration.ofMillis(200),
                this::leadingJobManager,
                () -> diagnostics(List.of()));
    }

    /**
     * The SQL Gateway's REST endpoint; {@code https://} with {@link ClusterSpec#restTls()}: the
     * gateway's endpoint takes the global {@code security.ssl.rest.*} options, so it has TLS and
     * mutual authentication too.
     */
    public String gatewayUrl() {
        requireGateway();
        return restScheme() + "://" + ClusterConfiguration.LOOPBACK + ":" + ports.gateway();
    }

    /**
     * Opens a session on the gateway through its REST API ({@link GatewayRestSession}), over HTTPS
     * with REST TLS.
     */
    public GatewayRestSession gatewayRestSession() {
        return GatewayRestSession.open(gatewayUrl(), sslContext());
    }

    /** The JDBC URL of the SQL Gateway: {@code jdbc:flink://127.0.0.1:<port>}. */
    public String jdbcUrl() {
        requireGateway();
        return "jdbc:flink://" + ClusterConfiguration.LOOPBACK + ":" + ports.gateway();
    }

    public Path workDir() {
        return spec.workDir();
    }

    public Path logFile(Role role) {
        return process(role).logFile();
    }

    /** The processes started, in start order. */
    public List<FlinkProcess> processes() {
        return List.copyOf(processes);
    }

    public FlinkProcess process(Role role) {
        return processes.stream()
                .filter(p -> p.role().equals(role))
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "No process " + role + " in this cluster: " + processes));
    }

    /** The pids of the processes started, in start order. */
    public List<Long> pids() {
        return processes.stream().map(FlinkProcess::pid).toList();
    }

    /**
     * Opens a JDBC session on the gateway; close it (try-with-resources). With REST TLS the driver
     * gets {@link RestTls#flinkOptions()} as connection properties: its REST client (Flink's own)
     * then speaks TLS and presents the certificate. They also become options of the gateway
     * session, as every connection property does.
     */
    public SqlSession sqlSession() {
        Properties properties = new Properties();
        if (spec.withRestTls()) {
            properties.putAll(spec.restTls().flinkOptions());
        }
        return SqlSession.open(jdbcUrl(), properties);
    }

    /**
     * Opens a JDBC session with {@code settings} set in it (e.g. {@code execution.target}); closed
     * if one fails.
     */
    public SqlSession sqlSession(Map<String, String> settings) {
        SqlSession session = sqlSession();
        try {
            session.set(settings);
            return session;
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * The base URL of the plugin's HTTP server in that process, from the process's log (waits up to
     * 30 s).
     */
    public String insightUrl(Role role) {
        return insightUrl(role, DEFAULT_INSIGHT_WAIT);
    }

    public String insightUrl(Role role, Duration timeout) {
        if (!spec.withPlugin()) {
            throw new IllegalStateException("This cluster was started without the Insight plugin");
        }
        String known = insightUrls.get(role);
        if (known != null) {
            return known;
        }
        FlinkProcess process = process(role);
        String url =
                Waits.until(
                        "the Insight HTTP server line in " + process.logFile(),
                        timeout,
                        Duration.ofMillis(200),
                        () -> {
                            Optional<Matcher> match =
                                    LogFiles.firstMatch(process.logFile(), INSIGHT_LISTENING);
                            if (match.isEmpty() && !process.isAlive()) {
                                throw new Waits.AbortException(role + " exited");
                            }
                            return match.map(
                                    m ->
                                            m.group("scheme")
                                                    + "://"
                                                    + m.group("host")
                                                    + ":"
                                                    + m.group("port"));
                        },
                        () -> process.describeTail(TAIL_LINES));
        insightUrls.put(role, url);
        return url;
    }

    /** GET a path of Flink's REST API (e.g. {@code /overview}) as JSON. */
    public JsonNode restGet(String path) {
        return rest.getJson(restUrl() + path);
    }

    /**
     * GET a path of the plugin's HTTP server in that process and return the body; fails on non-200.
     */
    public String insightGet(Role role, String path) {
        return rest.getString(insightUrl(role) + path);
    }

    /** The HTTP client the harness uses, for requests the helpers above don't cover. */
    public FlinkRestClient http() {
        return rest;
    }

    /** Uploads a job jar through REST and runs it; returns the job id. */
    public String submitJar(Path jar, String mainClass, List<String> args) {
        return runJar(uploadJar(jar), mainClass, args);
    }

    /** Uploads a job jar through {@code /jars/upload}; returns the jar id for {@link #runJar}. */
    public String uploadJar(Path jar) {
        JsonNode uploaded = rest.uploadFile(restUrl() + "/jars/upload", "jarfile", jar);
        String filename = uploaded.path("filename").asText("");
        if (filename.isEmpty()) {
            throw new IllegalStateException(
                    "Uploading " + jar + " answered without a file name: " + uploaded);
        }
        return Path.of(filename).getFileName().toString();
    }

    /** Runs an uploaded jar's main class through {@code /jars/:id/run}; returns the job id. */
    public String runJar(String jarId, String mainClass, List<String> args) {
        Map<String, Object> run = new HashMap<>();
        run.put("entryClass", mainClass);
        run.put("programArgsList", args);
        JsonNode answer = rest.postJson(restUrl() + "/jars/" + jarId + "/run", run);
        String jobId = answer.path("jobid").asText("");
        if (jobId.isEmpty()) {
            throw new IllegalStateException(
                    "Running jar " + jarId + " answered without a job id: " + answer);
        }
        return jobId;
    }

    /** The job's state as Flink's REST reports it, e.g. {@code RUNNING} or {@code FINISHED}. */
    public String jobState(String jobId) {
        return restGet("/jobs/" + jobId).path("state").asText();
    }

    /**
     * Waits until the job reaches {@code state}; fails early when it ends in another terminal
     * state.
     */
    public JsonNode awaitJobState(String jobId, String state, Duration timeout) {
        return Waits.until(
                "job " + jobId + " in state " + state,
                timeout,
                Duration.ofMillis(250),
                () -> {
                    JsonNode job = restGet("/jobs/" + jobId);
                    String current = job.path("state").asText();
                    if (current.equals(state)) {
                        return Optional.of(job);
                    }
                    if (List.of("FAILED", "CANCELED", "FINISHED").contains(current)) {
                        throw new Waits.AbortException("job is " + current);
                    }
                    return Optional.empty();
                },
                () -> diagnostics(List.of(Role.JOBMANAGER)));
    }

    /**
     * Kills that process with SIGKILL, as a crash would (no shutdown hook runs), and waits until it
     * is gone.
     */
    public void kill(Role role) {
        process(role).kill(STOP_GRACE);
        insightUrls.remove(role);
    }

    /**
     * Stops that process with SIGTERM, as an operator's restart would (Flink's shutdown hooks run),
     * and waits until it is gone (at most a minute, then SIGKILL and a failure).
     */
    public void stop(Role role) {
        process(role).terminate(Duration.ofMinutes(1));
        insightUrls.remove(role);
    }

    /**
     * Pauses that process with SIGSTOP, as a long GC pause or a frozen VM would; {@link #resume}
     * ends it.
     */
    public void pause(Role role) {
        process(role).pause();
    }

    /** Resumes a process {@link #pause paused} before (SIGCONT). */
    public void resume(Role role) {
        process(role).resume();
    }

    /**
     * Starts a new JobManager after {@link #kill}: same configuration, same ports. The old one's
     * log and out file are kept as {@code jobmanager-killed-<pid>.log/.out}. Waits until every
     * TaskManager registered again; they notice the old JobManager's loss after {@code
     * heartbeat.timeout}.
     */
    public void restartJobManager() {
        FlinkProcess old = process(Role.JOBMANAGER);
        if (old.isAlive()) {
            throw new IllegalStateException(
                    "The JobManager still runs (pid " + old.pid() + "): kill it first");
        }
        if (closed.get() || jobManagerStarter == null) {
            throw new IllegalStateException(
                    "This cluster is closed or was not started by the harness");
        }
        keepAside(old.logFile(), "jobmanager-killed-" + old.pid() + ".log");
        keepAside(old.outFile(), "jobmanager-killed-" + old.pid() + ".out");
        insightUrls.remove(Role.JOBMANAGER);
        FlinkProcess fresh = jobManagerStarter.get();
        processes.set(processes.indexOf(old), fresh);
        String url = restUrl() + "/taskmanagers";
        Waits.until(
                spec.taskManagers()
                        + " TaskManager(s) registered with the restarted JobManager at "
                        + url,
                spec.startTimeout(),
                Duration.ofMillis(250),
                () -> {
                    if (!fresh.isAlive()) {
                        throw new Waits.AbortException(
                                "the new JobManager exited with code " + fresh.exitCode());
                    }
                    int registered = rest.getJson(url).path("taskmanagers").size();
                    return registered >= spec.taskManagers()
                            ? Optional.of(registered)
                            : Optional.empty();
                },
                () -> diagnostics(List.of()));
    }

    /** How {@link ClusterStarter} starts a JobManager, for {@link #restartJobManager()}. */
    void jobManagerStarter(Supplier<FlinkProcess> starter) {
        this.jobManagerStarter = starter;
    }

    private static void keepAside(Path file, String newName) {
        try {
            if (Files.exists(file)) {
                Files.move(file, file.resolveSibling(newName));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot move " + file + " aside", e);
        }
    }

    /**
     * Tails of the logs of the given roles (or of all processes when empty), for error messages.
     */
    public String diagnostics(List<Role> roles) {
        StringBuilder text = new StringBuilder();
        for (FlinkProcess process : new ArrayList<>(processes)) {
            if (roles.isEmpty() || roles.contains(process.role())) {
                text.append(process.describeTail(TAIL_LINES)).append('\n');
            }
        }
        return text.toString();
    }

    /** Stops every process this cluster started; idempotent. Fails if one survived even SIGKILL. */
    @Override
    public void close() {
        List<Long> survivors = stopProcesses();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs or ran anyway.
        }
        if (!survivors.isEmpty()) {
            throw new IllegalStateException("Processes still alive after SIGKILL: " + survivors);
        }
    }

    private List<Long> stopProcesses() {
        if (!closed.compareAndSet(false, true)) {
            return List.of();
        }
        return FlinkProcess.stopAll(new ArrayList<>(processes), STOP_GRACE);
    }

    private void requireGateway() {
        if (!spec.sqlGateway()) {
            throw new IllegalStateException("This cluster was started without the SQL Gateway");
        }
    }
}
