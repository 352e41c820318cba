package io.flinkinsight.plugin.events;

import io.flinkinsight.plugin.JavaVersionCheck;

import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.events.reporter.EventReporterFactory;

import java.util.Properties;

/**
 * Creates the event reporter: {@code events.reporter.insight.factory.class} names this class. Built
 * for Java 8, since Flink loads it on any JVM (see {@link JavaVersionCheck}).
 */
public final class InsightEventReporterFactory implements EventReporterFactory {

    @Override
    public EventReporter createEventReporter(Properties properties) {
        JavaVersionCheck.requireSupportedJava("events.reporter.insight");
        return new InsightEventReporter();
    }
}
