package io.flinkinsight.client.collect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A scheduler on a manual clock: scheduled tasks run on the test's thread only when the test moves
 * the clock past their time, so a pacing of milliseconds or minutes is tested exactly and at once,
 * without sleeping. The clock ({@link #nanoClock}) starts at an arbitrary point, as {@code
 * System.nanoTime} does.
 */
final class TestingScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final PriorityQueue<Task> tasks =
            new PriorityQueue<>(
                    Comparator.comparingLong((Task task) -> task.atNanos)
                            .thenComparingLong(t -> t.order));
    private long nowNanos = 1_000_000_000_000L;
    private long scheduled;

    /** The clock the tasks run by. */
    LongSupplier nanoClock() {
        return () -> nowNanos;
    }

    long nowNanos() {
        return nowNanos;
    }

    /**
     * Moves the clock {@code by} forward, running each task that comes due on the way at its own
     * time.
     */
    void advance(Duration by) {
        long until = nowNanos + by.toNanos();
        while (!tasks.isEmpty() && tasks.peek().atNanos <= until) {
            runNext();
        }
        nowNanos = until;
    }

    /**
     * Runs the tasks in their order, moving the clock to each one's time, until {@code done} is.
     */
    void runUntilDone(Future<?> done) {
        while (!done.isDone()) {
            if (tasks.isEmpty()) {
                throw new AssertionError("Nothing scheduled, and the future is not done");
            }
            runNext();
        }
    }

    /** Tasks scheduled and neither run nor cancelled. */
    int pending() {
        return (int) tasks.stream().filter(task -> !task.isCancelled()).count();
    }

    private void runNext() {
        Task next = tasks.poll();
        nowNanos = Math.max(nowNanos, next.atNanos);
        if (next.isCancelled()) {
            return;
        }
        next.run();
        try {
            next.get();
        } catch (InterruptedException | ExecutionException e) {
            // a task that threw must fail the test, not vanish into its future
            throw new AssertionError(
                    "A scheduled task failed", e.getCause() != null ? e.getCause() : e);
        }
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Task task = new Task(command, nowNanos + unit.toNanos(delay), scheduled++);
        tasks.add(task);
        return task;
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
            Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
            Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

    private final class Task extends FutureTask<Void> implements ScheduledFuture<Void> {
        final long atNanos;
        final long order;

        Task(Runnable command, long atNanos, long order) {
            super(command, null);
            this.atNanos = atNanos;
            this.order = order;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(atNanos - nowNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(
                    getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
