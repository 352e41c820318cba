package io.flinkinsight.client;

import org.slf4j.Logger;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Where Netty or one of the interactive client's own threads calls it for work whose failure has no caller to go to:
 * a task of its scheduler or closer threads, a transport listener's figures. A failure inside is logged at WARN, at
 * most once a minute per kind of call (named in the message; DEBUG in between), and never reaches the calling
 * thread: a scheduled task's exception would vanish into its future (and cancel its later runs), a listener's would
 * fail a request. A {@code VirtualMachineError} (out of memory, stack overflow) is logged at ERROR every time and not
 * thrown either: on these threads nothing would handle it, and the work must go on. What fails a
 * query (its submission, a REST request, a collect poll) is not swallowed here: it reaches Flink as that query's
 * failure, thrown from {@code execute} or completing its future exceptionally.
 */
public final class FlinkBoundary {

    private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Logger log;
    private final LongSupplier nanoClock;
    /** Per kind of call, when it may warn again; kinds are constants at the call sites, so this stays small. */
    private final ConcurrentMap<String, AtomicLong> nextWarningNanos = new ConcurrentHashMap<>();

    public FlinkBoundary(Logger log) {
        this(log, System::nanoTime);
    }

    FlinkBoundary(Logger log, LongSupplier nanoClock) {
        this.log = log;
        this.nanoClock = nanoClock;
    }

    /**
     * Runs {@code call}; a failure is logged as "{@code what} failed".
     *
     * @param what the kind of call, a constant such as "closing an evicted cluster client"
     */
    public void run(String what, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            log.error("Flink Insight interactive client: {} failed with a JVM error.", what, e);
        } catch (Throwable t) {
            warn(what, t);
        }
    }

    /** {@code task}, run through {@link #run}: for an executor or a thread of the client's own. */
    public Runnable guarded(String what, Runnable task) {
        return () -> run(what, task);
    }

    private void warn(String what, Throwable failure) {
        long now = nanoClock.getAsLong();
        AtomicLong next = nextWarningNanos.computeIfAbsent(what, kind -> new AtomicLong(now));
        long allowedAt = next.get();
        if (now - allowedAt >= 0 && next.compareAndSet(allowedAt, now + WARN_INTERVAL_NANOS)) {
            log.warn("Flink Insight interactive client: {} failed (logged at most once a minute).", what, failure);
        } else {
            log.debug("Flink Insight interactive client: {} failed.", what, failure);
        }
    }
}
