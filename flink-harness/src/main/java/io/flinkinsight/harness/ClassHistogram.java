package io.flinkinsight.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live objects of a process by class ({@code jcmd <pid> GC.class_histogram}, which runs a full
 * GC first), and what grew between two of them: the profile that says which classes hold a heap
 * growth.
 */
public record ClassHistogram(Map<String, Entry> byClass) {

    /** Instances and bytes of one class. */
    public record Entry(long instances, long bytes) {}

    /** One class's growth between two histograms. */
    public record Growth(String className, long instances, long bytes) {}

    // "   1:        123456       7890123  java.lang.String (java.base@17.0.15)"
    private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    public static ClassHistogram of(long pid) throws IOException, InterruptedException {
        // Into a file, so that the wait below is bounded (reading the pipe would block until jcmd
        // exits).
        Path out = Files.createTempFile("class-histogram-" + pid, ".txt");
        try {
            Process jcmd =
                    new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram")
                            .redirectErrorStream(true)
                            .redirectOutput(out.toFile())
                            .start();
            boolean exited = jcmd.waitFor(120, TimeUnit.SECONDS);
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (!exited || jcmd.exitValue() != 0) {
                jcmd.destroyForcibly();
                throw new IllegalStateException(
                        "jcmd "
                                + pid
                                + " GC.class_histogram failed"
                                + (exited ? ": " + text : ": no answer in 120 s"));
            }
            return parse(text);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static ClassHistogram parse(String jcmdOutput) {
        Map<String, Entry> byClass = new LinkedHashMap<>();
        for (String line : jcmdOutput.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.find()) {
                byClass.merge(
                        m.group(3),
                        new Entry(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))),
                        (a, b) -> new Entry(a.instances() + b.instances(), a.bytes() + b.bytes()));
            }
        }
        return new ClassHistogram(byClass);
    }

    /** Every class whose bytes grew from {@code before} to this histogram, most first. */
    public List<Growth> growthSince(ClassHistogram before) {
        List<Growth> grown = new ArrayList<>();
        byClass.forEach(
                (name, now) -> {
                    Entry then = before.byClass().getOrDefault(name, new Entry(0, 0));
                    if (now.bytes() > then.bytes()) {
                        grown.add(
                                new Growth(
                                        name,
                                        now.instances() - then.instances(),
                                        now.bytes() - then.bytes()));
                    }
                });
        grown.sort(Comparator.comparingLong(Growth::bytes).reversed());
        return grown;
    }

    /**
     * Bytes of the classes that {@code which} selects, grown from {@code before} (shrunk classes
     * count negative).
     */
    public long bytesGrownSince(ClassHistogram before, Predicate<String> which) {
        long sum = 0;
        for (Map.Entry<String, Entry> e : byClass.entrySet()) {
            if (which.test(e.getKey())) {
                sum += e.getValue().bytes();
            }
        }
        for (Map.Entry<String, Entry> e : before.byClass().entrySet()) {
            if (which.test(e.getKey())) {
                sum -= e.getValue().bytes();
            }
        }
        return sum;
    }
}
