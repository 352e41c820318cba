package io.flinkinsight.plugin.store.series;

/** Decodes the bit stream written by {@link OpenChunk}. */
final class ChunkDecoder {

    private ChunkDecoder() {}

    static void decode(long[] words, int count, SampleVisitor visitor) {
        if (count == 0) {
            return;
        }
        BitInput in = new BitInput(words);
        long timestamp = in.readBits(64);
        long valueBits = in.readBits(64);
        visitor.accept(timestamp, Double.longBitsToDouble(valueBits));
        long delta = 0;
        int leading = 0;
        int trailing = 0;
        for (int i = 1; i < count; i++) {
            delta += readDeltaOfDelta(in);
            timestamp += delta;
            if (in.readBit()) {
                if (in.readBit()) {
                    leading = (int) in.readBits(5);
                    int significant = (int) in.readBits(6) + 1;
                    trailing = 64 - leading - significant;
                }
                long meaningful = in.readBits(64 - leading - trailing);
                valueBits ^= meaningful << trailing;
            }
            visitor.accept(timestamp, Double.longBitsToDouble(valueBits));
        }
    }

    private static long readDeltaOfDelta(BitInput in) {
        if (!in.readBit()) {
            return 0;
        }
        if (!in.readBit()) {
            return in.readSigned(7);
        }
        if (!in.readBit()) {
            return in.readSigned(9);
        }
        if (!in.readBit()) {
            return in.readSigned(12);
        }
        return in.readBit() ? in.readSigned(64) : in.readSigned(32);
    }
}
