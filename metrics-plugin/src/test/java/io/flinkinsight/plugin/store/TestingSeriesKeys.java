package io.flinkinsight.plugin.store;

import java.util.ArrayList;
import java.util.List;

/** Series keys for tests, from a name and label name/value pairs. */
public final class TestingSeriesKeys {

    private TestingSeriesKeys() {}

    /**
     * {@code key("m", "job", "a", "quantile", "0.5")}: metric m with labels job="a",
     * quantile="0.5".
     */
    public static SeriesKey key(String name, String... labelPairs) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < labelPairs.length; i += 2) {
            names.add(labelPairs[i]);
            values.add(labelPairs[i + 1]);
        }
        return new SeriesKey(name, names, values);
    }
}
