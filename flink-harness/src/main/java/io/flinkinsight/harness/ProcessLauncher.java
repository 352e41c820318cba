package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts Flink JVMs of one cluster with its classpath, conf dir, plugins dir, log file and Java 17
 * flags.
 */
final class ProcessLauncher {

    static final String JOBMANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String TASKMANAGER_MAIN =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    static final String SQL_GATEWAY_MAIN = "org.apache.flink.table.gateway.SqlGateway";
    static final String ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
    static final String BASH_JAVA_UTILS_MAIN = "org.apache.flink.runtime.util.bash.BashJavaUtils";

    private static final Duration BASH_JAVA_UTILS_TIMEOUT = Duration.ofSeconds(60);

    private final FlinkDistribution distribution;
    private final Path workDir;
    private final Path confDir;
    private final Path pluginsDir;
    private final Map<String, String> config;
    private final Map<String, String> gatewayConfig;

    /**
     * {@code config}: the cluster's options, {@code gatewayConfig} the gateway's own on top; their
     * {@code env.java.opts.*} go on the JVMs' command lines ({@link JvmOptions#fromConfig}).
     */
    ProcessLauncher(
            FlinkDistribution distribution,
            Path workDir,
            Path confDir,
            Path pluginsDir,
            Map<String, String> config,
            Map<String, String> gatewayConfig) {
        this.distribution = distribution;
        this.workDir = workDir;
        this.confDir = confDir;
        this.pluginsDir = pluginsDir;
        this.config = Map.copyOf(config);
        this.gatewayConfig = Map.copyOf(gatewayConfig);
    }

    /**
     * Starts BashJavaUtils with {@code GET_TM_RESOURCE_PARAMS} or {@code GET_JM_RESOURCE_PARAMS};
     * see {@link #await}.
     */
    Process startResourceParameters(String command) {
        List<String> cmd = new ArrayList<>(List.of(JvmOptions.javaExecutable(), "-Xmx256m"));
        cmd.addAll(
                List.of(
                        "-cp",
                        distribution.classpath(List.of()),
                        BASH_JAVA_UTILS_MAIN,
                        command,
                        "--configDir",
                        confDir.toString()));
        // Output goes to a file, not a pipe: nobody has to drain it while the process runs.
        return start(cmd, workDir.resolve("bash-java-utils-" + command + ".out"));
    }

    /** Waits (bounded) for a BashJavaUtils process and parses its result lines. */
    ResourceParameters await(Process process, String command) {
        Path out = workDir.resolve("bash-java-utils-" + command + ".out");
        try {
            if (!process.waitFor(BASH_JAVA_UTILS_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "BashJavaUtils "
                                + command
                                + " did not finish in "
                                + BASH_JAVA_UTILS_TIMEOUT
                                + ":\n"
                                + LogFiles.tail(out, 40));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "BashJavaUtils "
                                + command
                                + " exited with "
                                + process.exitValue()
                                + ":\n"
                                + LogFiles.tail(out, 40));
            }
            return ResourceParameters.parse(Files.readAllLines(out, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while computing " + command, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The JobManager {@code role} with {@code ports} ({@code -D} options that win over
     * config.yaml).
     */
    FlinkProcess startJobManager(Role role, ResourceParameters memory, List<String> ports) {
        // Flink 2.x's entrypoint parser stops at the first option it does not know
        // (--executionMode), so the ports
        // go before it, or they would be ignored
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(ports);
        args.addAll(List.of("--executionMode", "cluster"));
        args.addAll(memory.dynamicProperties());
        return startFlink(role, memory.jvmFlags(), JOBMANAGER_MAIN, args, List.of());
    }

    /**
     * A ZooKeeper server ({@code ZooKeeperServerMain}) with {@code zooCfg}: ZooKeeper's jars from
     * harness.properties and, from the Flink lib, the slf4j, log4j and snappy jars it needs, so it
     * logs like the Flink processes.
     */
    FlinkProcess startZooKeeper(Path zooCfg, List<Path> zooKeeperJars) {
        List<Path> classpath = new ArrayList<>(zooKeeperJars);
        for (Path jar : distribution.jars()) {
            String name = jar.getFileName().toString();
            if (name.startsWith("slf4j-api-")
                    || name.startsWith("log4j-")
                    || name.startsWith("snappy-java-")) {
                classpath.add(jar);
            }
        }
        Role role = Role.ZOOKEEPER;
        Path logFile = workDir.resolve(role.logFileName());
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                JvmOptions.javaExecutable(),
                                "-Xmx128m",
                                // no Jetty on the class path: the admin server would only log that
                                // it cannot start
                                "-Dzookeeper.admin.enableServer=false",
                                "-D" + Log4jConfiguration.LOG_FILE_PROPERTY + "=" + logFile,
                                "-Dlog4j.configurationFile="
                                        + confDir.resolve("log4j.properties").toUri(),
                                "-Djava.io.tmpdir=" + workDir.resolve("tmp"),
                                "-cp",
                                classpath.stream()
                                        .map(Path::toString)
                                        .collect(Collectors.joining(java.io.File.pathSeparator)),
                                ZOOKEEPER_MAIN,
                                zooCfg.toString()));
        return new FlinkProcess(
                role,
                start(cmd, workDir.resolve(role.outFileName())),
                logFile,
                workDir.resolve(role.outFileName()));
    }

