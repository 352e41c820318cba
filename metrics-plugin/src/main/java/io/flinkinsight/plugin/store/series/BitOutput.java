package io.flinkinsight.plugin.store.series;

import java.util.Arrays;

/**
 * A growable bit stream written most-significant bit first, the storage of an open compressed
 * chunk.
 */
final class BitOutput {

    private long[] words;
    private int bitCount;

    BitOutput(int initialWords) {
        this.words = new long[Math.max(1, initialWords)];
    }

    /** Appends the low {@code n} bits of {@code value} (1 <= n <= 64). */
    void writeBits(long value, int n) {
        long v = value & BitInput.mask(n);
        int wordIndex = bitCount >>> 6;
        int free = 64 - (bitCount & 63);
        ensureCapacity(wordIndex + (n > free ? 2 : 1));
        if (n <= free) {
            words[wordIndex] |= v << (free - n);
        } else {
            int rest = n - free;
            words[wordIndex] |= v >>> rest;
            words[wordIndex + 1] |= v << (64 - rest);
        }
        bitCount += n;
    }

    void writeBit(boolean bit) {
        writeBits(bit ? 1L : 0L, 1);
    }

    int bitCount() {
        return bitCount;
    }

    /** The backing words; only the first {@link #bitCount()} bits are meaningful. */
    long[] words() {
        return words;
    }

    /** A copy holding exactly the written bits, for an immutable sealed chunk. */
    long[] toTrimmedWords() {
        return Arrays.copyOf(words, (bitCount + 63) >>> 6);
    }

    long estimatedBytes() {
        return 16 + 8 + 16 + 8L * words.length;
    }

    private void ensureCapacity(int wordsNeeded) {
        if (wordsNeeded > words.length) {
            // Grow by half rather than doubling: an open chunk lives long, so waste matters more
            // than copies.
            words =
                    Arrays.copyOf(
                            words, Math.max(wordsNeeded, words.length + (words.length >>> 1) + 1));
        }
    }
}
