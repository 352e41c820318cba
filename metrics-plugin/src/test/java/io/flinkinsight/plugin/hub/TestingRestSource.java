package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Answers REST paths from JSON fixtures recorded from a real Flink 2.2 cluster ({@code
 * src/test/resources/hub/}; the two checkpoint fixtures are written in the shape of {@code
 * CheckpointStatistics}, the same from 1.20 through 2.3): the first route whose predicate matches
 * the path wins; unmatched paths fail as a 404.
 */
final class TestingRestSource implements RestSource {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Map<Predicate<String>, String> routes = new LinkedHashMap<>();
    final List<String> requested = new ArrayList<>();

    TestingRestSource route(Predicate<String> path, String fixture) {
        routes.put(path, fixture);
        return this;
    }

    /**
     * The routes of the recorded job: one running job with two vertices and latency tracking on.
     */
    static TestingRestSource recordedCluster() {
        return new TestingRestSource()
                .route(p -> p.equals("/jobs/overview"), "jobs-overview.json")
                .route(p -> p.equals("/taskmanagers"), "taskmanagers.json")
                .route(p -> p.startsWith("/taskmanagers/"), "taskmanager-metrics.json")
                .route(p -> p.contains("/subtasks/metrics?get="), "vertex-subtasks-aggregated.json")
                .route(p -> p.endsWith("/metrics"), "vertex-metrics-list.json")
                .route(p -> p.contains("/metrics?get="), "vertex-latency-values.json")
                .route(p -> p.matches("/jobs/[0-9a-f]{32}"), "job-details.json")
                .route(p -> p.matches("/jobs/[0-9a-f]{32}/config"), "job-config.json")
                .route(
                        p -> p.matches("/jobs/[0-9a-f]{32}/checkpoints/config"),
                        "checkpoint-config.json")
                .route(p -> p.equals("/jobmanager/config"), "jobmanager-config.json");
    }

    static JsonNode fixture(String name) throws IOException {
        try (InputStream in = TestingRestSource.class.getResourceAsStream("/hub/" + name)) {
            if (in == null) {
                throw new IOException("no fixture " + name);
            }
            return MAPPER.readTree(in);
        }
    }

    @Override
    public JsonNode get(String pathAndQuery) throws IOException {
        requested.add(pathAndQuery);
        for (Map.Entry<Predicate<String>, String> route : routes.entrySet()) {
            if (route.getKey().test(pathAndQuery)) {
                return fixture(route.getValue());
            }
        }
        throw new RestStatusException(pathAndQuery, 404);
    }
}
