package io.flinkinsight.harness;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bounded polling: every wait of the harness ends, with a message saying what it waited for and why
 * it failed.
 */
public final class Waits {

    private Waits() {}

    /**
     * A probe that may not have its answer yet; it may throw while the thing it asks is still
     * starting.
     */
    @FunctionalInterface
    public interface Probe<T> {
        Optional<T> poll() throws Exception;
    }

    /**
     * Polls {@code probe} every {@code interval} until it answers or {@code timeout} is over.
     *
     * @param diagnostics called once on failure, e.g. the tail of a log, appended to the error
     * @throws IllegalStateException on timeout, with the last probe exception as the cause
     */
    public static <T> T until(
            String what,
            Duration timeout,
            Duration interval,
            Probe<T> probe,
            Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                Optional<T> answer = probe.poll();
                if (answer.isPresent()) {
                    return answer.get();
                }
            } catch (AbortException e) {
                throw new IllegalStateException(
                        "Stopped waiting for "
                                + what
                                + ": "
                                + e.getMessage()
                                + "\n"
                                + diagnostics.get(),
                        e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Timed out after "
                                + timeout.toSeconds()
                                + " s waiting for "
                                + what
                                + (last == null ? "" : " (last error: " + last + ")")
                                + "\n"
                                + diagnostics.get(),
                        last);
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
    }

    /**
     * Thrown by a probe that knows waiting longer is useless, e.g. because the process it waits for
     * died.
     */
    public static final class AbortException extends RuntimeException {
        public AbortException(String message) {
            super(message);
        }
    }
}
