package io.flinkinsight.plugin.traces;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * Flink's entry point for spans (checkpoints, job initialisation, emitted by the JobManager): hands each one to the
 * stores. Runs under Flink's registry lock, so it only forwards; the stores guard and count each one
 * ({@link FlinkBoundary}), so nothing throws into Flink.
 */
public final class InsightTraceReporter implements TraceReporter {

    static final String USER_PREFIX = "traces.reporter.insight.";

    private static final Logger LOG = LoggerFactory.getLogger(InsightTraceReporter.class);
    private static final FlinkBoundary FLINK_CALLS = new FlinkBoundary(LOG, Clock.systemUTC());

    private volatile InsightRuntime runtime;

    /** Not guarded: an invalid option must fail here, so that Flink logs it and leaves this reporter out. */
    @Override
    public void open(MetricConfig config) {
        runtime = SharedRuntime.acquire(config, USER_PREFIX);
    }

    @Override
    public void close() {
        InsightRuntime r = runtime;
        runtime = null;
        FLINK_CALLS.run("closing the trace reporter", () -> SharedRuntime.release(r));
    }

    @Override
    public void notifyOfAddedSpan(Span span) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.onSpan(span);
        }
    }
}
