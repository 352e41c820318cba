package io.flinkinsight.plugin.exposition;

/**
 * One of the plugin's own figures on {@code /metrics} (what it holds, drops and refuses), so an operator can alert
 * on the plugin itself. Names start with {@code flink_insight_}; a counter's ends in {@code _total}.
 */
public record OwnFigure(String name, String help, boolean counter, double value) {

    public OwnFigure {
        if (!name.startsWith("flink_insight_") || counter != name.endsWith("_total")) {
            throw new IllegalArgumentException("own figures are flink_insight_*, counters end in _total: " + name);
        }
    }
}
