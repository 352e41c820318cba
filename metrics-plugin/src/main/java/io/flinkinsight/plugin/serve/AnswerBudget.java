package io.flinkinsight.plugin.serve;

import org.apache.flink.annotation.VisibleForTesting;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The byte budget of the JSON answers ({@code http.max-answer-bytes}): an answer is serialised into
 * a stream that stops at the budget, so no request makes the server write, or hold, more than that;
 * and the answers written (or waiting to be written) to readers hold at most {@value #HELD_ANSWERS}
 * budgets in all.
 */
final class AnswerBudget {

    /** How many full budgets the answers on their way to readers may hold together. */
    static final int HELD_ANSWERS = 4;

    /** The answer would be larger than the budget; nothing of it is sent. */
    static final class TooLargeException extends IOException {
        TooLargeException(long maxBytes) {
            super("the answer is larger than " + maxBytes + " bytes");
        }
    }

    private final long maxAnswerBytes;
    private final long maxHeldBytes;
    private long held;

    AnswerBudget(long maxAnswerBytes) {
        if (maxAnswerBytes < 1 || maxAnswerBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "maxAnswerBytes must be between 1 and " + (Integer.MAX_VALUE - 8));
        }
        this.maxAnswerBytes = maxAnswerBytes;
        this.maxHeldBytes = HELD_ANSWERS * maxAnswerBytes;
    }

    long maxAnswerBytes() {
        return maxAnswerBytes;
    }

    /** {@code out}, failing with {@link TooLargeException} before a write would pass the budget. */
    OutputStream bounded(OutputStream out) {
        return new FilterOutputStream(out) {
            private long written;

            @Override
            public void write(int b) throws IOException {
                count(1);
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                count(len);
                out.write(b, off, len);
            }

            private void count(int n) throws TooLargeException {
                if (written + n > maxAnswerBytes) {
                    throw new TooLargeException(maxAnswerBytes);
                }
                written += n;
            }
        };
    }

    /**
     * Takes {@code bytes} of the held budget for an answer until it was written; false when the
     * answers on their way hold too much already (one answer alone is always let through).
     */
    synchronized boolean hold(long bytes) {
        if (held > 0 && held + bytes > maxHeldBytes) {
            return false;
        }
        held += bytes;
        return true;
    }

    synchronized void release(long bytes) {
        held -= bytes;
    }

    @VisibleForTesting
    synchronized long held() {
        return held;
    }
}
