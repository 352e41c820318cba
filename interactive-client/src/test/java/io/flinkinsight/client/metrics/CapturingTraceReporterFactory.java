package io.flinkinsight.client.metrics;

import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;
import org.apache.flink.traces.reporter.TraceReporterFactory;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

/** A trace reporter, configured as Flink configures any, that records every span it is told of. */
public final class CapturingTraceReporterFactory implements TraceReporterFactory {

    static final List<Span> SPANS = new CopyOnWriteArrayList<>();

    @Override
    public TraceReporter createTraceReporter(Properties properties) {
        return new TraceReporter() {
            @Override
            public void open(MetricConfig config) {}

            @Override
            public void close() {}

            @Override
            public void notifyOfAddedSpan(Span span) {
                SPANS.add(span);
            }
        };
    }
}
