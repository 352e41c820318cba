package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.ClientContract.Figure;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The store's series of the {@link ClientContract}'s figures, by exact name, as {@link
 * ClientEndpoint} reads them.
 */
final class ClientSeries {

    private static final ClientContract CONTRACT = ClientContract.get();

    private final SeriesStore store;
    private final Map<String, List<SeriesKey>> byName = new HashMap<>();
    final boolean any;

    ClientSeries(SeriesStore store) {
        this.store = store;
        List<SeriesKey> keys = store.keys(k -> CONTRACT.isFigure(k.name()));
        for (SeriesKey k : keys) {
            byName.computeIfAbsent(k.name(), x -> new ArrayList<>()).add(k);
        }
        this.any = !keys.isEmpty();
    }

    SeriesStore store() {
        return store;
    }

    /** The series of a counter or gauge (no quantile label). */
    List<SeriesKey> values(Figure f) {
        List<SeriesKey> out = new ArrayList<>();
        for (SeriesKey k : byName.getOrDefault(f.seriesName(), List.of())) {
            if (k.label(SeriesKey.QUANTILE_LABEL) == null) {
                out.add(k);
            }
        }
        return out;
    }

    List<SeriesKey> quantile(Figure f, String quantile) {
        List<SeriesKey> out = new ArrayList<>();
        for (SeriesKey k : byName.getOrDefault(f.seriesName(), List.of())) {
            if (quantile.equals(k.label(SeriesKey.QUANTILE_LABEL))) {
                out.add(k);
            }
        }
        return out;
    }

    double sum(List<Figure> figures, long notBefore) {
        double total = 0;
        for (Figure f : figures) {
            for (SeriesKey k : values(f)) {
                OptionalDouble v = store.latest(k, notBefore);
                if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                    total += v.getAsDouble();
                }
            }
        }
        return total;
    }

    Double quantile(Figure f, String quantile, long notBefore) {
        Double max = null;
        for (SeriesKey k : quantile(f, quantile)) {
            OptionalDouble v = store.latest(k, notBefore);
            if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                max = max == null ? v.getAsDouble() : Math.max(max, v.getAsDouble());
            }
        }
        return max;
    }
}
