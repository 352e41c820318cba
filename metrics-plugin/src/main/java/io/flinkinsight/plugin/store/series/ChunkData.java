package io.flinkinsight.plugin.store.series;

/**
 * A compressed run of one series' samples as it travels to and from disk: the bit stream of {@link
 * OpenChunk}, its sample count and its first and last timestamps. Public only for the durable
 * stores; not an API of the plugin.
 */
public record ChunkData(long[] words, int count, long firstTimestamp, long lastTimestamp) {

    /** The most samples a chunk read back may hold: far above what a chunk seals at. */
    public static final int MAX_COUNT = 1 << 20;

    /**
     * Whether the words decode to {@code count} samples in strictly increasing time from {@code
     * firstTimestamp} to {@code lastTimestamp}: checked once on what is read back, so a damaged
     * chunk is refused before a reader meets it.
     */
    public boolean decodesWhole() {
        if (count <= 0
                || count > MAX_COUNT
                || firstTimestamp > lastTimestamp
                || words.length
                        > (count * 146L + 191) / 64) { // 128 bits, then at most 146 a sample
            return false;
        }
        long[] seen = {0, Long.MIN_VALUE};
        boolean[] ordered = {true};
        try {
            ChunkDecoder.decode(
                    words,
                    count,
                    (t, v) -> {
                        if (t <= seen[1]) {
                            ordered[0] = false;
                        }
                        if (seen[0] == 0 && t != firstTimestamp) {
                            ordered[0] = false;
                        }
                        seen[0]++;
                        seen[1] = t;
                    });
        } catch (RuntimeException e) { // words too short for count: the bit reader runs off
            return false;
        }
        return ordered[0] && seen[0] == count && seen[1] == lastTimestamp;
    }

    SealedChunk toSealed() {
        return new SealedChunk(words, count, firstTimestamp, lastTimestamp);
    }
}
