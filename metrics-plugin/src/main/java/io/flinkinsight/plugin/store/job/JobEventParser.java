package io.flinkinsight.plugin.store.job;

import io.flinkinsight.plugin.store.Attributes;

import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;

import java.util.HashMap;
import java.util.Map;

/**
 * Applies Flink 2.2's built-in job events ({@code org.apache.flink.events.Events}) and the {@code
 * JobInitialization} span to a {@link JobStore}. Event names and attribute keys are those of {@code
 * JobMaster} ({@code newJobStatus}), {@code JobFailureMetricReporter} ({@code canRestart}, {@code
 * isGlobalFailure}, {@code failureLabel.*}) and {@code
 * AllSubTasksRunningOrFinishedStateTimeMetrics} ({@code status}).
 */
public final class JobEventParser {

    public static final String JOB_STATUS_CHANGE = "JobStatusChangeEvent";
    public static final String JOB_FAILURE = "JobFailureEvent";
    public static final String ALL_SUBTASKS_STATUS_CHANGE = "AllSubtasksStatusChangeEvent";
    public static final String JOB_INITIALIZATION_SPAN = "JobInitialization";

    private static final String FAILURE_LABEL_PREFIX = "failureLabel.";
    private static final int MAX_LABELS = 16;
    private static final int MAX_FIGURES = 32;

    private JobEventParser() {}

    /**
     * Applies a job event; returns false when the event is not a job event this store understands.
     */
    public static boolean apply(Event event, JobStore jobs) {
        Map<String, Object> a = event.getAttributes();
        String jobId = Attributes.jobId(a);
        if (jobId == null) {
            return false;
        }
        String jobName = Attributes.jobName(a);
        long ts = event.getObservedTsMillis();
        switch (event.getName()) {
            case JOB_STATUS_CHANGE -> {
                String status = Attributes.asString(a, "newJobStatus");
                if (status == null) {
                    return false;
                }
                jobs.onStatus(jobId, jobName, status, ts);
            }
            case JOB_FAILURE -> {
                Map<String, String> labels = new HashMap<>();
                for (Map.Entry<String, Object> e : a.entrySet()) {
                    if (e.getKey().startsWith(FAILURE_LABEL_PREFIX) && labels.size() < MAX_LABELS) {
                        labels.put(
                                e.getKey().substring(FAILURE_LABEL_PREFIX.length()),
                                String.valueOf(e.getValue()));
                    }
                }
                jobs.onFailure(
                        jobId,
                        jobName,
                        new JobFailure(
                                ts,
                                Attributes.asBoolean(a, "canRestart"),
                                Attributes.asBoolean(a, "isGlobalFailure"),
                                labels));
            }
            case ALL_SUBTASKS_STATUS_CHANGE -> {
                if ("ALL_RUNNING_OR_FINISHED".equals(Attributes.asString(a, "status"))) {
                    jobs.onAllSubtasksRunning(jobId, jobName, ts);
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Applies a {@code JobInitialization} span; returns false when it lacks a job id. */
    public static boolean applyInitialization(Span span, JobStore jobs) {
        Map<String, Object> a = span.getAttributes();
        String jobId = Attributes.jobId(a);
        if (jobId == null) {
            return false;
        }
        Map<String, Long> figures = new HashMap<>();
        for (Map.Entry<String, Object> e : a.entrySet()) {
            String key = e.getKey();
            if ((key.startsWith("max") || key.startsWith("sum"))
                    && e.getValue() instanceof Number n
                    && figures.size() < MAX_FIGURES) {
                figures.put(key, n.longValue());
            }
        }
        jobs.onInitialization(
                jobId,
                Attributes.jobName(a),
                new JobInitialization(
                        Attributes.asString(a, "initializationStatus"),
                        span.getStartTsMillis(),
                        span.getEndTsMillis(),
                        Attributes.asLong(a, "checkpointId"),
                        Attributes.asLong(a, "fullSize"),
                        figures));
        return true;
    }
}
