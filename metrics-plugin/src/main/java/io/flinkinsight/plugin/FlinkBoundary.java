package io.flinkinsight.plugin;

import org.slf4j.Logger;

import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where Flink or one of the plugin's own scheduled threads calls into the plugin: whatever fails inside is counted
 * and logged at WARN, at most once a minute per kind of call (named in the message), and never reaches the calling
 * thread. A reporter callback that throws disturbs Flink's metric registry, and a scheduled task that throws is never
 * run again.
 */
public final class FlinkBoundary {

    private static final long WARN_INTERVAL_MILLIS = 60_000;
    /** Every boundary's failures in this process: the plugin's own figure flink_insight_internal_failures_total. */
    private static final LongAdder FAILURES_IN_PROCESS = new LongAdder();

    private final Logger log;
    private final Clock clock;
    private final LongAdder failures = new LongAdder();
    /** One per kind of call; kinds are constants at the call sites, so this stays small. */
    private final ConcurrentMap<String, RateLimitedLog> warnings = new ConcurrentHashMap<>();

    public FlinkBoundary(Logger log, Clock clock) {
        this.log = log;
        this.clock = clock;
    }

    /**
     * Runs {@code call}; a failure is counted and logged as "Flink Insight: {@code what} failed".
     *
     * @param what the kind of call, a constant such as "indexing an added metric"
     */
    public void run(String what, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            // The JVM itself is failing (out of memory, stack overflow): Flink's fatal-error handling decides what
            // happens next, not a plugin that swallows it.
            log.error("Flink Insight: {} failed with a JVM error.", what, e);
            throw e;
        } catch (Throwable t) {
            swallowed(what, t);
        }
    }

    /**
     * Runs {@code call} as a task of one of the plugin's own scheduled threads: as {@link #run}, except that a
     * {@code VirtualMachineError} is logged at ERROR and not thrown. On that thread no Flink handler would see it (an
     * executor keeps it in the task's future), and thrown it would cancel every later run: the sampling and the stores'
     * budget would stop for good.
     */
    public void runScheduled(String what, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            failures.increment();
            FAILURES_IN_PROCESS.increment();
            log.error("Flink Insight: {} failed with a JVM error; the next run is still scheduled.", what, e);
        } catch (Throwable t) {
            swallowed(what, t);
        }
    }

    private void swallowed(String what, Throwable t) {
        failures.increment();
        FAILURES_IN_PROCESS.increment();
        warnings.computeIfAbsent(what, kind -> new RateLimitedLog(log, clock, WARN_INTERVAL_MILLIS))
                .warn("Flink Insight: " + what + " failed", t);
    }

    /** Calls through this boundary that failed (and were swallowed) since start. */
    public long failures() {
        return failures.sum();
    }

    /** Calls through any boundary of this process that failed (and were swallowed) since start. */
    public static long failuresInProcess() {
        return FAILURES_IN_PROCESS.sum();
    }
}
