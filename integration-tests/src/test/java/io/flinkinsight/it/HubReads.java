package io.flinkinsight.it;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** What tests read of a process's Insight API, as JSON. */
final class HubReads {

    private HubReads() {}

    /** The answer to {@code path} on {@code role}'s Insight port. */
    static JsonNode get(LocalFlinkCluster cluster, Role role, String path) {
        try {
            return PluginOnSessionClusterITCase.json(cluster.insightGet(role, path));
        } catch (Exception e) {
            throw new IllegalStateException(path, e);
        }
    }

    /** The times of every sample of {@code metric} in the last hour, oldest first. */
    static List<Long> sampleTimes(LocalFlinkCluster cluster, Role role, String metric) {
        JsonNode answer = get(cluster, role, "/api/v1/series?metric=" + metric + "&from=-1h");
        List<Long> out = new ArrayList<>();
        for (JsonNode series : answer.path("series")) {
            for (JsonNode point : series.path("points")) {
                out.add(point.get(0).asLong());
            }
        }
        out.sort(Long::compare);
        return out;
    }
}
