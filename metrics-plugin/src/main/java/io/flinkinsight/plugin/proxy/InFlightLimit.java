package io.flinkinsight.plugin.proxy;

import java.util.ArrayDeque;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Bounds how many asynchronous operations run at once: up to {@code maxRunning} start at once, up
 * to {@code maxWaiting} more wait their turn in arrival order, and further ones are refused, so
 * neither the number of requests in flight nor the memory their answers hold can grow without
 * bound.
 */
final class InFlightLimit {

    private final int maxRunning;
    private final int maxWaiting;
    private final ArrayDeque<Supplier<? extends CompletionStage<?>>> waiting = new ArrayDeque<>();
    private int running;

    InFlightLimit(int maxRunning, int maxWaiting) {
        if (maxRunning < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException(
                    "maxRunning must be positive and maxWaiting not negative");
        }
        this.maxRunning = maxRunning;
        this.maxWaiting = maxWaiting;
    }

    /**
     * Starts {@code operation} now, or when an earlier one completes.
     *
     * @return false when the limit and the waiting line are full; {@code operation} is then never
     *     started
     */
    boolean submit(Supplier<? extends CompletionStage<?>> operation) {
        synchronized (this) {
            if (running >= maxRunning) {
                if (waiting.size() >= maxWaiting) {
                    return false;
                }
                waiting.addLast(operation);
                return true;
            }
            running++;
        }
        start(operation);
        return true;
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.size();
    }

    private void start(Supplier<? extends CompletionStage<?>> operation) {
        CompletionStage<?> stage;
        try {
            stage = operation.get();
        } catch (Throwable e) {
            // The operation reports its own failure to its caller; its slot must still be given
            // back, whatever
            // failed, or the proxy loses it for good.
            finished();
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            return;
        }
        if (stage == null) {
            finished();
        } else {
            stage.whenComplete((result, error) -> finished());
        }
    }

    private void finished() {
        Supplier<? extends CompletionStage<?>> next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                running--;
                return;
            }
        }
        start(next); // the slot passes to the next operation without being released
    }
}
