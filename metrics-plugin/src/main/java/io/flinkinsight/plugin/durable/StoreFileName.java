package io.flinkinsight.plugin.durable;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a file the hub writes to its directory: {@code <kind>-<newest>-<writer>-<seq>.fis},
 * the newest timestamp first so retention and the byte bound pick files by name, without reading
 * them. A writer is one hub's run (its start and a random part), so two JobManagers that both
 * believe they lead never write the same file. Any other name is not ours and is left alone.
 *
 * @param kind {@link #SEGMENT} (written once: sealed history, checkpoints, jobs, statements) or
 *     {@link #TAIL} (the history not sealed yet, replaced at every write)
 * @param newestMillis the newest timestamp the file holds
 */
record StoreFileName(String kind, long newestMillis, String writer, long sequence) {

    static final String SEGMENT = "segment";
    static final String TAIL = "tail";
    static final String SUFFIX = ".fis";

    private static final Pattern NAME =
            Pattern.compile("(segment|tail)-(\\d{1,19})-([0-9a-f]{8,32})-(\\d{1,19})\\.fis");

    /** The writer part for a hub started now: its start in hex and 32 random bits. */
    static String newWriter(long startMillis, int random) {
        return String.format(Locale.ROOT, "%011x%08x", startMillis, random);
    }

    String fileName() {
        return kind + "-" + newestMillis + "-" + writer + "-" + sequence + SUFFIX;
    }

    boolean isTail() {
        return TAIL.equals(kind);
    }

    /** The name parsed, or null when it is not one of ours. */
    static StoreFileName parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return null;
        }
        try {
            return new StoreFileName(
                    m.group(1), Long.parseLong(m.group(2)), m.group(3), Long.parseLong(m.group(4)));
        } catch (NumberFormatException e) { // 19 digits above Long.MAX_VALUE
            return null;
        }
    }
}
