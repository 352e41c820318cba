package io.flinkinsight.plugin.exposition;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A byte buffer the writers fill without creating Strings for numbers: pre-rendered name and label
 * bytes are copied in, integers and most doubles are formatted straight into the buffer, and full
 * chunks go to the target stream.
 */
public final class ExpositionBuffer {

    private static final int CHUNK = 64 * 1024;
    private static final byte[] NAN = {'N', 'a', 'N'};
    private static final byte[] POS_INF = {'+', 'I', 'n', 'f'};
    private static final byte[] NEG_INF = {'-', 'I', 'n', 'f'};

    /** Below 2^53 every integral double is exact, so writing it as a long loses nothing. */
    private static final double EXACT_LONG_LIMIT = 9.007199254740992E15;

    private final OutputStream target;
    private final byte[] buf = new byte[CHUNK];
    private int pos;
    private long written;

    public ExpositionBuffer(OutputStream target) {
        this.target = target;
    }

    public void write(byte b) {
        if (pos == buf.length) {
            drain();
        }
        buf[pos++] = b;
    }

    public void write(byte[] bytes) {
        int len = bytes.length;
        if (len > buf.length - pos) {
            drain();
            if (len > buf.length) {
                writeThrough(bytes);
                return;
            }
        }
        System.arraycopy(bytes, 0, buf, pos, len);
        pos += len;
    }

    /**
     * Writes a String of ASCII characters (names, keywords); other characters must go through UTF-8
     * bytes.
     */
    public void writeAscii(String s) {
        int len = s.length();
        if (len > buf.length - pos) {
            drain();
            if (len > buf.length) {
                writeThrough(s.getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        for (int i = 0; i < len; i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    public void writeLong(long v) {
        if (buf.length - pos < 20) {
            drain();
        }
        if (v == Long.MIN_VALUE) {
            writeAscii("-9223372036854775808");
            return;
        }
        if (v < 0) {
            buf[pos++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        int end = pos + digits;
        for (int i = end - 1; i >= pos; i--) {
            buf[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        pos = end;
    }

    /**
     * Prometheus/OpenMetrics spelling: {@code NaN}, {@code +Inf}, {@code -Inf}, integers without
     * ".0".
     */
    public void writeDouble(double v) {
        if (Double.isNaN(v)) {
            write(NAN);
        } else if (v == Double.POSITIVE_INFINITY) {
            write(POS_INF);
        } else if (v == Double.NEGATIVE_INFINITY) {
            write(NEG_INF);
        } else if (v == Math.rint(v) && Math.abs(v) < EXACT_LONG_LIMIT) {
            writeLong((long) v);
        } else {
            writeAscii(Double.toString(v));
        }
    }

    /** Bytes written so far, including those still buffered. */
    public long size() {
        return written + pos;
    }

    /** Sends buffered bytes to the target (does not flush the target itself). */
    public void drain() {
        if (pos == 0) {
            return;
        }
        try {
            target.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        written += pos;
        pos = 0;
    }

    private void writeThrough(byte[] bytes) {
        try {
            target.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        written += bytes.length;
    }
}
