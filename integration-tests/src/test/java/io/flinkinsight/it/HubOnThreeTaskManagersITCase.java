package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.Waits;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A production-shaped cluster (three TaskManagers): the hub on the JobManager reads every
 * TaskManager's figures through Flink's REST API, each under its own {@code tm_id}, with no
 * TaskManager listed by the user.
 */
class HubOnThreeTaskManagersITCase {

    private static final int TASK_MANAGERS = 3;
    private static final List<String> TM_SERIES =
            List.of(
                    "insight_taskmanager_cpu_load",
                    "insight_taskmanager_heap_used_bytes",
                    "insight_taskmanager_heap_max_bytes");

    @Test
    void everyTaskManagersFiguresReachTheHub() throws Exception {
        try (LocalFlinkCluster cluster =
                TestClusters.withPlugin("hub-three-taskmanagers")
                        .sqlGateway(false)
                        .taskManagers(TASK_MANAGERS)
                        .config("metrics.reporter.insight.hub.poll-interval", "1 s")
                        .start()) {
            Set<String> flinkIds =
                    Waits.until(
                            TASK_MANAGERS + " TaskManagers registered",
                            Duration.ofSeconds(60),
                            Duration.ofSeconds(1),
                            () -> {
                                Set<String> ids = new TreeSet<>();
                                cluster.restGet("/taskmanagers")
                                        .path("taskmanagers")
                                        .forEach(tm -> ids.add(tm.path("id").asText()));
                                return ids.size() == TASK_MANAGERS
                                        ? Optional.of(ids)
                                        : Optional.empty();
                            },
                            () -> cluster.diagnostics(List.of(Role.JOBMANAGER)));

            for (String metric : TM_SERIES) {
                Map<String, Double> latest =
                        Waits.until(
                                "hub series " + metric + " for every TaskManager",
                                Duration.ofSeconds(60),
                                Duration.ofSeconds(1),
                                () -> {
                                    Map<String, Double> byTm = latestByTaskManager(cluster, metric);
                                    return byTm.keySet().equals(flinkIds)
                                            ? Optional.of(byTm)
                                            : Optional.empty();
                                },
                                () ->
                                        "hub has "
                                                + latestByTaskManager(cluster, metric)
                                                + ", Flink lists "
                                                + flinkIds
                                                + "\n"
                                                + cluster.diagnostics(List.of(Role.JOBMANAGER)));
                assertThat(latest).as("%s per TaskManager", metric).hasSize(TASK_MANAGERS);
            }
            assertThat(latestByTaskManager(cluster, "insight_taskmanager_heap_max_bytes").values())
                    .as("each TaskManager's own heap maximum")
                    .allSatisfy(max -> assertThat(max).isPositive());
            assertThat(latestByTaskManager(cluster, "insight_taskmanager_heap_used_bytes").values())
                    .as("each TaskManager's heap in use")
                    .allSatisfy(used -> assertThat(used).isPositive());
            JsonNode count =
                    PluginOnSessionClusterITCase.json(
                                    cluster.insightGet(
                                            Role.JOBMANAGER,
                                            "/api/v1/series?metric=insight_taskmanager_count&from=-10m"))
                            .path("series")
                            .path(0)
                            .path("points");
            assertThat(count.get(count.size() - 1).get(1).asDouble())
                    .as("TaskManagers the hub saw last")
                    .isEqualTo(TASK_MANAGERS);
        }
    }

    /** The newest point of each of the hub's series of {@code metric}, by its {@code tm_id}. */
    private static Map<String, Double> latestByTaskManager(
            LocalFlinkCluster cluster, String metric) {
        Map<String, Double> out = new TreeMap<>();
        try {
            JsonNode series =
                    PluginOnSessionClusterITCase.json(
                                    cluster.insightGet(
                                            Role.JOBMANAGER,
                                            "/api/v1/series?metric=" + metric + "&from=-10m"))
                            .path("series");
            for (JsonNode s : series) {
                JsonNode points = s.path("points");
                if (points.size() > 0) {
                    out.put(
                            s.path("labels").path("tm_id").asText(),
                            points.get(points.size() - 1).get(1).asDouble());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
