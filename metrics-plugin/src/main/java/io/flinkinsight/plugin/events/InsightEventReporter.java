package io.flinkinsight.plugin.events;

import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.events.Event;
import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.metrics.MetricConfig;

/**
 * Flink's entry point for events (job status changes, checkpoints): hands each one to the stores. Runs under Flink's
 * registry lock, so it only forwards; it never throws.
 */
public final class InsightEventReporter implements EventReporter {

    static final String USER_PREFIX = "events.reporter.insight.";

    private volatile InsightRuntime runtime;

    @Override
    public void open(MetricConfig config) {
        runtime = SharedRuntime.acquire(config, USER_PREFIX);
    }

    @Override
    public void close() {
        InsightRuntime r = runtime;
        runtime = null;
        SharedRuntime.release(r);
    }

    @Override
    public void notifyOfAddedEvent(Event event) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.onEvent(event);
        }
    }
}
