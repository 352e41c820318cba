package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.LogLines;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Block;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GatewayClient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.flinkinsight.harness.bench.InteractiveQueryBenchmark.GATEWAY_CPU;
import static io.flinkinsight.harness.bench.InteractiveQueryBenchmark.JM_CPU;
import static io.flinkinsight.harness.bench.InteractiveQueryBenchmark.JM_STANDBY_CPU;
import static io.flinkinsight.harness.bench.InteractiveQueryBenchmark.TM_CPU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class InteractiveReportTest {

    @TempDir Path dir;

    /** A block of {@code queries} queries of 100 ms over 10 s with the given CPU seconds. */
    private static Block block(
            Client client, int round, int queries, double gateway, double jm, double tm) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        cpu.put(JM_CPU, jm);
        cpu.put(JM_STANDBY_CPU, 0.1);
        cpu.put(TM_CPU, tm);
        cpu.put(GATEWAY_CPU, gateway);
        cpu.put(InteractiveQueryBenchmark.DRIVER_CPU, 1.0);
        return new Block(
                GatewayClient.REST,
                client,
                1,
                "source",
                round,
                Collections.nCopies(queries, 100.0),
                0,
                10.0,
                Collections.nCopies(queries, 50.0),
                List.of(),
                List.of(),
                cpu,
                new LogLines.Counts(round, 2 * round),
                new LogLines.Counts(0, round));
    }

    private InteractiveReport report(String cluster) throws Exception {
        Path jar = Files.createFile(dir.resolve("client.jar"));
        InteractiveBenchOptions options =
                InteractiveBenchOptions.parse(
                        "--client-jar",
                        jar.toString(),
                        "--gateway-clients",
                        "rest",
                        "--concurrency",
                        "1",
                        "--queries",
                        "source",
                        "--cluster",
                        cluster);
        return new InteractiveReport(
                List.of(
                        // stock: 100 queries, gateway 10 s, JM 5 s, TM 2 s over two rounds
                        block(Client.STOCK, 1, 40, 4, 2, 1),
                        block(Client.STOCK, 2, 60, 6, 3, 1),
                        // interactive: 200 queries, gateway 8 s, JM 6 s, TM 4 s
                        block(Client.INTERACTIVE, 1, 100, 4, 3, 2),
                        block(Client.INTERACTIVE, 2, 100, 4, 3, 2)),
                options,
                "test machine");
    }

    @Test
    void cpuPerQueryIsTheCpuOfAllRoundsOverTheirQueries() throws Exception {
        InteractiveReport report = report("olap");
        InteractiveReport.Cell stock = report.cell(GatewayClient.REST, 1, "source", Client.STOCK);
        InteractiveReport.Cell fast =
                report.cell(GatewayClient.REST, 1, "source", Client.INTERACTIVE);

        assertThat(stock.cpuPerQuery(GATEWAY_CPU)).isCloseTo(0.1, within(1e-9));
        assertThat(fast.cpuPerQuery(GATEWAY_CPU)).isCloseTo(0.04, within(1e-9));
        assertThat(InteractiveReport.cpuPerQueryRatio(stock, fast, GATEWAY_CPU))
                .isCloseTo(0.4, within(1e-9));
        assertThat(InteractiveReport.cpuPerQueryRatio(stock, fast, JM_CPU))
                .isCloseTo(0.6, within(1e-9));
        assertThat(InteractiveReport.cpuPerQueryRatio(stock, fast, TM_CPU))
                .isCloseTo(1.0, within(1e-9));
        // % of a core over the pooled 20 s
        assertThat(stock.jmCpu()).isCloseTo(25, within(1e-9));
        // the JobManager's log lines of rounds 1 and 2: 1 + 2 ERROR, 2 + 4 WARN
        assertThat(stock.jobManagerLogLines()).isEqualTo(new LogLines.Counts(3, 6));
        assertThat(stock.gatewayLogLines()).isEqualTo(new LogLines.Counts(0, 3));
        assertThat(report.markdown()).contains("| 3 / 6 | 0 / 3 |");
    }

    @Test
    void theReportHasCpuPerQueryRowsAndTheTargets() throws Exception {
        String md = report("olap").markdown();

        assertThat(md).contains("Cluster profile `olap`");
        // gateway 100.0 / 40.0 ms, JM 50.0 / 30.0 ms, standby 2.0 / 1.0 ms, TM 20.0 / 20.0 ms
        assertThat(md)
                .contains(
                        "| rest | 1 | source | 100.0 | 40.0 | 0.40 | 50.0 | 30.0 | 0.60 | 2.0 | 1.0 |"
                                + " 20.0 | 20.0 | 1.00 |");
        assertThat(md).contains("JM standby, stock");
        // p50 100 / 100 ms: not met; the CPU targets met
        assertThat(md)
                .contains(
                        "| rest | 1 | source | 1.00 | 0% | 2.00 | 0.40 | 0.60 | p50 ≤ 0.6× not met;"
                                + " gateway CPU ≤ 0.6× met; JM CPU ≤ 0.8× met |");
    }

    @Test
    void onThePlainClusterTheSpeedTargetsAreForOrientation() throws Exception {
        String md = report("plain").markdown();

        assertThat(md).contains("Cluster profile `plain`", "streaming mode");
        assertThat(md).contains("p50 ≤ 0.6× not met (orientation); gateway CPU ≤ 0.6× met");
    }
}
