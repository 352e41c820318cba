package io.flinkinsight.plugin.events;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;
import org.apache.flink.events.Event;
import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.metrics.MetricConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * Flink's entry point for events (job status changes, checkpoints): hands each one to the stores. Runs under Flink's
 * registry lock, so it only forwards; the stores guard and count each one ({@link FlinkBoundary}), so nothing throws
 * into Flink.
 */
public final class InsightEventReporter implements EventReporter {

    static final String USER_PREFIX = "events.reporter.insight.";

    private static final Logger LOG = LoggerFactory.getLogger(InsightEventReporter.class);
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
        FLINK_CALLS.run("closing the event reporter", () -> SharedRuntime.release(r));
    }

    @Override
    public void notifyOfAddedEvent(Event event) {
        InsightRuntime r = runtime;
        if (r != null) {
            r.onEvent(event);
        }
    }
}
