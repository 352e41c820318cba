package io.flinkinsight.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks a scrape body with parsers we did not write: promtool and the Python prometheus_client
 * parser.
 */
final class ExpositionCheckers {

    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");

    private ExpositionCheckers() {}

    /**
     * promtool exits 0 when clean, 3 on lint findings only (Flink's camelCase names), 1 on a parse
     * error.
     */
    static void assertPromtoolAccepts(String body) throws Exception {
        Result result = run(List.of("promtool", "check", "metrics"), body);
        assertThat(result.exitCode)
                .as("promtool check metrics (exit 1 = parse error):%n%s", result.output)
                .isIn(0, 3);
        assertThat(result.output)
                .doesNotContain("error while linting")
                .doesNotContain("parsing error");
    }

    static void assertPythonParserAccepts(String body) throws Exception {
        String python = System.getProperty("insight.python", "python3");
        Path script =
                Path.of(System.getProperty("insight.scripts", "../scripts"), "check_exposition.py");
        Result result = run(List.of(python, script.toString()), body);
        assertThat(result.exitCode)
                .as("prometheus_client parser:%n%s", tail(result.output))
                .isZero();
    }

    /** The label names of the first sample of {@code metric} (exact name, not a suffix). */
    static List<String> labelNames(String body, String metric) {
        for (String line : body.split("\n")) {
            if (line.startsWith(metric + "{")) {
                List<String> names = new ArrayList<>();
                Matcher m =
                        LABEL.matcher(line.substring(metric.length(), line.lastIndexOf('}') + 1));
                while (m.find()) {
                    names.add(m.group(1));
                }
                return names;
            }
            if (line.startsWith(metric + " ")) {
                return List.of();
            }
        }
        throw new AssertionError("no sample of " + metric + " in the scrape");
    }

    private record Result(int exitCode, String output) {}

    private static Result run(List<String> command, String stdin)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread writer =
                new Thread(
                        () -> {
                            try (OutputStream in = process.getOutputStream()) {
                                in.write(stdin.getBytes(StandardCharsets.UTF_8));
                            } catch (IOException ignored) {
                                // The checker exited early; its exit code tells why.
                            }
                        });
        writer.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within 60 s");
        }
        writer.join(10_000);
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : "..." + text.substring(text.length() - 4000);
    }
}
