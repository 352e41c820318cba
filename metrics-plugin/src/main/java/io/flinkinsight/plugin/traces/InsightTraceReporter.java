package io.flinkinsight.plugin.traces;

import io.flinkinsight.plugin.runtime.InsightReporterBase;

import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;

import org.slf4j.LoggerFactory;

/**
 * Flink's entry point for spans (checkpoints, job initialisation, emitted by the JobManager): hands
 * each one to the stores. Runs under Flink's registry lock, so it only forwards.
 */
public final class InsightTraceReporter extends InsightReporterBase implements TraceReporter {

    private static final String USER_PREFIX = "traces.reporter.insight.";

    public InsightTraceReporter() {
        super("trace", USER_PREFIX, LoggerFactory.getLogger(InsightTraceReporter.class));
    }

    @Override
    public void notifyOfAddedSpan(Span span) {
        forward("processing a span", r -> r.onSpan(span));
    }
}
