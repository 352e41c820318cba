package io.flinkinsight.plugin.traces;

import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;

/**
 * Flink's entry point for spans (checkpoints, job initialisation, emitted by the JobManager): hands each one to the
 * stores. Runs under Flink's registry lock, so it only forwards; it never throws.
 */
public final class InsightTraceReporter implements TraceReporter {

    static final String USER_PREFIX = "traces.reporter.insight.";

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
    public void notifyOfAddedSpan(Span span) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.onSpan(span);
        }
    }
}
