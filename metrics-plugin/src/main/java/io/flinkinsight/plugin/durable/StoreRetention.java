package io.flinkinsight.plugin.durable;

import org.apache.flink.core.fs.FileSystem;

import java.io.IOException;
import java.util.List;

/**
 * Keeps the directory within {@code stores.dir.retention} and {@code stores.dir.max-bytes}: files
 * whose newest timestamp left the retention go, then the oldest until the rest fit; a writer's
 * current tail stays. Picks by name, so it reads no file.
 */
final class StoreRetention {

    private StoreRetention() {}

    /** Deletes what is due; returns the bytes of our files left in the directory. */
    static long apply(
            FileSystem fs,
            org.apache.flink.core.fs.Path dir,
            DurableSettings settings,
            long now,
            StoreFileName keep)
            throws IOException {
        List<DurableStores.Listed> files = DurableStores.list(fs, dir); // oldest first
        long total = 0;
        for (DurableStores.Listed f : files) {
            total += f.status().getLen();
        }
        long cutoff = now - settings.retention().toMillis();
        for (DurableStores.Listed f : files) {
            boolean expired = f.name().newestMillis() < cutoff;
            boolean tooMuch = total > settings.maxBytes();
            if ((expired || tooMuch) && !f.name().equals(keep)) {
                if (fs.delete(f.status().getPath(), false)) {
                    total -= f.status().getLen();
                }
            } else if (!expired) {
                break; // the rest are newer and fit
            }
        }
        return total;
    }
}
