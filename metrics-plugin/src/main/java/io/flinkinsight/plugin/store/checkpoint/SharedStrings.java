package io.flinkinsight.plugin.store.checkpoint;

import io.flinkinsight.plugin.store.HeapSizes;

import java.util.HashMap;

/**
 * One instance of each string a job's checkpoints repeat (job name, vertex ids, status, type), so a
 * thousand checkpoints of a job hold its vertex ids once. Bounded: beyond {@value #MAX_STRINGS}
 * distinct strings a string is kept as given, and its holder counts it.
 */
final class SharedStrings {

    static final int MAX_STRINGS = 4096;

    private final HashMap<String, String> table = new HashMap<>();
    private long bytes = HeapSizes.object(8 * HeapSizes.REFERENCE);

    /** The shared instance equal to {@code s} (null for null). */
    String share(String s) {
        if (s == null) {
            return null;
        }
        String shared = table.get(s);
        if (shared != null) {
            return shared;
        }
        if (table.size() >= MAX_STRINGS) {
            return s;
        }
        table.put(s, s);
        bytes += HeapSizes.HASH_ENTRY + HeapSizes.string(s);
        return s;
    }

    /** Heap bytes of {@code s} when this table does not hold it (its holder counts it), else 0. */
    long unsharedBytes(String s) {
        return s == null || table.get(s) == s ? 0 : HeapSizes.string(s);
    }

    /** Estimated heap of the table and the strings it holds. */
    long bytes() {
        return bytes;
    }
}
