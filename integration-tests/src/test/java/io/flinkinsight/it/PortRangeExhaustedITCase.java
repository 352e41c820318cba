package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.demo.DemoWorkload;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every port of the plugin's range is taken, and the hub's {@code stores.dir} cannot be written (a
 * file stands where its parent directory should be; the tests run as root, for whom permissions do
 * not forbid): one clear log line for each, and Flink runs queries as usual.
 */
class PortRangeExhaustedITCase {

    @Test
    void flinkKeepsRunningAndTheLogNamesTheKeyAndTheRange() throws Exception {
        List<ServerSocket> taken = new ArrayList<>();
        try {
            // Two ports we hold ourselves, so nobody else can be listening there.
            String range = holdTwoAdjacentPorts(taken);
            Path notADirectory =
                    Files.writeString(
                            TestClusters.workDir("stores-dir-blocked").resolve("file"), "x");
            try (LocalFlinkCluster cluster =
                    LocalFlinkCluster.builder()
                            .workDir(TestClusters.workDir("ports-taken"))
                            .config(
                                    "metrics.reporter.insight.stores.dir",
                                    notADirectory.toUri() + "/stores")
                            .config("metrics.reporter.insight.stores.dir.write-interval", "1 s")
                            .pluginJar(TestClusters.pluginJar())
                            .insightPortRange(range)
                            .sqlGateway(true)
                            .start()) {
                try (SqlSession session = cluster.sqlSession()) {
                    DemoWorkload.prepareShortQueries(session);
                    assertThat(session.query(DemoWorkload.shortQueries().get(1))).hasSize(1);
                }
                for (Role role : List.of(Role.JOBMANAGER, Role.TASKMANAGER)) {
                    String log = Files.readString(cluster.logFile(role));
                    assertThat(log)
                            .as("%s log", role)
                            .contains("metrics.reporter.insight.port")
                            .contains(range)
                            .doesNotContain("Flink Insight HTTP server listening on");
                }
                Thread.sleep(3_000); // writes every second: all fail
                List<String> storesDirLines =
                        Files.readAllLines(cluster.logFile(Role.JOBMANAGER)).stream()
                                .filter(l -> l.contains("could not write its stores"))
                                .toList();
                assertThat(storesDirLines).as("lines on stores.dir's failed writes").hasSize(1);
                assertThat(storesDirLines.get(0))
                        .contains(notADirectory.toUri().toString())
                        .contains("keeps them in memory");
                assertThat(cluster.restGet("/overview").path("taskmanagers").asInt()).isEqualTo(1);
            }
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }

    /**
     * Binds two adjacent loopback ports and returns them as a range. The port after an ephemeral
     * one can belong to another process (a CI run met that), so a few pairs are tried.
     */
    private static String holdTwoAdjacentPorts(List<ServerSocket> taken) throws IOException {
        for (int attempt = 1; attempt <= 20; attempt++) {
            ServerSocket first = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            if (first.getLocalPort() == 65535) {
                first.close();
                continue;
            }
            try {
                ServerSocket second =
                        new ServerSocket(
                                first.getLocalPort() + 1, 50, InetAddress.getLoopbackAddress());
                taken.add(first);
                taken.add(second);
                return first.getLocalPort() + "-" + second.getLocalPort();
            } catch (BindException e) {
                first.close();
            }
        }
        throw new BindException("no two adjacent free loopback ports in 20 tries");
    }
}
