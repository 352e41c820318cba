package io.flinkinsight.plugin.store;

import java.time.Clock;

/** Bounded history of sampled metric values (stub; being written). */
public final class SeriesStore {

    public SeriesStore(StoreSettings settings, Clock clock) {}

    /** Appends one sample; called from the plugin's own sampling thread, never from a Flink thread. */
    public void record(SeriesKey key, long timestampMillis, double value) {}
}
