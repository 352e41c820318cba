package io.flinkinsight.harness;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LocalFlinkClusterITCase {

    private static Path workDir(String name) {
        return Path.of(System.getProperty("insight.work", "target/clusters"))
                .resolve(name + "-" + System.currentTimeMillis());
    }

    @Test
    void clusterWithoutPluginRunsSqlThroughTheGatewayAndLeavesNoProcessBehind() throws Exception {
        List<Long> pids;
        Path work = workDir("no-plugin");
        try (LocalFlinkCluster cluster =
                LocalFlinkCluster.builder()
                        .workDir(work)
                        .taskManagers(1)
                        .slotsPerTaskManager(2)
                        .sqlGateway(true)
                        .start()) {
            pids = cluster.pids();
            assertThat(pids).hasSize(3);

            JsonNode overview = cluster.restGet("/overview");
            assertThat(overview.path("taskmanagers").asInt()).isEqualTo(1);
            assertThat(overview.path("slots-total").asInt()).isEqualTo(2);

            try (SqlSession sql = cluster.sqlSession()) {
                List<List<Object>> rows = sql.query("SELECT 1");
                assertThat(rows).hasSize(1);
                assertThat(((Number) rows.get(0).get(0)).intValue()).isEqualTo(1);
            }

            for (Role role : List.of(Role.JOBMANAGER, Role.TASKMANAGER, Role.SQL_GATEWAY)) {
                assertThat(cluster.logFile(role))
                        .isEqualTo(work.resolve(role.logFileName()).toAbsolutePath());
                assertThat(Files.size(cluster.logFile(role))).isPositive();
            }
            assertThat(work.resolve("plugins")).isEmptyDirectory();
        }

        for (long pid : pids) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            assertThat(handle.map(ProcessHandle::isAlive).orElse(false))
                    .as("pid %d alive", pid)
                    .isFalse();
        }
    }
}
