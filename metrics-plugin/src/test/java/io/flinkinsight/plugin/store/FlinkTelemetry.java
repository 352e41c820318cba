package io.flinkinsight.plugin.store;

import org.apache.flink.events.Event;
import org.apache.flink.events.EventBuilder;
import org.apache.flink.events.Events;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.SpanBuilder;

import java.util.Map;

/**
 * Builds spans and events the way Flink 2.2's JobManager does ({@code
 * DefaultCheckpointStatsTracker}, {@code JobMaster}, {@code JobMetricGroup}): same names, attribute
 * keys and group variables.
 */
public final class FlinkTelemetry {

    public static final String JOB_ID = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
    public static final String JOB_NAME = "wordcount";
    public static final String SOURCE_VERTEX = "cbc357ccb763df2852fee8c4fc7d55f2";
    public static final String MAP_VERTEX = "90bea66de1c231edf33913ecd54406c1";

    private static final String[] METRICS = {
        "StateSizeBytes", "CheckpointedSizeBytes", "CheckpointStartDelayMs", "AlignmentDurationMs",
        "SyncCheckpointDurationMs", "AsyncCheckpointDurationMs", "ProcessedDataBytes",
                "PersistedDataBytes"
    };

    private FlinkTelemetry() {}

    /**
     * The variables {@code MetricRegistryImpl} passes to {@code build(...)} for a JobManager job
     * group.
     */
    public static Map<String, String> jobVariables(String jobId) {
        return Map.of("<job_id>", jobId, "<job_name>", JOB_NAME, "<host>", "localhost");
    }

    /**
     * A {@code Checkpoint} span for checkpoint {@code id}: every max/sum figure is {@code base * k}
     * for the k-th metric, so tests can tell them apart; with {@code subtasks > 0}, task spans with
     * that many subtask spans.
     */
    public static Span checkpointSpan(
            String jobId, long id, long trigger, long end, long base, int subtasks) {
        SpanBuilder b =
                Span.builder(FlinkTelemetry.class, "Checkpoint")
                        .setStartTsMillis(trigger)
                        .setEndTsMillis(end);
        common(b, id, base);
        for (int k = 0; k < METRICS.length; k++) {
            b.setAttribute("max" + METRICS[k], base * (k + 1));
            if (k >= 2) { // Flink leaves out sumStateSizeBytes and sumCheckpointedSizeBytes
                b.setAttribute("sum" + METRICS[k], base * (k + 1) * 10);
            }
        }
        if (subtasks > 0) {
            for (String vertex : new String[] {SOURCE_VERTEX, MAP_VERTEX}) {
                SpanBuilder task =
                        Span.builder(FlinkTelemetry.class, "Checkpoint_Task")
                                .setStartTsMillis(trigger + 1)
                                .setEndTsMillis(end)
                                .setAttribute("checkpointId", id)
                                .setAttribute("jobVertexId", vertex);
                for (int k = 0; k < METRICS.length; k++) {
                    task.setAttribute("max" + METRICS[k], base * (k + 1));
                    task.setAttribute("sum" + METRICS[k], base * (k + 1) * subtasks);
                }
                for (int s = 0; s < subtasks; s++) {
                    SpanBuilder subtask =
                            Span.builder(FlinkTelemetry.class, "Checkpoint_Subtask")
                                    .setStartTsMillis(trigger + 1 + s)
                                    .setEndTsMillis(end - s)
                                    .setAttribute("checkpointId", id)
                                    .setAttribute("jobVertexId", vertex)
                                    .setAttribute("subtaskId", s);
                    for (int k = 0; k < METRICS.length; k++) {
                        subtask.setAttribute(METRICS[k], base * (k + 1) + s);
                    }
                    task.addChild(subtask);
                }
                b.addChild(task);
            }
        }
        // JobMetricGroup.addSpan adds the job id, MetricRegistryImpl the group variables
        b.setAttribute("jobId", jobId);
        return b.build(jobVariables(jobId));
    }

