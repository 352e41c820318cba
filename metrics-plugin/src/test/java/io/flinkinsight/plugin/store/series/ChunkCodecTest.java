package io.flinkinsight.plugin.store.series;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Round trips of the Gorilla chunk codec, bit for bit. */
class ChunkCodecTest {

    private static final long T0 = 1_700_000_000_000L;

    @Test
    void randomValuesAndIrregularTimestampsRoundTripBitExactly() {
        Random random = new Random(42);
        long[] ts = new long[2000];
        double[] values = new double[ts.length];
        long t = T0;
        for (int i = 0; i < ts.length; i++) {
            // jitter, gaps, huge jumps: every delta-of-delta bucket gets used
            int kind = random.nextInt(6);
            t +=
                    switch (kind) {
                        case 0 -> 5_000;
                        case 1 -> 5_000 + random.nextInt(120) - 60;
                        case 2 -> 5_000 + random.nextInt(500);
                        case 3 -> 1 + random.nextInt(4_000);
                        case 4 -> 60_000L * (1 + random.nextInt(1_000));
                        default -> 1L + (random.nextLong() >>> 30);
                    };
            ts[i] = t;
            values[i] =
                    switch (random.nextInt(5)) {
                        case 0 -> random.nextDouble();
                        case 1 -> Double.longBitsToDouble(random.nextLong());
                        case 2 -> random.nextInt(100);
                        case 3 -> i > 0 ? values[i - 1] : 0;
                        default -> random.nextGaussian() * 1e12;
                    };
        }
        assertRoundTrip(ts, values);
    }

    @Test
    void specialDoublesKeepTheirExactBits() {
        double[] values = {
            Double.NaN,
            Double.longBitsToDouble(0x7ff8_0000_0000_0001L), // NaN with a payload
            Double.longBitsToDouble(0xfff0_0000_0000_0001L), // signalling-style negative NaN
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            -0.0,
            0.0,
            Double.MIN_VALUE,
            -Double.MAX_VALUE,
            Double.MAX_VALUE,
            Double.NaN,
            1.0
        };
        long[] ts = new long[values.length];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = T0 + 5_000L * i;
        }
        assertRoundTrip(ts, values);
    }

    @Test
    void steadyCounterCompressesBelowThreeBytesPerSample() {
        OpenChunk chunk = new OpenChunk();
        long counter = 0;
        for (int i = 0; i < 240; i++) {
            counter += 1_000 + (i % 7);
            chunk.append(T0 + 5_000L * i, counter);
        }
        SealedChunk sealed = chunk.seal();
        double payloadBytesPerSample = (sealed.estimatedBytes() - 64) / 240.0;
        assertThat(payloadBytesPerSample).isLessThan(3.0);
    }

    @Test
    void constantGaugeCostsLessThanABytePerSample() {
        OpenChunk chunk = new OpenChunk();
        for (int i = 0; i < 240; i++) {
            chunk.append(T0 + 5_000L * i, 0.75);
        }
        assertThat(chunk.seal().estimatedBytes()).isLessThan(240);
    }

    private static void assertRoundTrip(long[] ts, double[] values) {
        OpenChunk chunk = new OpenChunk();
        for (int i = 0; i < ts.length; i++) {
            chunk.append(ts[i], values[i]);
        }
        List<long[]> openDecoded = decode(chunk::forEach);
        List<long[]> sealedDecoded = decode(chunk.seal()::forEach);
        assertThat(openDecoded).hasSize(ts.length);
        for (int i = 0; i < ts.length; i++) {
            assertThat(openDecoded.get(i)[0]).as("timestamp %d", i).isEqualTo(ts[i]);
            assertThat(openDecoded.get(i)[1])
                    .as("value bits %d", i)
                    .isEqualTo(Double.doubleToRawLongBits(values[i]));
        }
        assertThat(sealedDecoded).usingRecursiveComparison().isEqualTo(openDecoded);
    }

    private static List<long[]> decode(java.util.function.Consumer<SampleVisitor> source) {
        List<long[]> out = new ArrayList<>();
        source.accept((t, v) -> out.add(new long[] {t, Double.doubleToRawLongBits(v)}));
        return out;
    }
}
