package io.flinkinsight.it.ecosystem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code promtool} (Debian package {@code prometheus}; {@code scripts/test.sh} installs it). A
 * missing promtool fails the calling test with a message saying how to get it: nothing is skipped.
 */
final class Promtool {

    record Result(int exitCode, String output) {}

    private Promtool() {}

    static Result run(Path workingDirectory, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("insight.promtool", "promtool"));
        command.addAll(List.of(args));
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .directory(workingDirectory.toFile())
                            .redirectErrorStream(true)
                            .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "promtool is not installed (it comes with Debian's package 'prometheus': "
                            + "apt-get install prometheus, or run scripts/test.sh, which installs it); "
                            + command
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within 60 s");
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The repository's {@code ecosystem/} folder. */
    static Path ecosystem() {
        return Path.of(System.getProperty("insight.ecosystem", "../ecosystem"))
                .toAbsolutePath()
                .normalize();
    }
}
