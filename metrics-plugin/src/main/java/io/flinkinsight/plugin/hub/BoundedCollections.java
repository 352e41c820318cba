package io.flinkinsight.plugin.hub;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The hub's memory of what it read is bounded: a cluster with endless jobs must not grow it without
 * end.
 */
final class BoundedCollections {

    private BoundedCollections() {}

    /** A set that keeps the {@code max} elements added last. */
    static <T> Set<T> newestSet(int max) {
        return Collections.newSetFromMap(
                new LinkedHashMap<>() {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<T, Boolean> eldest) {
                        return size() > max;
                    }
                });
    }

    /** A map that keeps its {@code max} entries used most recently. */
    static <K, V> Map<K, V> recentlyUsedMap(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > max;
            }
        };
    }
}
