package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.GatewaySession;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.Waits;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's SQL, reusable by the integration tests: a keyed streaming aggregation that checkpoints
 * with RocksDB incremental checkpoints every 2 s, and three short queries (source, wordcount, join
 * on 1-row tables) of the kind whose time goes mostly to Flink's client rather than to their job.
 */
public final class DemoWorkload {

    /** The streaming job's name in Flink's REST API. */
    public static final String STREAMING_JOB_NAME = "insight-demo-keyed-aggregation";

    /** Rows per second of the streaming source; the key space is {@value #KEYS} keys. */
    public static final int ROWS_PER_SECOND = 2000;

    public static final int KEYS = 100_000;

    private DemoWorkload() {}

    /**
     * Session options of the streaming job. They are job-level options (since Flink 1.20), so they
     * apply to this job only and not to the short queries; tests may also pass them to the cluster
     * with {@code config(...)}.
     */
    public static Map<String, String> streamingJobSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("execution.runtime-mode", "streaming");
        settings.put("pipeline.name", STREAMING_JOB_NAME);
        settings.put("state.backend.type", "rocksdb");
        settings.put("execution.checkpointing.incremental", "true");
        settings.put("execution.checkpointing.interval", "2 s");
        // Latency markers every second, so per-operator latency metrics exist.
        settings.put("metrics.latency.interval", "1000");
        return settings;
    }

    /** The tables and the INSERT of the streaming job, in order. */
    public static List<String> streamingJobStatements() {
        return List.of(
                "CREATE TEMPORARY TABLE datagen_src (k BIGINT, v BIGINT) WITH ("
                        + "'connector' = 'datagen', "
                        + "'rows-per-second' = '"
                        + ROWS_PER_SECOND
                        + "', "
                        + "'fields.k.kind' = 'random', 'fields.k.min' = '1', 'fields.k.max' = '"
                        + KEYS
                        + "', "
                        + "'fields.v.kind' = 'random', 'fields.v.min' = '0', 'fields.v.max' = '1000')",
                "CREATE TEMPORARY TABLE blackhole_sink (k BIGINT, cnt BIGINT, total BIGINT) WITH ("
                        + "'connector' = 'blackhole')",
                "INSERT INTO blackhole_sink SELECT k, COUNT(*), SUM(v) FROM datagen_src GROUP BY k");
    }

    /**
     * Session options of the short queries: batch mode, as Flink's OLAP quickstart recommends, so
     * each query is a bounded job that returns insert-only rows through JDBC.
     */
    public static Map<String, String> shortQuerySettings() {
        return Map.of("execution.runtime-mode", "batch");
    }

    /** The short queries' three 1-row datagen tables. */
    public static List<String> shortQueryTables() {
        return List.of(
                oneRowTable("table1", "val1"),
                oneRowTable("table2", "val2"),
                oneRowTable("table3", "val3"));
    }

    /** The short queries, each answering one row over its 1-row tables: source, wordcount, join. */
    public static List<String> shortQueries() {
        return List.of(
                "SELECT val1 FROM table1",
                "SELECT val1, COUNT(*) FROM table1 GROUP BY val1",
                "SELECT val1, COUNT(*) FROM table1 LEFT JOIN table2 ON val1 = val2 LEFT JOIN table3 ON val2 = val3"
                        + " GROUP BY val1");
    }

    /** Prepares a session (JDBC or the gateway's REST API) for {@link #shortQueries()}. */
    public static void prepareShortQueries(GatewaySession session) {
        session.set(shortQuerySettings());
        shortQueryTables().forEach(session::execute);
    }

    /**
     * Submits the streaming job through the session and returns its job id once Flink reports it
     * RUNNING. The session must stay open as long as the caller wants to talk about the job's
     * temporary tables.
     */
    public static String startStreamingJob(
            LocalFlinkCluster cluster, SqlSession session, Duration timeout) {
        session.set(streamingJobSettings());
        streamingJobStatements().forEach(session::execute);
        return awaitRunning(cluster, STREAMING_JOB_NAME, timeout);
    }

    /**
     * The id of the job named {@code name} once Flink reports it RUNNING; fails fast when it ended
     * instead.
     */
    static String awaitRunning(LocalFlinkCluster cluster, String name, Duration timeout) {
        return Waits.until(
                "job " + name + " RUNNING",
                timeout,
                Duration.ofMillis(250),
                () -> {
                    for (JsonNode job : cluster.restGet("/jobs/overview").path("jobs")) {
                        if (name.equals(job.path("name").asText())) {
                            String state = job.path("state").asText();
                            if ("RUNNING".equals(state)) {
                                return Optional.of(job.path("jid").asText());
                            }
                            if (List.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                                throw new Waits.AbortException("the job is " + state);
                            }
                        }
                    }
                    return Optional.empty();
                },
                () -> cluster.diagnostics(List.of()));
    }

    private static String oneRowTable(String name, String column) {
        return "CREATE TEMPORARY TABLE "
                + name
                + " ("
                + column
                + " STRING) WITH ("
                + "'connector' = 'datagen', 'number-of-rows' = '1')";
    }
}
