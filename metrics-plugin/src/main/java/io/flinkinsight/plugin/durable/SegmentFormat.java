package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.series.ChunkData;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The bytes of one file of the hub's directory: a header ({@value #MAGIC} and the format version),
 * records (a series' compressed chunk, or a checkpoint, job or the statements as JSON), and a
 * trailer with the record count and a CRC-32 of all before it. The trailer is the file's own
 * manifest: a file is whole when it ends in one that matches, so a write cut short by a crash, a
 * damaged or a foreign file is refused as a whole, never half read.
 */
final class SegmentFormat {

    static final int MAGIC = 0x46495331; // "FIS1"
    static final short VERSION = 1;

    static final byte CHUNK = 1;
    static final byte CHECKPOINT = 2;
    static final byte JOB = 3;
    static final byte STATEMENTS = 4;
    private static final byte END = 0;

    /** type, record count, CRC-32 */
    private static final int TRAILER_BYTES = 1 + 4 + 8;

    /** The longest string a file may hold: names and label values are far shorter. */
    private static final int MAX_STRING_BYTES = 1 << 20;

    private static final int MAX_LABELS = 1_024;

    private SegmentFormat() {}

    /** Builds one file in the heap; bounded by the caller, who stops adding at its byte budget. */
    static final class Writer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4_096);
        private final CRC32 crc = new CRC32();
        // the CRC follows the bytes as they are written: no second copy of the file to compute it
        private final DataOutputStream out =
                new DataOutputStream(new CheckedOutputStream(bytes, crc));
        private int records;

        Writer() {
            try {
                out.writeInt(MAGIC);
                out.writeShort(VERSION);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
            }
        }

        int size() {
            return bytes.size();
        }

        int records() {
            return records;
        }

        void chunk(SeriesKey key, ChunkData chunk) {
            try {
                out.writeByte(CHUNK);
                writeString(key.name());
                out.writeShort(key.labelNames().size());
                for (int i = 0; i < key.labelNames().size(); i++) {
                    writeString(key.labelNames().get(i));
                    writeString(key.labelValues().get(i));
                }
                out.writeInt(chunk.count());
                out.writeLong(chunk.firstTimestamp());
                out.writeLong(chunk.lastTimestamp());
                out.writeInt(chunk.words().length);
                for (long w : chunk.words()) {
                    out.writeLong(w);
                }
                records++;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void json(byte type, byte[] json) {
            try {
                out.writeByte(type);
                out.writeInt(json.length);
                out.write(json);
                records++;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        byte[] finish() {
            try {
                out.flush();
                long checksum = crc.getValue();
                out.writeByte(END);
                out.writeInt(records);
                out.writeLong(checksum);
                out.flush();
                return bytes.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void writeString(String s) throws IOException {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(utf8.length);
            out.write(utf8);
        }
    }

    /** A series' chunk as a file holds it. */
    record KeyedChunk(SeriesKey key, ChunkData chunk) {}

    /** What a whole file holds, in the order it was written. */
    record Contents(
            List<KeyedChunk> chunks,
            List<byte[]> checkpoints,
            List<byte[]> jobs,
            byte[] statements) {}

    /**
     * Reads a whole file; throws, saying why, when it is not one: too short, another format, a
     * trailer that does not match (a write cut short), or records that do not parse or decode.
     */
    static Contents read(byte[] file) throws IOException {
        return read(file, new HashMap<>());
    }

    /**
     * As {@link #read(byte[])}, the strings of the series' keys taken from (and added to) {@code
     * strings}: a read back of many files holds each name and label once, not once a chunk.
     */
    static Contents read(byte[] file, Map<String, String> strings) throws IOException {
        if (file.length < 6 + TRAILER_BYTES) {
            throw new IOException("it is too short (" + file.length + " bytes) to be whole");
        }
        int body = file.length - TRAILER_BYTES;
        DataInputStream trailer =
                new DataInputStream(new ByteArrayInputStream(file, body, TRAILER_BYTES));
        byte end = trailer.readByte();
        int count = trailer.readInt();
        long crcWritten = trailer.readLong();
        CRC32 crc = new CRC32();
        crc.update(file, 0, body);
        if (end != END || crc.getValue() != crcWritten) {
            throw new IOException("its trailer does not match its content (cut short or damaged)");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(file, 0, body));
        if (in.readInt() != MAGIC) {
            throw new IOException("it is not a Flink Insight store file");
        }
        short version = in.readShort();
        if (version != VERSION) {
            throw new IOException(
                    "it has format version " + version + ", this plugin reads " + VERSION);
        }
        List<KeyedChunk> chunks = new ArrayList<>();
        List<byte[]> checkpoints = new ArrayList<>();
        List<byte[]> jobs = new ArrayList<>();
        byte[] statements = null;
        for (int i = 0; i < count; i++) {
            byte type = in.readByte();
            switch (type) {
                case CHUNK -> chunks.add(readChunk(in, body, strings));
                case CHECKPOINT -> checkpoints.add(readBytes(in, body));
                case JOB -> jobs.add(readBytes(in, body));
                case STATEMENTS -> statements = readBytes(in, body);
                default -> throw new IOException("record " + i + " has unknown type " + type);
            }
        }
        if (in.available() != 0) {
            throw new IOException(in.available() + " bytes follow its last record");
        }
        return new Contents(chunks, checkpoints, jobs, statements);
    }

    private static KeyedChunk readChunk(DataInputStream in, int body, Map<String, String> strings)
            throws IOException {
        String name = shared(readString(in), strings);
        int labels = in.readUnsignedShort();
        if (labels > MAX_LABELS) {
            throw new IOException("a series has " + labels + " labels");
        }
        List<String> names = new ArrayList<>(labels);
        List<String> values = new ArrayList<>(labels);
        for (int i = 0; i < labels; i++) {
            names.add(shared(readString(in), strings));
            values.add(shared(readString(in), strings));
        }
        int count = in.readInt();
        long first = in.readLong();
        long last = in.readLong();
        int wordCount = in.readInt();
        if (wordCount < 0 || wordCount > body / 8) {
            throw new IOException("a chunk of " + name + " claims " + wordCount + " words");
        }
        long[] words = new long[wordCount];
        for (int i = 0; i < wordCount; i++) {
            words[i] = in.readLong();
        }
        ChunkData chunk = new ChunkData(words, count, first, last);
        if (!chunk.decodesWhole()) {
            throw new IOException("a chunk of " + name + " does not decode");
        }
        return new KeyedChunk(new SeriesKey(name, names, values), chunk);
    }

    private static String shared(String s, Map<String, String> strings) {
        String known = strings.putIfAbsent(s, s);
        return known == null ? s : known;
    }

    private static byte[] readBytes(DataInputStream in, int body) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > body) {
            throw new IOException("a record claims " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_STRING_BYTES) {
            throw new IOException("a string claims " + length + " bytes");
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(utf8))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException("a string is not UTF-8", e);
        }
    }
}
