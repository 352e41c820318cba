package io.flinkinsight.plugin.store.series;

import java.util.ArrayDeque;

/**
 * The history of one series: sealed compressed chunks, oldest first, plus the open chunk being
 * written. Writers (the sampler and the hub) and readers (HTTP threads) meet on this object's
 * monitor, held for microseconds. Public only for {@code SeriesStore}; not an API of the plugin.
 */
public final class Series {

    private final ArrayDeque<SealedChunk> sealed = new ArrayDeque<>(8);
    private final long keyBytes;
    private OpenChunk open;
    private long lastTimestamp = Long.MIN_VALUE;
    private long lastWriteMillis;
    private boolean removed;

    /**
     * @param keyBytes the estimated heap this series' key objects and map entry take, counted in
     *     its footprint
     */
    public Series(long keyBytes) {
        this.keyBytes = keyBytes;
    }

    /**
     * Appends a sample newer than the last one.
     *
     * @return false when the sample is out of order (dropped) or this series was already removed
     */
    public synchronized boolean append(
            long timestampMillis,
            double value,
            long nowMillis,
            int maxChunkSamples,
            long maxChunkSpanMillis) {
        if (removed || timestampMillis <= lastTimestamp) {
            return false;
        }
        if (open == null) {
            open = new OpenChunk();
        } else if (open.count() >= maxChunkSamples
                || timestampMillis - open.firstTimestamp() >= maxChunkSpanMillis) {
            sealed.addLast(open.seal());
            open = new OpenChunk();
        }
        open.append(timestampMillis, value);
        lastTimestamp = timestampMillis;
        lastWriteMillis = nowMillis;
        return true;
    }

    public synchronized boolean isRemoved() {
        return removed;
    }

    /** When a sample was last appended, by the store's clock (0 when never). */
    public synchronized long lastWriteMillis() {
        return lastWriteMillis;
    }

    /**
     * Marks the series removed and drops its samples, so a writer still holding it appends nothing
     * more.
     */
    public synchronized void remove() {
        removed = true;
        sealed.clear();
        open = null;
    }

    /**
     * Drops chunks whose newest sample is older than {@code cutoffMillis}; marks the whole series
     * removed when nothing was written since {@code staleBeforeMillis}.
     *
     * @return true when the series is now removed
     */
    public synchronized boolean evict(long cutoffMillis, long staleBeforeMillis) {
        while (!sealed.isEmpty() && sealed.peekFirst().lastTimestamp() < cutoffMillis) {
            sealed.pollFirst();
        }
        if (lastWriteMillis < staleBeforeMillis) {
            removed = true;
            sealed.clear();
            open = null;
        }
        return removed;
    }

    /** Visits samples with {@code from <= t <= to}, in time order. */
    public synchronized void read(long fromMillis, long toMillis, SampleVisitor visitor) {
        SampleVisitor window =
                (t, v) -> {
                    if (t >= fromMillis && t <= toMillis) {
                        visitor.accept(t, v);
                    }
                };
        for (SealedChunk chunk : sealed) {
            if (chunk.lastTimestamp() >= fromMillis && chunk.firstTimestamp() <= toMillis) {
                chunk.forEach(window);
            }
        }
        if (open != null
                && open.lastTimestamp() >= fromMillis
                && open.firstTimestamp() <= toMillis) {
            open.forEach(window);
        }
    }

    public synchronized long lastTimestamp() {
        return lastTimestamp;
    }

    public synchronized long sampleCount() {
        long n = open == null ? 0 : open.count();
        for (SealedChunk chunk : sealed) {
            n += chunk.count();
        }
        return n;
    }

    public synchronized long estimatedBytes() {
        long bytes =
                keyBytes + 16 + 8 * 5 + 24 + 16
                        + 8L * 9; // key, this object, the deque and its array
        if (open != null) {
            bytes += open.estimatedBytes();
        }
        for (SealedChunk chunk : sealed) {
            bytes += chunk.estimatedBytes();
        }
        return bytes;
    }
}
