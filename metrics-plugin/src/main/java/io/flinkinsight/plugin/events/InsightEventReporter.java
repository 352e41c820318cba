package io.flinkinsight.plugin.events;

import io.flinkinsight.plugin.runtime.InsightReporterBase;

import org.apache.flink.events.Event;
import org.apache.flink.events.reporter.EventReporter;

import org.slf4j.LoggerFactory;

/**
 * Flink's entry point for events (job status changes, checkpoints): hands each one to the stores.
 * Runs under Flink's registry lock, so it only forwards.
 */
public final class InsightEventReporter extends InsightReporterBase implements EventReporter {

    private static final String USER_PREFIX = "events.reporter.insight.";

    public InsightEventReporter() {
        super("event", USER_PREFIX, LoggerFactory.getLogger(InsightEventReporter.class));
    }

    @Override
    public void notifyOfAddedEvent(Event event) {
        forward("processing an event", r -> r.onEvent(event));
    }
}
