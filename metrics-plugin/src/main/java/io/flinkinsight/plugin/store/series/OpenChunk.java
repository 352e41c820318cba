package io.flinkinsight.plugin.store.series;

/**
 * The chunk currently written: Gorilla compression (delta-of-delta timestamps, XOR'd doubles) into
 * a bit stream. Not thread-safe; its {@link Series} guards it.
 */
final class OpenChunk {

    private final BitOutput out = new BitOutput(4);
    private int count;
    private long firstTimestamp;
    private long lastTimestamp;
    private long lastDelta;
    private long lastValueBits;
    private int lastLeading = -1;
    private int lastTrailing;

    void append(long timestampMillis, double value) {
        long bits = Double.doubleToRawLongBits(value);
        if (count == 0) {
            firstTimestamp = timestampMillis;
            out.writeBits(timestampMillis, 64);
            out.writeBits(bits, 64);
        } else {
            long delta = timestampMillis - lastTimestamp;
            writeDeltaOfDelta(delta - lastDelta);
            lastDelta = delta;
            writeValue(bits ^ lastValueBits);
        }
        lastTimestamp = timestampMillis;
        lastValueBits = bits;
        count++;
    }

    private void writeDeltaOfDelta(long dod) {
        if (dod == 0) {
            out.writeBit(false);
        } else if (dod >= -64 && dod <= 63) {
            out.writeBits(0b10, 2);
            out.writeBits(dod, 7);
        } else if (dod >= -256 && dod <= 255) {
            out.writeBits(0b110, 3);
            out.writeBits(dod, 9);
        } else if (dod >= -2048 && dod <= 2047) {
            out.writeBits(0b1110, 4);
            out.writeBits(dod, 12);
        } else if (dod >= Integer.MIN_VALUE && dod <= Integer.MAX_VALUE) {
            out.writeBits(0b11110, 5);
            out.writeBits(dod, 32);
        } else {
            out.writeBits(0b11111, 5);
            out.writeBits(dod, 64);
        }
    }

    private void writeValue(long xor) {
        if (xor == 0) {
            out.writeBit(false);
            return;
        }
        out.writeBit(true);
        // 5 bits hold the leading-zero count, so cap it at 31 (the extra zeros are then stored as
        // meaningful bits).
        int leading = Math.min(Long.numberOfLeadingZeros(xor), 31);
        int trailing = Long.numberOfTrailingZeros(xor);
        if (lastLeading >= 0 && leading >= lastLeading && trailing >= lastTrailing) {
            out.writeBit(false);
            out.writeBits(xor >>> lastTrailing, 64 - lastLeading - lastTrailing);
        } else {
            int significant = 64 - leading - trailing;
            out.writeBit(true);
            out.writeBits(leading, 5);
            out.writeBits(significant - 1, 6);
            out.writeBits(xor >>> trailing, significant);
            lastLeading = leading;
            lastTrailing = trailing;
        }
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

    /** Decodes what was written so far; the caller holds the series lock. */
    void forEach(SampleVisitor visitor) {
        ChunkDecoder.decode(out.words(), count, visitor);
    }

    SealedChunk seal() {
        return new SealedChunk(out.toTrimmedWords(), count, firstTimestamp, lastTimestamp);
    }

    long estimatedBytes() {
        return 16 + 8 * 6 + out.estimatedBytes();
    }
}
