package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsers of the few Flink 2.2 REST payloads the hub reads (field names from {@code JobDetails},
 * {@code JobDetailsInfo}, {@code AggregatedMetric}, {@code Metric}, {@code TaskManagersInfo}). Lenient: a
 * missing or odd field yields a smaller result, never an exception.
 */
final class RestPayloads {

    private RestPayloads() {}

    /** One entry of {@code GET /jobs/overview}. */
    record JobOverview(String jobId, String name, String state, long startTime, long endTime) {}

    /** One vertex of {@code GET /jobs/:jid}. */
    record Vertex(String id, String name, int parallelism) {}

    static List<JobOverview> jobsOverview(JsonNode root) {
        List<JobOverview> jobs = new ArrayList<>();
        for (JsonNode job : root.path("jobs")) {
            String id = job.path("jid").asText(null);
            if (id != null) {
                jobs.add(new JobOverview(
                        id,
                        job.path("name").asText(null),
                        job.path("state").asText(null),
                        job.path("start-time").asLong(-1),
                        job.path("end-time").asLong(-1)));
            }
        }
        return jobs;
    }

    static List<Vertex> vertices(JsonNode jobDetails) {
        List<Vertex> vertices = new ArrayList<>();
        for (JsonNode v : jobDetails.path("vertices")) {
            String id = v.path("id").asText(null);
            if (id != null) {
                vertices.add(new Vertex(id, v.path("name").asText(id), v.path("parallelism").asInt(0)));
            }
        }
        return vertices;
    }

    /** {@code [{"id": m, "sum": .., "max": ..}]} to metric id to aggregate to value; non-numbers are skipped. */
    static Map<String, Map<String, Double>> aggregated(JsonNode root) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (JsonNode m : root) {
            String id = m.path("id").asText(null);
            if (id == null) {
                continue;
            }
            Map<String, Double> aggs = new LinkedHashMap<>();
            for (String agg : new String[] {"min", "max", "avg", "sum", "skew"}) {
                JsonNode v = m.get(agg);
                if (v != null && v.isNumber()) {
                    aggs.put(agg, v.asDouble());
                }
            }
            out.put(id, aggs);
        }
        return out;
    }

    /** {@code [{"id": m}]}, the metric listing of an entity. */
    static List<String> metricIds(JsonNode root) {
        List<String> ids = new ArrayList<>();
        for (JsonNode m : root) {
            String id = m.path("id").asText(null);
            if (id != null) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** {@code [{"id": m, "value": "1.5"}]} to metric id to value; values that are not numbers are skipped. */
    static Map<String, Double> values(JsonNode root) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (JsonNode m : root) {
            String id = m.path("id").asText(null);
            JsonNode value = m.get("value");
            if (id == null || value == null) {
                continue;
            }
            try {
                out.put(id, value.isNumber() ? value.asDouble() : Double.parseDouble(value.asText()));
            } catch (NumberFormatException e) {
                // a non-numeric gauge: nothing to chart
            }
        }
        return out;
    }

    /** The TaskManager ids of {@code GET /taskmanagers}. */
    static List<String> taskManagerIds(JsonNode root) {
        List<String> ids = new ArrayList<>();
        for (JsonNode tm : root.path("taskmanagers")) {
            String id = tm.path("id").asText(null);
            if (id != null) {
                ids.add(id);
            }
        }
        return ids;
    }
}
