package io.flinkinsight.plugin.exposition;

import io.flinkinsight.plugin.index.MetricIndex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helpers: scrape an index to text, and parse sample lines into (name, labels) for
 * comparisons.
 */
public final class ScrapeText {

    private static final Pattern SAMPLE =
            Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    private ScrapeText() {}

    public static String scrape(MetricIndex index, ExpositionFormat format) {
        return scrape(index, format, new LongAdder());
    }

    public static String scrape(MetricIndex index, ExpositionFormat format, LongAdder errors) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ExpositionWriter(errors).write(index.families(), format, new ExpositionBuffer(bytes));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** One parsed sample line. */
    public record Sample(String name, Map<String, String> labels, String value) {
        public String series() {
            return name + labels;
        }
    }

    public static List<Sample> samples(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a sample line: " + line);
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            out.add(new Sample(m.group(1), labels, m.group(3)));
        }
        return out;
    }
}
