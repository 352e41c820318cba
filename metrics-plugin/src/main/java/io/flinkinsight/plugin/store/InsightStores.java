package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobEventParser;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.statement.StatementStore;

import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the process remembers beyond current metric values: metric history (also what the hub
 * gathers), checkpoints from spans, jobs from events, the interactive client's statements from its
 * query spans, together within one budget of estimated heap ({@link #keepWithinBudget()}). Its
 * callers guard it: the reporters at Flink's boundary, the sampler thread its budget pass.
 */
public final class InsightStores {

    private final SeriesStore series;
    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final StatementStore statements;
    private final boolean spansHaveChildren;
    private final long maxBytes;
    private final LongAdder budgetPasses = new LongAdder();

    /**
     * @param flink what the loaded Flink gives: its spans' children are read only when they exist
     */
    public InsightStores(StoreSettings settings, Clock clock, FlinkCapabilities flink) {
        this.series = new SeriesStore(settings, clock);
        this.jobs = new JobStore(settings.maxJobs(), clock);
        this.checkpoints =
                new CheckpointStore(
                        settings.maxCheckpointsPerJob(),
                        settings.maxJobs(),
                        settings.checkpointBytesCap(),
                        jobs::isFinished);
        this.maxBytes = settings.maxBytes();
        // a fixed share of the budget, so the history and checkpoints keep theirs
        this.statements =
                new StatementStore(MAX_STATEMENTS, maxBytes / 16, settings.keepLiterals());
        this.spansHaveChildren = flink.spanChildren();
    }

    /** The statements kept at the most (each within {@code StatementText.MAX_CHARS}). */
    public static final int MAX_STATEMENTS = 1_000;

    public StatementStore statements() {
        return statements;
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

    /**
     * Called from Flink's TraceReporter callback, under the metric registry's lock: must be cheap.
     */
    public void onSpan(Span span) {
        switch (span.getName()) {
            case CheckpointParser.CHECKPOINT_SPAN -> {
                CheckpointRecord record = CheckpointParser.fromSpan(span, spansHaveChildren);
                if (record != null) {
                    checkpoints.add(record);
                }
            }
            case JobEventParser.JOB_INITIALIZATION_SPAN ->
                    JobEventParser.applyInitialization(span, jobs);
            case StatementStore.QUERY_SPAN -> statements.addSpan(span);
            default -> {
                // other spans (user spans) have no store
            }
        }
    }

    /**
     * Called from Flink's EventReporter callback, under the metric registry's lock: must be cheap.
     */
    public void onEvent(Event event) {
        if (CheckpointParser.CHECKPOINT_EVENT.equals(event.getName())) {
            // The span carries the same and more; the event counts when no trace reporter is
            // configured.
            CheckpointRecord record = CheckpointParser.fromEvent(event);
            if (record != null) {
                checkpoints.addIfAbsent(record);
            }
        } else {
            JobEventParser.apply(event, jobs);
        }
    }

    /** Estimated heap bytes of the stores together. */
    public long estimatedBytes() {
        return series.estimatedBytes()
                + checkpoints.estimatedBytes()
                + jobs.estimatedBytes()
                + statements.estimatedBytes();
    }

    /** The most heap, estimated, the stores may take together. */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Passes of {@link #keepWithinBudget()} that found the stores above 15/16 of their budget and
     * evicted.
     */
    public long budgetPasses() {
        return budgetPasses.sum();
    }

    /**
     * Brings the stores to at most 15/16 of their budget, the rest being room for what arrives
     * until the next pass: first the data of the jobs that finished longest ago (their checkpoints,
     * then their history, then their record), then series no longer written, least recently written
     * first, then running jobs' oldest checkpoints. What is left above that is every running job's
     * newest checkpoint and the series still written: kept, so no running job is starved. Then the
     * checkpoints, written between passes from Flink's threads, may take what the budget leaves
     * them (less 1/32 for the history's growth until the next pass). Runs on the plugin's own
     * threads (after each sampling round), never a Flink thread: it scans the history.
     */
    public synchronized void keepWithinBudget() {
        long toFree = estimatedBytes() - (maxBytes - maxBytes / 16);
        if (toFree > 0) {
            budgetPasses.increment();
            evict(toFree);
        }
        // 1/32 stays free for the history's growth until the next pass (its chunks seal in step)
        long others = series.estimatedBytes() + jobs.estimatedBytes() + statements.estimatedBytes();
        checkpoints.limitBytes(Math.max(0, maxBytes - maxBytes / 32 - others));
    }

    private void evict(long bytes) {
        long toFree = bytes;
        List<String> finished = jobs.finishedOldestFirst();
        Map<String, List<SeriesKey>> seriesOf =
                finished.isEmpty() ? Map.of() : series.keysByJob(new HashSet<>(finished));
        for (String job : finished) {
            toFree -= checkpoints.removeJob(job);
            if (toFree <= 0) {
                return;
            }
            toFree -= series.remove(seriesOf.getOrDefault(job, List.of()));
            if (toFree <= 0) {
                return;
            }
            toFree -= jobs.remove(job);
            if (toFree <= 0) {
                return;
            }
        }
        toFree -= series.evictNotWrittenRecently(toFree);
        if (toFree > 0) {
            checkpoints.trimOldest(toFree);
        }
    }
}
