package io.flinkinsight.plugin.store.series;

/**
 * An immutable compressed run of samples; dropped whole once its newest sample leaves the retention
 * window.
 */
final class SealedChunk {

    private final long[] words;
    private final int count;
    private final long firstTimestamp;
    private final long lastTimestamp;

    SealedChunk(long[] words, int count, long firstTimestamp, long lastTimestamp) {
        this.words = words;
        this.count = count;
        this.firstTimestamp = firstTimestamp;
        this.lastTimestamp = lastTimestamp;
    }

    int count() {
        return count;
    }

    long firstTimestamp() {
        return firstTimestamp;
    }

    long lastTimestamp() {
        return lastTimestamp;
    }

    void forEach(SampleVisitor visitor) {
        ChunkDecoder.decode(words, count, visitor);
    }

    ChunkData data() {
        return new ChunkData(words, count, firstTimestamp, lastTimestamp);
    }

    long estimatedBytes() {
        // object header + fields, then the array's header and payload
        return 16 + 8 + 4 + 8 + 8 + 16 + 8L * words.length;
    }
}
