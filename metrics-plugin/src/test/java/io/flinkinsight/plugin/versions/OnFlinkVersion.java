package io.flinkinsight.plugin.versions;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;

import org.apache.flink.traces.Span;
import org.apache.flink.traces.SpanBuilder;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs inside a class loader holding one Flink version's API jars (see {@link
 * FlinkVersionsApiTest}): probes the capabilities, builds a {@code Checkpoint} span with that
 * version's API as its {@code DefaultCheckpointStatsTracker} does (with a task child only where the
 * API has children) and hands it to the stores. Answers in JDK types only, since its caller's
 * classes are other copies.
 */
public final class OnFlinkVersion {

    static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    private OnFlinkVersion() {}

    public static Map<String, Object> probeAndStoreACheckpoint() {
        FlinkCapabilities flink = FlinkCapabilities.probe(OnFlinkVersion.class.getClassLoader());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("flinkVersion", flink.flinkVersion());
        out.put("spanChildren", flink.spanChildren());
        out.put("spanDetailLevel", flink.spanDetailLevel());
        out.put("eventReporters", flink.eventReporters());
        out.put("builtInEvents", flink.builtInEvents());
        out.put(
                "missing",
                flink.list().stream().filter(c -> !c.available()).map(c -> c.name()).toList());

        SpanBuilder builder =
                Span.builder(OnFlinkVersion.class, "Checkpoint")
                        .setStartTsMillis(1_000)
                        .setEndTsMillis(1_750)
                        .setAttribute("jobId", JOB_ID)
                        .setAttribute("checkpointId", 7L)
                        .setAttribute("fullSize", 4096L)
                        .setAttribute("checkpointedSize", 1024L)
                        .setAttribute("checkpointStatus", "COMPLETED");
        if (flink.spanChildren()) {
            builder.addChild(
                    Span.builder(OnFlinkVersion.class, "Checkpoint_Task")
                            .setStartTsMillis(1_000)
                            .setEndTsMillis(1_700)
                            .setAttribute("jobVertexId", "cbc357ccb763df2852fee8c4fc7d55f2")
                            .setAttribute("maxCheckpointedSizeBytes", 1024L));
        }
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), Clock.systemUTC(), flink);
        stores.onSpan(builder.build());

        CheckpointRecord stored = stores.checkpoints().latest(JOB_ID);
        out.put("storedCheckpointId", stored == null ? null : stored.checkpointId());
        out.put("storedCheckpointedSize", stored == null ? null : stored.checkpointedSize());
        out.put("storedTasks", stored == null ? null : stored.tasks().size());
        return out;
    }
}
