package io.flinkinsight.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the logs of running processes: their tail for error messages, and the first line matching a
 * pattern.
 */
public final class LogFiles {

    /** Reading more than this from the end is never useful in an error message. */
    private static final int MAX_TAIL_BYTES = 64 * 1024;

    private LogFiles() {}

    /** The last {@code lines} lines of the file, or a note that it does not exist (yet). */
    public static String tail(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return "(no file " + file + ")";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, MAX_TAIL_BYTES);
            byte[] bytes = new byte[size];
            in.seek(length - size);
            in.readFully(bytes);
            List<String> all =
                    Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /** The last match of {@code pattern} in the file as it is now, if any. */
    public static Optional<Matcher> lastMatch(Path file, Pattern pattern) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (BufferedReader reader =
                new BufferedReader(
                        new InputStreamReader(
                                Files.newInputStream(file), StandardCharsets.UTF_8))) {
            Matcher last = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    last = matcher;
                }
            }
            return Optional.ofNullable(last);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The first match of {@code pattern} in the file as it is now, if any. */
    public static Optional<Matcher> firstMatch(Path file, Pattern pattern) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        // InputStreamReader replaces malformed bytes (a file being written can end mid-character).
        try (BufferedReader reader =
                new BufferedReader(
                        new InputStreamReader(
                                Files.newInputStream(file), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    return Optional.of(matcher);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
