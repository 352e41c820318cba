package io.flinkinsight.plugin.exposition;

import java.util.List;
import java.util.Map;

/**
 * A family computed by the plugin rather than registered by Flink: its own health figures, and the derived client
 * figures (pool hit rate, channel reuse ratio) that arrive with the interactive client. Counter names end in
 * {@code _total} so they are valid in both formats.
 *
 * @param type "gauge" or "counter"
 */
public record DerivedFamily(String name, String help, String type, List<Sample> samples) {

    public DerivedFamily {
        if (!type.equals("gauge") && !type.equals("counter")) {
            throw new IllegalArgumentException("type must be gauge or counter: " + type);
        }
        if (type.equals("counter") && !name.endsWith("_total")) {
            throw new IllegalArgumentException("counter names end in _total: " + name);
        }
        samples = List.copyOf(samples);
    }

    /** One sample; labels are written in the map's iteration order. */
    public record Sample(Map<String, String> labels, double value) {}

    public static DerivedFamily single(String name, String help, String type, double value) {
        return new DerivedFamily(name, help, type, List.of(new Sample(Map.of(), value)));
    }
}
