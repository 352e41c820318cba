package io.flinkinsight.plugin.runtime;

import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.metrics.MetricConfig;

import org.slf4j.Logger;

import java.time.Clock;
import java.util.function.Consumer;

/**
 * What the metric, trace and event reporters share (as flink-metrics-otel's {@code
 * OpenTelemetryReporterBase}): opening and closing the process's one {@link InsightRuntime}, and
 * the {@link FlinkBoundary} every call from Flink passes, so nothing the plugin does throws into
 * Flink's registry. Each reporter adds only its own callbacks.
 */
public abstract class InsightReporterBase {

    private final String closing;
    private final String userPrefix;
    private final FlinkBoundary flinkCalls;
    private volatile InsightRuntime runtime;

    /**
     * @param kind the signal reported, as in "closing the {@code kind} reporter"
     * @param userPrefix how the user spells the reporter's options, e.g. {@code
     *     traces.reporter.insight.}
     * @param log the reporter's own logger, which names it in the boundary's warnings
     */
    protected InsightReporterBase(String kind, String userPrefix, Logger log) {
        this.closing = "closing the " + kind + " reporter";
        this.userPrefix = userPrefix;
        this.flinkCalls = new FlinkBoundary(log, Clock.systemUTC());
    }

    /**
     * Not guarded: an invalid option must fail here, so that Flink logs it and leaves this reporter
     * out.
     */
    public void open(MetricConfig config) {
        runtime = SharedRuntime.acquire(config, userPrefix);
    }

    public void close() {
        InsightRuntime r = runtime;
        runtime = null;
        flinkCalls.run(closing, () -> SharedRuntime.release(r));
    }

    /**
     * Hands a call from Flink to the runtime through the boundary; nothing while the reporter is
     * not open.
     *
     * @param what the kind of call, a constant such as "indexing an added metric", named when it
     *     fails
     */
    protected final void forward(String what, Consumer<InsightRuntime> call) {
        InsightRuntime r = runtime;
        if (r != null) {
            flinkCalls.run(what, () -> call.accept(r));
        }
    }
}
