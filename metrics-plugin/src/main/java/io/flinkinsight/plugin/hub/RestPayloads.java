package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.checkpoint.TaskCheckpoint;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsers of the few Flink REST payloads the hub reads (field names from {@code JobDetails}, {@code
 * JobDetailsInfo}, {@code AggregatedMetric}, {@code Metric}, {@code TaskManagersInfo}, {@code
 * CheckpointingStatistics}, the same from 1.20 through 2.3). Lenient: a missing or odd field yields
 * a smaller result, never an exception.
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
                jobs.add(
                        new JobOverview(
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
                vertices.add(
                        new Vertex(id, v.path("name").asText(id), v.path("parallelism").asInt(0)));
            }
        }
        return vertices;
    }

    /**
     * {@code [{"id": m, "sum": .., "max": ..}]} to metric id to aggregate to value; non-numbers are
     * skipped.
     */
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

    /**
     * {@code [{"id": m, "value": "1.5"}]} to metric id to value; values that are not numbers are
     * skipped.
     */
    static Map<String, Double> values(JsonNode root) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (JsonNode m : root) {
            String id = m.path("id").asText(null);
            JsonNode value = m.get("value");
            if (id == null || value == null) {
                continue;
            }
            try {
                out.put(
                        id,
                        value.isNumber() ? value.asDouble() : Double.parseDouble(value.asText()));
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

    /**
     * The {@code timestamps} of {@code GET /jobs/:jid}: job status to when the job last entered it;
     * statuses it never reached (time 0) are left out.
     */
    static Map<String, Long> statusTimestamps(JsonNode jobDetails) {
        Map<String, Long> out = new LinkedHashMap<>();
        jobDetails
                .path("timestamps")
                .fields()
                .forEachRemaining(
                        e -> {
                            long ts = e.getValue().asLong(0);
                            if (ts > 0) {
                                out.put(e.getKey(), ts);
                            }
                        });
        return out;
    }

    /**
     * The finished (completed or failed) entries of {@code history} in {@code GET
     * /jobs/:jid/checkpoints}, as checkpoint records of source "rest"; checkpoints still in
     * progress are left for a later poll.
     */
    static List<CheckpointRecord> checkpointHistory(JsonNode root, String jobId, String jobName) {
        List<CheckpointRecord> out = new ArrayList<>();
        for (JsonNode c : root.path("history")) {
            CheckpointRecord r = checkpoint(c, jobId, jobName);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * One checkpoint of {@code GET /jobs/:jid/checkpoints} or {@code .../checkpoints/details/:cid}
     * (then with its tasks), or null when it is unfinished or lacks its id.
     */
    static CheckpointRecord checkpoint(JsonNode c, String jobId, String jobName) {
        String status = c.path("status").asText("");
        if (!c.path("id").isNumber() || !("COMPLETED".equals(status) || "FAILED".equals(status))) {
            return null;
        }
        long trigger = c.path("trigger_timestamp").asLong(0);
        long acknowledged = c.path("latest_ack_timestamp").asLong(0);
        long end = acknowledged > 0 ? acknowledged : c.path("failure_timestamp").asLong(0);
        String restType = c.path("checkpoint_type").asText("");
        List<TaskCheckpoint> tasks = new ArrayList<>();
        c.path("tasks")
                .fields()
                .forEachRemaining(
                        t -> {
                            JsonNode task = t.getValue();
                            long taskEnd = task.path("latest_ack_timestamp").asLong(0);
                            tasks.add(
                                    new TaskCheckpoint(
                                            t.getKey(),
                                            null,
                                            trigger,
                                            taskEnd > 0 ? taskEnd : end,
                                            PhaseFigures.NONE,
                                            sums(task),
                                            List.of()));
                        });
        return new CheckpointRecord(
                jobId,
                jobName,
                c.path("id").asLong(),
                status,
                checkpointType(restType, c.path("is_savepoint").asBoolean(false)),
                restType.isEmpty() ? null : "UNALIGNED_CHECKPOINT".equals(restType),
                trigger,
                end,
                nonNegative(c, "end_to_end_duration"),
                nonNegative(c, "state_size"),
                nonNegative(c, "checkpointed_size"),
                null,
                PhaseFigures.NONE,
                sums(c),
                tasks,
                "rest");
    }

    /**
     * The span's type names ({@code SnapshotType.getName()}) for the REST API's {@code
     * checkpoint_type}.
     */
    private static String checkpointType(String restType, boolean savepoint) {
        return switch (restType) {
            case "CHECKPOINT", "UNALIGNED_CHECKPOINT" -> "Checkpoint";
            case "SAVEPOINT" -> "Savepoint";
            case "SYNC_SAVEPOINT" -> "Synchronous Savepoint";
            default -> savepoint ? "Savepoint" : null;
        };
    }

    /**
     * The sums over subtasks REST gives: sizes and the unaligned checkpoint's processed and
     * persisted data.
     */
    private static PhaseFigures sums(JsonNode c) {
        return new PhaseFigures(
                nonNegative(c, "state_size"),
                nonNegative(c, "checkpointed_size"),
                null,
                null,
                null,
                null,
                nonNegative(c, "processed_data"),
                nonNegative(c, "persisted_data"));
    }

    /** A number field, or null when absent or negative (Flink answers -1 for "not known"). */
    private static Long nonNegative(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isNumber() && v.asLong() >= 0 ? v.asLong() : null;
    }
}