    /**
     * A {@code Checkpoint} span of a job of {@code vertices} vertices at {@code parallelism}, with
     * a task span per vertex and a subtask span per subtask (Flink 2.2's {@code
     * CHILDREN_SPANS_PER_SUBTASK}); vertex ids are fresh strings, as {@code JobVertexID.toString()}
     * makes them, and every figure depends on id, vertex and subtask.
     */
    public static Span checkpointSpan(
            String jobId, long id, long trigger, int vertices, int parallelism) {
        SpanBuilder b =
                Span.builder(FlinkTelemetry.class, "Checkpoint")
                        .setStartTsMillis(trigger)
                        .setEndTsMillis(trigger + 900);
        common(b, id, id);
        for (String f : METRICS) {
            b.setAttribute("max" + f, id * 3);
            b.setAttribute("sum" + f, id * 3 * vertices);
        }
        for (int v = 0; v < vertices; v++) {
            String vertex = vertexId(jobId, v);
            SpanBuilder task =
                    Span.builder(FlinkTelemetry.class, "Checkpoint_Task")
                            .setStartTsMillis(trigger + v)
                            .setEndTsMillis(trigger + 800)
                            .setAttribute("checkpointId", id)
                            .setAttribute("jobVertexId", vertex);
            for (String f : METRICS) {
                task.setAttribute("max" + f, id + v);
                task.setAttribute("sum" + f, (id + v) * parallelism);
            }
            for (int s = 0; s < parallelism; s++) {
                SpanBuilder subtask =
                        Span.builder(FlinkTelemetry.class, "Checkpoint_Subtask")
                                .setStartTsMillis(trigger + v + s)
                                .setEndTsMillis(trigger + 700 + s)
                                .setAttribute("checkpointId", id)
                                .setAttribute("jobVertexId", vertex)
                                .setAttribute("subtaskId", s);
                for (String f : METRICS) {
                    subtask.setAttribute(f, id + v + s);
                }
                task.addChild(subtask);
            }
            b.addChild(task);
        }
        b.setAttribute("jobId", jobId);
        return b.build(jobVariables(jobId));
    }

    /** The id of a job's {@code v}-th vertex: a fresh string each call. */
    public static String vertexId(String jobId, int v) {
        return jobId.substring(0, 24) + String.format("%08x", v);
    }

    public static Event checkpointEvent(String jobId, long id, long ackTs, long base) {
        EventBuilder b =
                Events.CheckpointEvent.builder(FlinkTelemetry.class)
                        .setObservedTsMillis(ackTs)
                        .setSeverity("INFO");
        common(b, id, base);
        b.setAttribute("jobId", jobId);
        return b.build(jobVariables(jobId));
    }

    private static void common(org.apache.flink.AttributeBuilder b, long id, long base) {
        b.setAttribute("checkpointId", id)
                .setAttribute("fullSize", base * 100)
                .setAttribute("checkpointedSize", base * 20)
                .setAttribute("metadataSize", 1234L)
                .setAttribute("checkpointStatus", "COMPLETED")
                .setAttribute("isUnaligned", "false")
                .setAttribute("checkpointType", "Checkpoint");
    }

    public static Event jobStatus(String jobId, String status, long ts) {
        return Events.JobStatusChangeEvent.builder(FlinkTelemetry.class)
                .setObservedTsMillis(ts)
                .setSeverity("INFO")
                .setAttribute("newJobStatus", status)
                .setAttribute("jobId", jobId)
                .build(jobVariables(jobId));
    }

    public static Event jobFailure(String jobId, long ts) {
        return Events.JobFailureEvent.builder(FlinkTelemetry.class)
                .setObservedTsMillis(ts)
                .setSeverity("INFO")
                .setAttribute("canRestart", "true")
                .setAttribute("isGlobalFailure", "false")
                .setAttribute("failureLabel.type", "user")
                .setAttribute("jobId", jobId)
                .build(jobVariables(jobId));
    }

    public static Event allSubtasksRunning(String jobId, long ts) {
        return Events.AllSubtasksStatusChangeEvent.builder(FlinkTelemetry.class)
                .setObservedTsMillis(ts)
                .setSeverity("INFO")
                .setAttribute("status", "ALL_RUNNING_OR_FINISHED")
                .setAttribute("jobId", jobId)
                .build(jobVariables(jobId));
    }

    public static Span jobInitialization(String jobId, long start, long end) {
        return Span.builder(FlinkTelemetry.class, "JobInitialization")
                .setStartTsMillis(start)
                .setEndTsMillis(end)
                .setAttribute("initializationStatus", "COMPLETED")
                .setAttribute("maxInitializeStateDurationMs", 40L)
                .setAttribute("sumInitializeStateDurationMs", 70L)
                .setAttribute("checkpointId", 7L)
                .setAttribute("fullSize", 4096L)
                .setAttribute("jobId", jobId)
                .build(jobVariables(jobId));
    }
}
