package io.flinkinsight.plugin.store;

/**
 * Heap sizes of the shapes the stores hold, on a 64-bit JVM with compressed references (heaps below
 * 32 GiB): 12-byte object headers, 4-byte references, everything aligned to 8 bytes. What the
 * stores' byte estimates are built from; {@code StoreMemoryTest} checks them against the heap a
 * filled store really takes.
 */
public final class HeapSizes {

    /** An object header and its alignment: the smallest object. */
    public static final int OBJECT = 16;

    /** A reference field or array slot. */
    public static final int REFERENCE = 4;

    /**
     * A {@code HashMap} node (hash, key, value, next) plus its share of the table, about half full.
     */
    public static final int HASH_ENTRY = 32 + 2 * REFERENCE;

    private HeapSizes() {}

    /** An object with a 12-byte header and {@code fieldBytes} of fields, aligned. */
    public static long object(int fieldBytes) {
        return align(12L + fieldBytes);
    }

    public static long longArray(int length) {
        return align(16L + 8L * length);
    }

    public static long intArray(int length) {
        return align(16L + 4L * length);
    }

    public static long referenceArray(int length) {
        return align(16L + (long) REFERENCE * length);
    }

    /**
     * A string and its byte array (compact strings: one byte a char when all are Latin-1, else
     * two).
     */
    public static long string(String s) {
        if (s == null) {
            return 0;
        }
        int perChar = 1;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) {
                perChar = 2;
                break;
            }
        }
        return 24 + align(16L + (long) perChar * s.length());
    }

    /** An immutable list of {@code n} references as {@code List.copyOf} makes it. */
    public static long immutableList(int n) {
        if (n == 0) {
            return 0; // the shared empty list
        }
        if (n <= 2) {
            return 24; // List12: header and two fields
        }
        return 16 + ((16 + 4L * n + 7) & ~7); // ListN and its array
    }

    public static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
