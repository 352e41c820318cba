package io.flinkinsight.plugin.traces;

import io.flinkinsight.plugin.JavaVersionCheck;

import org.apache.flink.traces.reporter.TraceReporter;
import org.apache.flink.traces.reporter.TraceReporterFactory;

import java.util.Properties;

/**
 * Creates the trace reporter: {@code traces.reporter.insight.factory.class} names this class. Built
 * for Java 8, since Flink loads it on any JVM (see {@link JavaVersionCheck}).
 */
public final class InsightTraceReporterFactory implements TraceReporterFactory {

    @Override
    public TraceReporter createTraceReporter(Properties properties) {
        JavaVersionCheck.requireSupportedJava("traces.reporter.insight");
        return new InsightTraceReporter();
    }
}
