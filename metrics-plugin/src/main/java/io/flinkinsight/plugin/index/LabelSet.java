package io.flinkinsight.plugin.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The labels of one metric group, rendered once: names, values and the escaped {@code a="x",b="y"}
 * bytes written between the braces of every sample. Shared by all metrics of a group, so a
 * TaskManager's thousands of metrics hold a few hundred label sets, not one copy each.
 */
public final class LabelSet {

    public static final LabelSet EMPTY = new LabelSet(List.of(), List.of());

    private final List<String> names;
    private final List<String> values;
    private final String rendered;
    private final byte[] renderedBytes;

    LabelSet(List<String> names, List<String> values) {
        this.names = List.copyOf(names);
        this.values = List.copyOf(values);
        StringBuilder sb = new StringBuilder(names.size() * 32);
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(names.get(i)).append("=\"");
            appendEscaped(sb, values.get(i));
            sb.append('"');
        }
        this.rendered = sb.toString();
        this.renderedBytes = rendered.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Labels from Flink's variables ({@code <host>} -> {@code host}), sorted by name so output is
     * deterministic. Names that collide after sanitising (FLINK-40648: Flink's reporter then fails
     * the whole scrape) and names in {@code reserved} get a {@code _2}, {@code _3}... suffix, in
     * the order of the original keys.
     */
    static LabelSet fromVariables(
            Map<String, String> variables, boolean filterValues, Set<String> reserved) {
        if (variables.isEmpty()) {
            return EMPTY;
        }
        // Sort by original key so de-duplication picks the same winner on every registration.
        TreeMap<String, String> sortedByKey = new TreeMap<>(variables);
        Set<String> taken = new HashSet<>(reserved);
        TreeMap<String, String> byLabel = new TreeMap<>();
        for (Map.Entry<String, String> e : sortedByKey.entrySet()) {
            String base = PrometheusNaming.labelName(e.getKey());
            String name = base;
            for (int suffix = 2; !taken.add(name); suffix++) {
                name = base + "_" + suffix;
            }
            String value = e.getValue() == null ? "" : e.getValue();
            byLabel.put(name, filterValues ? PrometheusNaming.replaceInvalidChars(value) : value);
        }
        return new LabelSet(new ArrayList<>(byLabel.keySet()), new ArrayList<>(byLabel.values()));
    }

    /**
     * Label value escaping shared by text 0.0.4 and OpenMetrics: backslash, double quote and
     * newline.
     */
    static void appendEscaped(StringBuilder sb, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
    }

    public List<String> names() {
        return names;
    }

    public List<String> values() {
        return values;
    }

    public boolean isEmpty() {
        return names.isEmpty();
    }

    /** The escaped {@code a="x",b="y"} text; also the identity of a series within its family. */
    public String rendered() {
        return rendered;
    }

    /** UTF-8 of {@link #rendered()}; never modify. */
    public byte[] renderedBytes() {
        return renderedBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSet other && rendered.equals(other.rendered);
    }

    @Override
    public int hashCode() {
        return rendered.hashCode();
    }

    @Override
    public String toString() {
        return "{" + rendered + "}";
    }
}
