package io.flinkinsight.harness.bench;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Sizes of the history a hub wrote to {@code stores.dir}, read from its files for the stores-dir
 * benchmark: the harness does not depend on the plugin, so this re-reads the plugin's file format
 * ({@code io.flinkinsight.plugin.durable.SegmentFormat}, version 1) itself — header {@code "FIS1"}
 * and version, records (type 1: a chunk — name, labels, count, first and last timestamp, Gorilla
 * words; 2, 3, 4: JSON with its length), trailer (type 0, record count, CRC-32). Only chunk records
 * are counted; the trailer's CRC is not checked (the plugin does that when it reads back).
 *
 * <p>The segments are written once and all count; of the tails ({@code tail-*.fis}, the open
 * chunks, replaced at every write) only the newest counts, as the others are about to be deleted or
 * hold chunks a segment holds now.
 */
final class StoreFileStats {

    private static final int MAGIC = 0x46495331; // "FIS1"
    private static final Pattern NAME =
            Pattern.compile("(segment|tail)-(\\d{1,19})-([0-9a-f]{8,32})-(\\d{1,19})\\.fis");

    /** Sums over chunk records. */
    static final class Sums {
        long chunks;
        long samples;

        /** The Gorilla words: 8 bytes each. */
        long payloadBytes;

        /** Whole records: type, key strings, count, timestamps, word count and words. */
        long recordBytes;

        long firstTimestamp = Long.MAX_VALUE;
        long lastTimestamp = Long.MIN_VALUE;
        final Set<String> series = new HashSet<>();

        double payloadPerSample() {
            return samples == 0 ? Double.NaN : (double) payloadBytes / samples;
        }

        double recordPerSample() {
            return samples == 0 ? Double.NaN : (double) recordBytes / samples;
        }

        double samplesPerChunk() {
            return chunks == 0 ? Double.NaN : (double) samples / chunks;
        }
    }

    /** What the files counted hold. */
    record Stats(
            int segmentFiles,
            int tailFiles,
            long fileBytes,
            long tailBytes,
            long jsonRecordBytes,
            Sums all,
            Sums matching) {}

    private StoreFileStats() {}

    /**
     * Reads the directory: the segments and the newest tail; other files are not ours. {@code
     * matching} sums the series whose {@link #key} {@code series} accepts.
     */
    static Stats read(Path dir, Predicate<String> series) throws IOException {
        List<Path> segments = new ArrayList<>();
        Path newestTail = null;
        long[] newestTailOrder = null;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                Matcher m = NAME.matcher(file.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                if (m.group(1).equals("segment")) {
                    segments.add(file);
                } else {
                    long[] order = {Long.parseLong(m.group(2)), Long.parseLong(m.group(4))};
                    if (newestTailOrder == null
                            || Comparator.<long[]>comparingLong(o -> o[0])
                                            .thenComparingLong(o -> o[1])
                                            .compare(order, newestTailOrder)
                                    > 0) {
                        newestTail = file;
                        newestTailOrder = order;
                    }
                }
            }
        }
        Sums all = new Sums();
        Sums matching = new Sums();
        long fileBytes = 0;
        long json = 0;
        List<Path> counted = new ArrayList<>(segments);
        long tailBytes = 0;
        if (newestTail != null) {
            counted.add(newestTail);
            tailBytes = Files.size(newestTail);
        }
        for (Path file : counted) {
            byte[] bytes = Files.readAllBytes(file);
            fileBytes += bytes.length;
            json += add(bytes, series, all, matching);
        }
        return new Stats(
                segments.size(),
                newestTail == null ? 0 : 1,
                fileBytes,
                tailBytes,
                json,
                all,
                matching);
    }

    /** Adds one file's chunk records to the sums; returns the bytes of its other (JSON) records. */
    static long add(byte[] file, Predicate<String> series, Sums all, Sums matching)
            throws IOException {
        long json = 0;
        int trailer = 1 + 4 + 8;
        if (file.length < 6 + trailer) {
            throw new IOException("a file of " + file.length + " bytes is too short");
        }
        DataInputStream trail =
                new DataInputStream(new ByteArrayInputStream(file, file.length - trailer, trailer));
        trail.readByte();
        int count = trail.readInt();
        DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(file, 0, file.length - trailer));
        if (in.readInt() != MAGIC) {
            throw new IOException("not a Flink Insight store file");
        }
        short version = in.readShort();
        if (version != 1) {
            throw new IOException("format version " + version + ", this reads 1");
        }
        for (int i = 0; i < count; i++) {
            byte type = in.readByte();
            if (type != 1) {
                int length = in.readInt();
                in.skipNBytes(length);
                json += 1 + 4 + length;
                continue;
            }
            long recordBytes = 1;
            String name = string(in);
            recordBytes += 4 + name.getBytes(StandardCharsets.UTF_8).length;
            int labels = in.readUnsignedShort();
            recordBytes += 2;
            Map<String, String> labelMap = new TreeMap<>();
            for (int l = 0; l < labels; l++) {
                String labelName = string(in);
                String labelValue = string(in);
                recordBytes +=
                        8
                                + labelName.getBytes(StandardCharsets.UTF_8).length
                                + labelValue.getBytes(StandardCharsets.UTF_8).length;
                labelMap.put(labelName, labelValue);
            }
            String key = key(name, labelMap);
            int samples = in.readInt();
            long first = in.readLong();
            long last = in.readLong();
            int words = in.readInt();
            in.skipNBytes(8L * words);
            recordBytes += 4 + 8 + 8 + 4 + 8L * words;
            List<Sums> targets = series.test(key) ? List.of(all, matching) : List.of(all);
            for (Sums s : targets) {
                s.chunks++;
                s.samples += samples;
                s.payloadBytes += 8L * words;
                s.recordBytes += recordBytes;
                s.firstTimestamp = Math.min(s.firstTimestamp, first);
                s.lastTimestamp = Math.max(s.lastTimestamp, last);
                s.series.add(key);
            }
        }
        return json;
    }

    /** A series' key: {@code name{label=value,...}}, the labels sorted by name. */
    static String key(String name, Map<String, String> labels) {
        StringBuilder key = new StringBuilder(name).append('{');
        new TreeMap<>(labels).forEach((l, v) -> key.append(l).append('=').append(v).append(','));
        return key.append('}').toString();
    }

    private static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > (1 << 20)) {
            throw new IOException("a string claims " + length + " bytes");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
