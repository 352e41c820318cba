package io.flinkinsight.client;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;

import org.apache.flink.traces.slf4j.Slf4jTraceReporterFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Query results through the executor: the built jar on a real SQL Gateway's classpath (as if in its
 * lib/; JobManager, TaskManager and gateway as separate JVMs on 127.0.0.1), driven over JDBC with
 * {@code execution.target: remote-interactive}. Three short queries over 1-row tables (a scan, a
 * count, and a count over two LEFT JOINs) return their rows in streaming mode, queries return
 * exactly their rows in batch mode, and sequential queries return the same rows with the stock
 * client and this one (the gateway's figures checked too when the plugin jar is built). What the
 * client does beyond results (its figures as the hub sees them, reuse, the cap on queries, cluster
 * actions such as STOP JOB, errors for bad options) is integration-tests'
 * InteractiveClientOnInsightClusterITCase.
 */
class SqlGatewayQueryResultsITCase {

    private static final String INSIGHT_PORTS = "19300-19320";
    private static final int LATENCY_SAMPLES = 30;

    private static LocalFlinkCluster cluster;
    private static boolean withPlugin;

    @BeforeAll
    static void startCluster() throws Exception {
        Path clientJar =
                Path.of(System.getProperty("insight.client.jar", "target/interactive-client.jar"));
        assertThat(clientJar).as("the built interactive-client jar (run the build first)").exists();
        Path pluginJar =
                Path.of(
                        System.getProperty(
                                "insight.plugin.jar",
                                "../metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar"));
        withPlugin = Files.exists(pluginJar);
        Path work = Path.of(System.getProperty("insight.work", "target/clusters"));
        Files.createDirectories(work);
        cluster =
                LocalFlinkCluster.builder()
                        .workDir(Files.createTempDirectory(work, "interactive-"))
                        .pluginJar(withPlugin ? pluginJar : null)
                        .insightPortRange(INSIGHT_PORTS)
                        .sqlGateway(true)
                        .gatewayClasspath(clientJar)
                        // Flink's own trace reporter beside the plugin's: the query spans reach
                        // both
                        .gatewayClasspath(jarOf(Slf4jTraceReporterFactory.class))
                        .gatewayConfig(
                                "traces.reporter.slf4j.factory.class",
                                Slf4jTraceReporterFactory.class.getName())
                        .slotsPerTaskManager(4)
                        .start();
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * Each query the client ran reaches Flink's Slf4j trace reporter in the gateway as one span,
     * its statement normalized: a literal of the query never reaches the span.
     */
    @Test
    void everyQueryReachesAnotherTraceReporterAsASpanWithoutItsLiterals() throws Exception {
        Path gatewayLog = cluster.logFile(Role.SQL_GATEWAY);
        try (SqlSession session = interactiveSession()) {
            session.execute(sequenceTable("spans", "v", 3));
            assertThat(session.query("SELECT v FROM spans WHERE v <> 'private-literal-4711'"))
                    .hasSize(3);
        }
        Pattern querySpan =
                Pattern.compile(
                        "Reported span: .*" + Pattern.quote("QueryTimeline") + ".*FROM.*spans.*");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        List<String> spans = List.of();
        while (spans.isEmpty() && System.nanoTime() - deadline < 0) {
            spans =
                    Files.readAllLines(gatewayLog).stream()
                            .filter(line -> querySpan.matcher(line).find())
                            .toList();
            if (spans.isEmpty()) {
                Thread.sleep(200);
            }
        }
        assertThat(spans).as("Query spans in %s", gatewayLog).hasSize(1);
        assertThat(spans.get(0))
                .contains("outcome=SUCCEEDED")
                .contains("statementId=")
                .contains("jobId=")
                .contains("?")
                .doesNotContain("private-literal-4711");
        if (withPlugin) {
            // the plugin's trace reporter in the gateway kept the span as a statement
            String statements =
                    cluster.insightGet(Role.SQL_GATEWAY, "/api/v1/statements?sort=calls");
            assertThat(statements)
                    .contains("`spans`.`v`")
                    .contains("\"calls\":1")
                    .doesNotContain("private-literal-4711");
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static SqlSession interactiveSession() {
        return cluster.sqlSession(Map.of("execution.target", "remote-interactive"));
    }

    /**
     * A table whose single STRING column counts from 1 to {@code rows}, so results are known in
     * advance.
     */
    private static String sequenceTable(String name, String column, int rows) {
        return "CREATE TEMPORARY TABLE "
                + name
                + " ("
                + column
                + " STRING) WITH ('connector' = 'datagen',"
                + " 'number-of-rows' = '"
                + rows
                + "', 'fields."
                + column
                + ".kind' = 'sequence',"
                + " 'fields."
                + column
                + ".start' = '1', 'fields."
                + column
                + ".end' = '"
                + rows
                + "')";
    }

    private static void createOneRowTables(SqlSession session) {
        session.execute(sequenceTable("table1", "val1", 1));
        session.execute(sequenceTable("table2", "val2", 1));
        session.execute(sequenceTable("table3", "val3", 1));
    }

    @Test
    void shortQueriesReturnTheirRowsInStreamingMode() {
        try (SqlSession session = interactiveSession()) {
            // three 1-row tables of one random value each, so the LEFT JOINs find no partner and
            // nothing is retracted
            for (String table : List.of("table1 (val1", "table2 (val2", "table3 (val3")) {
                session.execute(
                        "CREATE TEMPORARY TABLE "
                                + table
                                + " STRING) WITH ('connector' = 'datagen',"
                                + " 'number-of-rows' = '1')");
            }
            for (int i = 0; i < 3; i++) {
                assertThat(session.query("SELECT val1 FROM table1")).hasSize(1);
                assertThat(session.query("SELECT val1, COUNT(*) FROM table1 GROUP BY val1"))
                        .singleElement()
                        .satisfies(row -> assertThat(row.get(1)).isEqualTo(1L));
                assertThat(
                                session.query(
                                        "SELECT val1, COUNT(*) FROM table1 LEFT JOIN table2 ON val1 = val2"
                                                + " LEFT JOIN table3 ON val2 = val3 GROUP BY val1"))
                        .singleElement()
                        .satisfies(row -> assertThat(row.get(1)).isEqualTo(1L));
            }
        }
    }

    @Test
    void queriesReturnExactlyTheirRowsInBatchMode() {
        try (SqlSession session = interactiveSession()) {
            session.execute("SET 'execution.runtime-mode' = 'batch'");
            createOneRowTables(session);
            session.execute(sequenceTable("many", "v", 50));

            assertThat(session.query("SELECT val1 FROM table1")).containsExactly(List.of("1"));
            assertThat(session.query("SELECT val1, COUNT(*) FROM table1 GROUP BY val1"))
                    .containsExactly(List.of("1", 1L));
            assertThat(
                            session.query(
                                    "SELECT val1, COUNT(*) FROM table1 LEFT JOIN table2 ON val1 = val2"
                                            + " LEFT JOIN table3 ON val2 = val3 GROUP BY val1"))
                    .containsExactly(List.of("1", 1L));
            List<String> many = new ArrayList<>();
            session.query("SELECT v FROM many").forEach(row -> many.add((String) row.get(0)));
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 50; i++) {
                expected.add(Integer.toString(i));
            }
            assertThat(many).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * Not a benchmark (see flink-harness's InteractiveQueryBenchmark): the same sequential source
     * query with the stock client and with this one, printed for the record. Only the rows are
     * asserted.
     */
    @Test
    void sequentialQueriesWithBothClients() {
        List<Double> stock = timeSourceQueries("remote");
        List<Double> interactive = timeSourceQueries("remote-interactive");
        System.out.printf(
                Locale.ROOT,
                "%d sequential source queries, JDBC E2E median: stock %.1f ms,"
                        + " interactive %.1f ms%n",
                LATENCY_SAMPLES,
                median(stock),
                median(interactive));
        if (withPlugin) {
            String metrics = cluster.insightGet(Role.SQL_GATEWAY, "/metrics");
            assertThat(counter(metrics, "flink_insight_client_queries_succeeded"))
                    .as("queries counted by the gateway's own reporter")
                    .isGreaterThanOrEqualTo(LATENCY_SAMPLES);
            assertThat(counter(metrics, "flink_insight_client_pool_hits")).isGreaterThan(0);
            System.out.println("Gateway figures:\n" + grep(metrics, "flink_insight_client_"));
        }
    }

    private static List<Double> timeSourceQueries(String target) {
        List<Double> millis = new ArrayList<>();
        try (SqlSession session = cluster.sqlSession(Map.of("execution.target", target))) {
            createOneRowTables(session);
            for (int i = 0; i < LATENCY_SAMPLES + 5; i++) {
                long start = System.nanoTime();
                assertThat(session.query("SELECT val1 FROM table1")).containsExactly(List.of("1"));
                if (i >= 5) {
                    millis.add((System.nanoTime() - start) / 1e6);
                }
            }
        }
        return millis;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static double counter(String exposition, String family) {
        double sum = 0;
        Matcher m =
                Pattern.compile("(?m)^" + family + "(?:_total)?(?:\\{[^}]*})? ([0-9.eE+-]+)$")
                        .matcher(exposition);
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    private static String grep(String text, String prefix) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }
}
