package io.flinkinsight.plugin.hub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A round-robin turn over items that come and go (running jobs, TaskManagers), kept across the
 * hub's rounds: a round visits the items in {@link #turnOrder} order as far as its budget goes, and
 * each visited item goes to the back of the line. New items join at the back, so an item waits at
 * most for the items ahead of it when it joined: with at least {@code k} items visited per round,
 * every item is visited within {@code ceil(n / k)} rounds of {@code n} items. Holds only the keys
 * of the items last passed in. Used on the hub's thread only.
 */
final class Rotation {

    /** Keys in turn order: the first is next. */
    private final LinkedHashSet<String> line = new LinkedHashSet<>();

    /**
     * The present {@code items} in turn order (items gone since the last call leave the line; new
     * ones join at its back, in the order given).
     */
    <T> List<T> turnOrder(List<T> items, Function<T, String> key) {
        Map<String, T> present = new HashMap<>();
        for (T item : items) {
            present.putIfAbsent(key.apply(item), item);
        }
        line.retainAll(present.keySet());
        for (T item : items) {
            line.add(key.apply(item));
        }
        List<T> ordered = new ArrayList<>(line.size());
        for (String k : line) {
            ordered.add(present.get(k));
        }
        return ordered;
    }

    /** The item with {@code key} had its turn: it goes to the back of the line. */
    void visited(String key) {
        if (line.remove(key)) {
            line.add(key);
        }
    }

    /** Items in the line. */
    int size() {
        return line.size();
    }
}
