package io.flinkinsight.plugin.traces;

import org.apache.flink.traces.reporter.TraceReporter;
import org.apache.flink.traces.reporter.TraceReporterFactory;

import java.util.Properties;

/** Creates the trace reporter: {@code traces.reporter.insight.factory.class} names this class. */
public final class InsightTraceReporterFactory implements TraceReporterFactory {

    @Override
    public TraceReporter createTraceReporter(Properties properties) {
        return new InsightTraceReporter();
    }
}
