package io.flinkinsight.plugin.exposition;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * One of the plugin's own figures on {@code /metrics} (what it holds, drops and refuses), so an
 * operator can alert on the plugin itself. Names start with {@code flink_insight_}; a counter's
 * ends in {@code _total}. Figures of one name with different {@code labels} are samples of one
 * family (e.g. refusals by {@code reason}); label values are plain identifiers, written without
 * escaping.
 */
public record OwnFigure(
        String name, String help, boolean counter, double value, Map<String, String> labels) {

    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern LABEL_VALUE = Pattern.compile("[a-zA-Z0-9_.:-]*");

    public OwnFigure {
        if (!name.startsWith("flink_insight_") || counter != name.endsWith("_total")) {
            throw new IllegalArgumentException(
                    "own figures are flink_insight_*, counters end in _total: " + name);
        }
        labels = Map.copyOf(labels);
        labels.forEach(
                (k, v) -> {
                    if (!LABEL_NAME.matcher(k).matches() || !LABEL_VALUE.matcher(v).matches()) {
                        throw new IllegalArgumentException(
                                "own figure labels are identifiers: " + k + "=" + v);
                    }
                });
    }

    /** A figure without labels. */
    public OwnFigure(String name, String help, boolean counter, double value) {
        this(name, help, counter, value, Map.of());
    }
}
