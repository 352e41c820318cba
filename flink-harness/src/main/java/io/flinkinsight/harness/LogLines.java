package io.flinkinsight.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The ERROR and WARN lines Flink processes logged since a moment (a benchmark block, a test's
 * queries): what a platform engineer's log alerts would see. Remembers where each log file ended,
 * then counts the level of each line written since (Flink's default log4j layout: date, time,
 * level).
 */
public final class LogLines {

    private static final Pattern LEVEL =
            Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} (ERROR|WARN) ");

    /** Lines at ERROR and at WARN. */
    public record Counts(int errors, int warnings) {
        public static final Counts NONE = new Counts(0, 0);

        public Counts plus(Counts other) {
            return new Counts(errors + other.errors, warnings + other.warnings);
        }
    }

    private final List<Path> files;
    private final long[] offsets;

    private LogLines(List<Path> files) {
        this.files = List.copyOf(files);
        this.offsets = new long[files.size()];
        for (int i = 0; i < files.size(); i++) {
            offsets[i] = size(files.get(i));
        }
    }

    /** From where {@code files} end now. */
    public static LogLines from(List<Path> files) {
        return new LogLines(files);
    }

    /** The ERROR and WARN lines written since {@link #from}, up to where each file ends now. */
    public Counts sinceStart() {
        return sinceStart(line -> true);
    }

    /** As {@link #sinceStart()}, of the lines {@code which} accepts only. */
    public Counts sinceStart(Predicate<String> which) {
        Counts counts = Counts.NONE;
        for (int i = 0; i < files.size(); i++) {
            counts = counts.plus(count(files.get(i), offsets[i], size(files.get(i)), which));
        }
        return counts;
    }

    private static Counts count(Path file, long start, long to, Predicate<String> which) {
        // a file shorter than at the start was rolled over (Flink's log4j rolls at 100 MB): what
        // it holds now was all written since; the lines in the rolled-away part are not counted
        long from = to < start ? 0 : start;
        if (to <= from) {
            return Counts.NONE;
        }
        int errors = 0;
        int warnings = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.position(from);
            BufferedReader lines =
                    new BufferedReader(
                            new InputStreamReader(
                                    Channels.newInputStream(channel), StandardCharsets.UTF_8));
            long read = 0;
            String line;
            while (from + read < to && (line = lines.readLine()) != null) {
                read += line.getBytes(StandardCharsets.UTF_8).length + 1;
                var level = LEVEL.matcher(line);
                if (level.find() && which.test(line)) {
                    if (level.group(1).equals("ERROR")) {
                        errors++;
                    } else {
                        warnings++;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return new Counts(errors, warnings);
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the size of " + file, e);
        }
    }
}