    FlinkProcess startTaskManager(int index, ResourceParameters memory) {
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(memory.dynamicProperties());
        return startFlink(
                Role.taskManager(index), memory.jvmFlags(), TASKMANAGER_MAIN, args, List.of());
    }

    /**
     * The gateway reads its configuration from {@code FLINK_CONF_DIR}, set for every process;
     * {@code dynamicConfig} goes on its command line as {@code -Dkey=value}, as {@code
     * sql-gateway.sh start -Dkey=value} does.
     */
    FlinkProcess startSqlGateway(
            String heap, List<Path> extraClasspath, Map<String, String> dynamicConfig) {
        List<String> args = new ArrayList<>();
        dynamicConfig.forEach((key, value) -> args.add("-D" + key + "=" + value));
        return startFlink(
                Role.SQL_GATEWAY,
                List.of("-Xmx" + heap, "-Xms128m"),
                SQL_GATEWAY_MAIN,
                args,
                extraClasspath);
    }

    private FlinkProcess startFlink(
            Role role,
            List<String> memoryFlags,
            String mainClass,
            List<String> args,
            List<Path> extraClasspath) {
        Path logFile = workDir.resolve(role.logFileName());
        Path outFile = workDir.resolve(role.outFileName());
        List<String> cmd = new ArrayList<>();
        cmd.add(JvmOptions.javaExecutable());
        cmd.addAll(memoryFlags);
        cmd.addAll(JvmOptions.JAVA_17_MODULE_FLAGS);
        Map<String, String> options = config;
        if (role.equals(Role.SQL_GATEWAY)) {
            options = new java.util.HashMap<>(config);
            options.putAll(gatewayConfig);
        }
        cmd.addAll(JvmOptions.fromConfig(options, role.name()));
        cmd.add("-D" + Log4jConfiguration.LOG_FILE_PROPERTY + "=" + logFile);
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-Djava.io.tmpdir=" + workDir.resolve("tmp"));
        cmd.add("-cp");
        cmd.add(distribution.classpath(extraClasspath));
        cmd.add(mainClass);
        cmd.addAll(args);
        return new FlinkProcess(role, start(cmd, outFile), logFile, outFile);
    }

    private Process start(List<String> cmd, Path outFile) {
        ProcessBuilder builder = new ProcessBuilder(cmd).directory(workDir.toFile());
        builder.redirectErrorStream(true);
        builder.redirectOutput(outFile.toFile());
        builder.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        Map<String, String> env = builder.environment();
        // What Flink's config.sh exports; values the caller's shell may carry would point at
        // another Flink.
        env.put("FLINK_CONF_DIR", confDir.toString());
        env.put("FLINK_PLUGINS_DIR", pluginsDir.toString());
        env.put("FLINK_LIB_DIR", distribution.libDir().toString());
        env.put("FLINK_LOG_DIR", workDir.toString());
        env.remove("FLINK_ENV_JAVA_OPTS");
        env.remove("HADOOP_CLASSPATH");
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot start " + String.join(" ", cmd.subList(0, 1)), e);
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(
                System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
