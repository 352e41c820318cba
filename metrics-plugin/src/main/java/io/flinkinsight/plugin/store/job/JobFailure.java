package io.flinkinsight.plugin.store.job;

import java.util.Map;

/**
 * A failure of a job as Flink's {@code JobFailureEvent} reported it (it carries no message: Flink's
 * exception history has that). Labels are the failure enricher labels ({@code failureLabel.*}
 * attributes).
 */
public record JobFailure(
        long timestamp, Boolean canRestart, Boolean globalFailure, Map<String, String> labels) {

    public JobFailure {
        labels = Map.copyOf(labels);
    }
}
