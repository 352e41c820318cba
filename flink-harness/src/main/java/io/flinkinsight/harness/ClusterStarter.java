package io.flinkinsight.harness;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The start sequence of a {@link LocalFlinkCluster}: files, memory parameters, processes,
 * readiness.
 */
final class ClusterStarter {

    static final String PLUGIN_DIR_NAME = "insight";
    static final String ZOOKEEPER_DIR = "zookeeper";
    private static final Duration POLL = Duration.ofMillis(250);

    private final FlinkDistribution flink;
    private final ClusterSpec spec;

    ClusterStarter(FlinkDistribution flink, ClusterSpec spec) {
        this.flink = flink;
        this.spec = spec;
    }

    LocalFlinkCluster start() {
        Path work = spec.workDir();
        Path conf = work.resolve("conf");
        Path plugins = work.resolve("plugins");
        ClusterPorts ports = ClusterPorts.resolve(spec);
        writeFiles(work, conf, plugins, ports);

        ProcessLauncher launcher =
                new ProcessLauncher(
                        flink,
                        work,
                        conf,
                        plugins,
                        ClusterConfiguration.of(spec, ports),
                        spec.gatewayConfig());
        List<FlinkProcess> processes = new CopyOnWriteArrayList<>();
        LocalFlinkCluster cluster = new LocalFlinkCluster(spec, ports, processes);
        try {
            if (spec.zooKeeperHa()) {
                // first, so it starts while the memory parameters are computed; the JobManagers
                // need it at once
                processes.add(
                        launcher.startZooKeeper(
                                work.resolve(ZOOKEEPER_DIR).resolve("zoo.cfg"),
                                ZooKeeperConfiguration.jars()));
            }
            // Both computations are independent JVM starts: run them side by side.
            Process jmParams = launcher.startResourceParameters("GET_JM_RESOURCE_PARAMS");
            Process tmParams = launcher.startResourceParameters("GET_TM_RESOURCE_PARAMS");
            ResourceParameters jmMemory = launcher.await(jmParams, "GET_JM_RESOURCE_PARAMS");
            ResourceParameters tmMemory = launcher.await(tmParams, "GET_TM_RESOURCE_PARAMS");

            if (spec.zooKeeperHa()) {
                awaitZooKeeper(ports.zooKeeper(), processes, cluster);
            }
            // TaskManagers retry registering until the JobManager is up, so all start at once.
            for (int i = 0; i < spec.jobManagers(); i++) {
                processes.add(
                        launcher.startJobManager(
                                Role.jobManager(i), jmMemory, jobManagerPorts(ports, i)));
            }
            cluster.jobManagerStarter(
                    () ->
                            launcher.startJobManager(
                                    Role.JOBMANAGER, jmMemory, jobManagerPorts(ports, 0)));
            for (int i = 0; i < spec.taskManagers(); i++) {
                processes.add(launcher.startTaskManager(i, tmMemory));
            }
            if (spec.sqlGateway()) {
                processes.add(
                        launcher.startSqlGateway(
                                spec.gatewayHeap(), spec.gatewayClasspath(), spec.gatewayConfig()));
            }
            long deadline = System.nanoTime() + spec.startTimeout().toNanos();
            if (spec.zooKeeperHa()) {
                cluster.awaitLeadingJobManager(spec.startTimeout());
            }
            awaitTaskManagers(cluster, processes);
            if (spec.sqlGateway()) {
                awaitGateway(
                        cluster,
                        processes,
                        Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
            return cluster;
        } catch (RuntimeException | Error e) {
            try {
                cluster.close();
            } catch (RuntimeException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    /**
     * With HA, each JobManager's own ports go on its command line; config.yaml holds the first
     * one's.
     */
    private List<String> jobManagerPorts(ClusterPorts ports, int index) {
        return spec.zooKeeperHa() ? ports.jobManagerDynamicProperties(index, true) : List.of();
    }

    /** Until ZooKeeper answers the {@code srvr} command as a serving standalone server. */
    private void awaitZooKeeper(int port, List<FlinkProcess> processes, LocalFlinkCluster cluster) {
        Waits.until(
                "ZooKeeper on " + ClusterConfiguration.LOOPBACK + ":" + port,
                spec.startTimeout(),
                POLL,
                () -> {
                    abortIfAnyExited(processes);
                    try (Socket socket = new Socket()) {
                        socket.connect(
                                new InetSocketAddress(ClusterConfiguration.LOOPBACK, port), 1000);
                        socket.setSoTimeout(2000);
                        socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
                        socket.getOutputStream().flush();
                        String answer =
                                new String(
                                        socket.getInputStream().readNBytes(4096),
                                        StandardCharsets.UTF_8);
                        return answer.contains("Mode: standalone")
                                ? Optional.of(answer)
                                : Optional.empty();
                    }
                },
                () -> cluster.diagnostics(List.of(Role.ZOOKEEPER)));
    }

    private void awaitTaskManagers(LocalFlinkCluster cluster, List<FlinkProcess> processes) {
        String url = cluster.restUrl() + "/taskmanagers";
        Waits.until(
                spec.taskManagers() + " TaskManager(s) registered at " + url,
                spec.startTimeout(),
                POLL,
                () -> {
                    abortIfAnyExited(processes);
                    JsonNode answer = cluster.http().getJson(url);
                    int registered = answer.path("taskmanagers").size();
                    return registered >= spec.taskManagers()
                            ? Optional.of(registered)
                            : Optional.empty();
                },
                () -> cluster.diagnostics(List.of()));
    }

    private void awaitGateway(
            LocalFlinkCluster cluster, List<FlinkProcess> processes, Duration timeout) {
        String url = cluster.gatewayUrl() + "/v1/info";
        Waits.until(
                "the SQL Gateway at " + url,
                timeout,
                POLL,
                () -> {
                    abortIfAnyExited(processes);
                    return Optional.of(cluster.http().getJson(url));
                },
                () -> cluster.diagnostics(List.of(Role.SQL_GATEWAY)));
    }

    private static void abortIfAnyExited(List<FlinkProcess> processes) {
        for (FlinkProcess process : processes) {
            if (!process.isAlive()) {
                throw new Waits.AbortException(
                        process.role() + " exited with code " + process.exitCode());
            }
        }
    }

    private void writeFiles(Path work, Path conf, Path plugins, ClusterPorts ports) {
        try {
            Files.createDirectories(work);
            Files.createDirectories(work.resolve("tmp"));
            // HA state of an earlier run in this work dir would make the JobManagers recover its
            // jobs
            deleteRecursively(work.resolve(ZOOKEEPER_DIR));
            deleteRecursively(work.resolve(ClusterConfiguration.HA_STORAGE_DIR));
            // conf and plugins are rewritten on every start so a reused work dir never carries an
            // old plugin jar.
            deleteRecursively(conf);
            deleteRecursively(plugins);
            deleteOldLogs(work);
            Files.createDirectories(conf);
            Files.createDirectories(plugins);
            Files.writeString(
                    conf.resolve("config.yaml"),
                    ClusterConfiguration.toYaml(ClusterConfiguration.of(spec, ports)),
                    StandardCharsets.UTF_8);
            Files.writeString(
                    conf.resolve("log4j.properties"),
                    Log4jConfiguration.properties(),
                    StandardCharsets.UTF_8);
            if (spec.zooKeeperHa()) {
                Path zooKeeper = work.resolve(ZOOKEEPER_DIR);
                Files.createDirectories(zooKeeper.resolve("data"));
                Files.writeString(
                        zooKeeper.resolve("zoo.cfg"),
                        ZooKeeperConfiguration.zooCfg(zooKeeper.resolve("data"), ports.zooKeeper()),
                        StandardCharsets.UTF_8);
            }
            if (spec.withPlugin()) {
                installPlugin(spec.pluginJar(), plugins.resolve(PLUGIN_DIR_NAME));
            }
            for (Map.Entry<String, Path> other : spec.otherPlugins().entrySet()) {
                installPlugin(other.getValue(), plugins.resolve(other.getKey()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare " + work, e);
        }
    }

    /**
     * The jar is checked first: an empty {@code plugins/<name>/} folder makes every Flink process
     * fail.
     */
    private static void installPlugin(Path jar, Path pluginDir) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "Plugin jar "
                            + jar
                            + " does not exist. Build it with:"
                            + " mvn -pl metrics-plugin -DskipTests package"
                            + " (or mvn -pl flink-harness package for Flink's own reporters)");
        }
        Files.createDirectories(pluginDir);
        Files.copy(jar, pluginDir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    private static final java.util.regex.Pattern BIND_FAILURE =
            java.util.regex.Pattern.compile("java\\.net\\.BindException[^\\n]{0,200}");

    /**
     * The line of a failed start's logs that says a port was in use, when the harness picked any of
     * the ports (a fixed port in use is the caller's to fix, not a race to retry).
     */
    static Optional<String> lostPortRace(ClusterSpec spec) {
        if (spec.restPort() != 0 && spec.rpcPort() != 0 && spec.gatewayPort() != 0) {
            return Optional.empty();
        }
        try (var files = Files.list(spec.workDir())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".log") || name.endsWith(".out")) {
                    Optional<java.util.regex.Matcher> bind =
                            LogFiles.firstMatch(file, BIND_FAILURE);
                    if (bind.isPresent()) {
                        return Optional.of(name + ": " + bind.get().group());
                    }
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * Logs are appended to (see {@link Log4jConfiguration}), so a reused work dir starts with none.
     */
    private static void deleteOldLogs(Path work) throws IOException {
        try (var files = Files.list(work)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (Files.isRegularFile(file)
                        && (name.endsWith(".log")
                                || name.endsWith(".log.1")
                                || name.endsWith(".out"))) {
                    Files.delete(file);
                }
            }
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(
                root,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                            throws IOException {
                        Files.delete(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException exc)
                            throws IOException {
                        Files.delete(dir);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }
}
