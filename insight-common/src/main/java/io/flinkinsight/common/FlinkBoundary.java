package io.flinkinsight.common;

import org.slf4j.Logger;

import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where Flink, Netty or one of our own threads calls into the plugin or the interactive client for
 * work whose failure has no caller to go to: whatever fails inside is counted and logged at WARN,
 * at most once a minute per kind of call (named in the message; DEBUG in between), and never
 * reaches the calling thread. A reporter callback that throws disturbs Flink's metric registry, a
 * scheduled task that throws is never run again, a listener that throws fails a request. What fails
 * a query (its submission, a REST request, a collect poll) does not go through here: it reaches
 * Flink as that query's failure.
 */
public final class FlinkBoundary {

    private static final long WARN_INTERVAL_MILLIS = 60_000;

    /**
     * Every boundary's failures in this class's copy: each jar shades this module under its own
     * package, so for the plugin this is its own figure flink_insight_internal_failures_total,
     * untouched by a client jar in the same JVM.
     */
    private static final LongAdder FAILURES_IN_PROCESS = new LongAdder();

    private final String component;
    private final Logger log;
    private final Clock clock;
    private final LongAdder failures = new LongAdder();

    /** One per kind of call; kinds are constants at the call sites, so this stays small. */
    private final ConcurrentMap<String, RateLimitedLog> warnings = new ConcurrentHashMap<>();

    /** A boundary of the metrics plugin, whose messages start with "Flink Insight". */
    public FlinkBoundary(Logger log, Clock clock) {
        this("Flink Insight", log, clock);
    }

    /**
     * @param component what the messages start with, such as "Flink Insight interactive client"
     */
    public FlinkBoundary(String component, Logger log, Clock clock) {
        this.component = component;
        this.log = log;
        this.clock = clock;
    }

    /**
     * Runs {@code call} on a thread of Flink's; a failure is counted and logged as "{@code what}
     * failed", except a {@code VirtualMachineError}, which is logged at ERROR and thrown on.
     *
     * @param what the kind of call, a constant such as "indexing an added metric"
     */
    public void run(String what, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            // The JVM itself is failing (out of memory, stack overflow): Flink's fatal-error
            // handling decides what
            // happens next, not a plugin that swallows it.
            log.error("{}: {} failed with a JVM error.", component, what, e);
            throw e;
        } catch (Throwable t) {
            swallowed(what, t);
        }
    }

    /**
     * Runs {@code call} as a task of one of our own threads (a scheduler, a closer, a Netty event
     * loop): as {@link #run}, except that a {@code VirtualMachineError} is counted, logged at ERROR
     * every time, and not thrown. On that thread no Flink handler would see it (an executor keeps
     * it in the task's future), and thrown it would cancel every later run: the sampling, the
     * stores' budget or the pool's eviction would stop for good.
     */
    public void runScheduled(String what, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            count();
            log.error("{}: {} failed with a JVM error; the thread goes on.", component, what, e);
        } catch (Throwable t) {
            swallowed(what, t);
        }
    }

    /** {@code task}, run through {@link #runScheduled}: for an executor or a thread of our own. */
    public Runnable guarded(String what, Runnable task) {
        return () -> runScheduled(what, task);
    }

    private void swallowed(String what, Throwable t) {
        count();
        boolean warned =
                warnings.computeIfAbsent(
                                what, kind -> new RateLimitedLog(log, clock, WARN_INTERVAL_MILLIS))
                        .warn(component + ": " + what + " failed", t);
        if (!warned && log.isDebugEnabled()) {
            // no stack trace here: this may run on a Flink thread under its registry's lock, once
            // per failing call; the WARN of each interval carries the trace with DEBUG on
            log.debug("{}: {} failed: {}", component, what, t.toString());
        }
    }

    private void count() {
        failures.increment();
        FAILURES_IN_PROCESS.increment();
    }

    /** Calls through this boundary that failed (and were swallowed) since start. */
    public long failures() {
        return failures.sum();
    }

    /** Calls through any boundary of this jar that failed (and were swallowed) since start. */
    public static long failuresInProcess() {
        return FAILURES_IN_PROCESS.sum();
    }
}
