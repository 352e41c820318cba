package io.flinkinsight.plugin.store.series;

/** Reads a bit stream written by {@link BitOutput}, most-significant bit first. */
final class BitInput {

    private final long[] words;
    private int position;

    BitInput(long[] words) {
        this.words = words;
    }

    static long mask(int n) {
        return n == 64 ? -1L : (1L << n) - 1;
    }

    /** Reads {@code n} bits (1 <= n <= 64) as an unsigned value. */
    long readBits(int n) {
        int wordIndex = position >>> 6;
        int available = 64 - (position & 63);
        position += n;
        if (n <= available) {
            return (words[wordIndex] >>> (available - n)) & mask(n);
        }
        int rest = n - available;
        return ((words[wordIndex] & mask(available)) << rest)
                | (words[wordIndex + 1] >>> (64 - rest));
    }

    boolean readBit() {
        return readBits(1) != 0;
    }

    /** Reads {@code n} bits as a two's complement signed value. */
    long readSigned(int n) {
        long raw = readBits(n);
        return n == 64 ? raw : (raw << (64 - n)) >> (64 - n);
    }
}
