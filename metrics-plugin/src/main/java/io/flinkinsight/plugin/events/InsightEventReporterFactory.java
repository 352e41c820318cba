package io.flinkinsight.plugin.events;

import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.events.reporter.EventReporterFactory;

import java.util.Properties;

/** Creates the event reporter: {@code events.reporter.insight.factory.class} names this class. */
public final class InsightEventReporterFactory implements EventReporterFactory {

    @Override
    public EventReporter createEventReporter(Properties properties) {
        return new InsightEventReporter();
    }
}
