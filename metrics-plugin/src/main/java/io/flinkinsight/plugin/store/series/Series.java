package io.flinkinsight.plugin.store.series;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

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
     * The newest timestamp of the sealed chunks on disk (the durable stores): those ending after it
     * are still to be written.
     */
    private long writtenUpTo = Long.MIN_VALUE;

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

    /**
     * The sealed chunks not yet written to disk, oldest first; {@link #markWritten} once they are.
     */
    public synchronized List<ChunkData> unwrittenChunks() {
        List<ChunkData> out = new ArrayList<>();
        for (SealedChunk chunk : sealed) {
            if (chunk.lastTimestamp() > writtenUpTo) {
                out.add(chunk.data());
            }
        }
        return out;
    }

    /** The sealed chunks up to the one ending at {@code lastTimestamp} are on disk. */
    public synchronized void markWritten(long lastTimestamp) {
        writtenUpTo = Math.max(writtenUpTo, lastTimestamp);
    }

    /**
     * Seals the chunk being written when nothing was appended since {@code idleSinceMillis} (a
     * finished job's series): it goes to disk once, sealed, instead of in every tail.
     */
    public synchronized void sealIfIdle(long idleSinceMillis) {
        if (open != null && open.count() > 0 && lastWriteMillis < idleSinceMillis) {
            sealed.addLast(open.seal());
            open = null;
        }
    }

    /** A copy of the chunk being written, or null when it holds no sample. */
    public synchronized ChunkData openChunk() {
        return open == null || open.count() == 0 ? null : open.seal().data();
    }

    /**
     * Puts a chunk read back from disk before everything this series holds, if it ends before that
     * starts (else it overlaps what is here, and is dropped). Counts as already on disk.
     *
     * @return whether it was kept
     */
    public synchronized boolean restoreOlder(ChunkData chunk) {
        long firstHeld =
                !sealed.isEmpty()
                        ? sealed.peekFirst().firstTimestamp()
                        : open != null && open.count() > 0 ? open.firstTimestamp() : Long.MAX_VALUE;
        if (removed || chunk.lastTimestamp() >= firstHeld) {
            return false;
        }
        sealed.addFirst(chunk.toSealed());
        writtenUpTo = Math.max(writtenUpTo, chunk.lastTimestamp()); // read from disk: there already
        lastTimestamp = Math.max(lastTimestamp, chunk.lastTimestamp());
        // as if last written when its newest sample was taken: it expires with the retention
        lastWriteMillis = Math.max(lastWriteMillis, chunk.lastTimestamp());
        return true;
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
