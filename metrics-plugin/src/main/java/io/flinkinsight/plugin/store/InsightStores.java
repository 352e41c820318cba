package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobEventParser;
import io.flinkinsight.plugin.store.job.JobStore;
import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the process remembers beyond current metric values: metric history (also what the hub gathers),
 * checkpoints from spans, jobs from events. Never throws into its callers.
 */
public final class InsightStores {

    private static final Logger LOG = LoggerFactory.getLogger(InsightStores.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final SeriesStore series;
    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final LongAdder callbackFailures = new LongAdder();
    private final RateLimitedLog failureLog;
    private final boolean spansHaveChildren;

    /** @param flink what the loaded Flink gives: its spans' children are read only when they exist */
    public InsightStores(StoreSettings settings, Clock clock, FlinkCapabilities flink) {
        this.series = new SeriesStore(settings, clock);
        this.checkpoints = new CheckpointStore(
                settings.maxCheckpointsPerJob(), settings.maxJobs(), settings.maxCheckpointBytes());
        this.jobs = new JobStore(settings.maxJobs(), clock);
        this.failureLog = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        this.spansHaveChildren = flink.spanChildren();
    }

    public SeriesStore series() {
        return series;
    }

    public CheckpointStore checkpoints() {
        return checkpoints;
    }

    public JobStore jobs() {
        return jobs;
    }

    /** Called from Flink's TraceReporter callback, under the metric registry's lock: must be cheap. */
    public void onSpan(Span span) {
        try {
            switch (span.getName()) {
                case CheckpointParser.CHECKPOINT_SPAN -> {
                    CheckpointRecord record = CheckpointParser.fromSpan(span, spansHaveChildren);
                    if (record != null) {
                        checkpoints.add(record);
                    }
                }
                case JobEventParser.JOB_INITIALIZATION_SPAN -> JobEventParser.applyInitialization(span, jobs);
                default -> {
                    // other spans (user spans) have no store
                }
            }
        } catch (Throwable t) {
            failed("span", t);
        }
    }

    /** Called from Flink's EventReporter callback, under the metric registry's lock: must be cheap. */
    public void onEvent(Event event) {
        try {
            if (CheckpointParser.CHECKPOINT_EVENT.equals(event.getName())) {
                // The span carries the same and more; the event counts when no trace reporter is configured.
                CheckpointRecord record = CheckpointParser.fromEvent(event);
                if (record != null) {
                    checkpoints.addIfAbsent(record);
                }
            } else {
                JobEventParser.apply(event, jobs);
            }
        } catch (Throwable t) {
            failed("event", t);
        }
    }

    /** Callbacks that failed (and were swallowed) since start. */
    public long callbackFailures() {
        return callbackFailures.sum();
    }

    private void failed(String what, Throwable t) {
        callbackFailures.increment();
        failureLog.warn("Flink Insight could not process a " + what, t);
    }
}
