package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.demo.DemoWorkload;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every port of the plugin's range is taken: one clear log line per process, and Flink runs queries
 * as usual.
 */
class PortRangeExhaustedITCase {

    @Test
    void flinkKeepsRunningAndTheLogNamesTheKeyAndTheRange() throws Exception {
        List<ServerSocket> taken = new ArrayList<>();
        try {
            // Two ports we hold ourselves, so nobody else can be listening there.
            ServerSocket first = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            taken.add(first);
            ServerSocket second =
                    new ServerSocket(
                            first.getLocalPort() + 1, 50, InetAddress.getLoopbackAddress());
            taken.add(second);
            String range = first.getLocalPort() + "-" + second.getLocalPort();
            try (LocalFlinkCluster cluster =
                    LocalFlinkCluster.builder()
                            .workDir(TestClusters.workDir("ports-taken"))
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
                assertThat(cluster.restGet("/overview").path("taskmanagers").asInt()).isEqualTo(1);
            }
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }
}
