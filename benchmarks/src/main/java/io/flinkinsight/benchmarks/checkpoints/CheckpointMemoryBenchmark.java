package io.flinkinsight.benchmarks.checkpoints;

import io.flinkinsight.benchmarks.fixture.HeapUsed;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;

import org.apache.flink.traces.Span;
import org.apache.flink.traces.SpanBuilder;

import java.lang.ref.Reference;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Heap held by the plugin's checkpoints for many jobs: {@code jobs} jobs of {@code vertices}
 * vertices at {@code parallelism}, {@code checkpoints} checkpoints each, every one a {@code
 * Checkpoint} span with per-task and per-subtask children built with Flink's span builder. First
 * into a checkpoint store bounded by counts only (what they take when all are kept), then through
 * the stores with their default budget (what is kept). Heap used is read after full collections
 * before and after. Run through {@code scripts/bench-checkpoint-memory.sh}.
 *
 * <p>Arguments: {@code [jobs] [vertices] [checkpoints] [parallelism]}.
 */
public final class CheckpointMemoryBenchmark {

    private static final double MIB = 1024.0 * 1024.0;
    private static final String[] FIGURES = {
        "StateSizeBytes",
        "CheckpointedSizeBytes",
        "CheckpointStartDelayMs",
        "AlignmentDurationMs",
        "SyncCheckpointDurationMs",
        "AsyncCheckpointDurationMs",
        "ProcessedDataBytes",
        "PersistedDataBytes"
    };

    private CheckpointMemoryBenchmark() {}

    public static void main(String[] args) throws InterruptedException {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int vertices = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int checkpoints = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int parallelism = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        List<String> jobIds = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            jobIds.add(String.format("%032x", 0x5ca1e000L + j));
        }

        long before = HeapUsed.afterFullGc();
        CheckpointStore all = new CheckpointStore(checkpoints, jobs);
        long started = System.nanoTime();
        for (int id = 1; id <= checkpoints; id++) {
            for (String job : jobIds) {
                all.add(CheckpointParser.fromSpan(span(job, id, vertices, parallelism), true));
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long allHeap = HeapUsed.afterFullGc() - before;
        long allEstimate = all.estimatedBytes();
        Reference.reachabilityFence(all);
        all = null;

        before = HeapUsed.afterFullGc();
        StoreSettings settings = StoreSettings.defaults();
        InsightStores stores =
                new InsightStores(settings, Clock.systemUTC(), FlinkCapabilities.current());
        for (int id = 1; id <= checkpoints; id++) {
            for (String job : jobIds) {
                stores.onSpan(span(job, id, vertices, parallelism));
            }
            if (id % 10 == 0) {
                stores.keepWithinBudget(); // as the sampler thread does every history.resolution
            }
        }
        stores.keepWithinBudget();
        long keptHeap = HeapUsed.afterFullGc() - before;
        int fewest = Integer.MAX_VALUE;
        int most = 0;
        for (String job : jobIds) {
            int kept = stores.checkpoints().newestFirst(job, Integer.MAX_VALUE).size();
            fewest = Math.min(fewest, kept);
            most = Math.max(most, kept);
        }
        long total = (long) jobs * checkpoints;

        System.out.printf(
                "%d jobs x %d vertices at parallelism %d, %d checkpoints each with per-subtask spans"
                        + " (details kept on each job's newest 10); %d spans parsed and stored in %.1f s.%n",
                jobs, vertices, parallelism, checkpoints, total, seconds);
        System.out.println();
        System.out.println(
                "| store | checkpoints kept | heap (MiB) | estimatedBytes() (MiB) | estimate/heap"
                        + " | heap bytes/checkpoint | budget |");
        System.out.println("|---|---:|---:|---:|---:|---:|---|");
        System.out.printf(
                "| counts only (max-per-job %d) | %d | %.1f | %.1f | %.3f | %.0f | none |%n",
                checkpoints,
                total,
                allHeap / MIB,
                allEstimate / MIB,
                (double) allEstimate / allHeap,
                (double) allHeap / total);
        long kept = 0;
        for (String job : jobIds) {
            kept += stores.checkpoints().newestFirst(job, Integer.MAX_VALUE).size();
        }
        System.out.printf(
                "| defaults | %d (%d to %d a job) | %.1f | %.1f | %.3f | %.0f | stores.max-bytes %.0f MiB,"
                        + " checkpoints.max-bytes %.0f MiB: %s |%n",
                kept,
                fewest,
                most,
                keptHeap / MIB,
                stores.estimatedBytes() / MIB,
                (double) stores.estimatedBytes() / keptHeap,
                (double) keptHeap / kept,
                settings.maxBytes() / MIB,
                settings.maxCheckpointBytes() / MIB,
                stores.estimatedBytes() <= settings.maxBytes() ? "within" : "OVER");
        Reference.reachabilityFence(stores);
    }

    /**
     * A checkpoint as Flink 2.2's JobManager reports it with per-subtask spans; fresh strings, as
     * Flink's.
     */
    static Span span(String job, long id, int vertices, int parallelism) {
        long trigger = 1_735_689_600_000L + id * 10_000;
        SpanBuilder b =
                Span.builder(CheckpointMemoryBenchmark.class, "Checkpoint")
                        .setStartTsMillis(trigger)
                        .setEndTsMillis(trigger + 900)
                        .setAttribute("checkpointId", id)
                        .setAttribute("fullSize", 1_000_000 * id)
                        .setAttribute("checkpointedSize", 10_000 * id)
                        .setAttribute("metadataSize", 2_000L)
                        .setAttribute("checkpointStatus", "COMPLETED")
                        .setAttribute("checkpointType", "Checkpoint")
                        .setAttribute("isUnaligned", "false");
        for (String f : FIGURES) {
            b.setAttribute("max" + f, id * 3);
            b.setAttribute("sum" + f, id * 3 * vertices);
        }
        for (int v = 0; v < vertices; v++) {
            String vertex = job.substring(0, 24) + String.format("%08x", v);
            SpanBuilder task =
                    Span.builder(CheckpointMemoryBenchmark.class, "Checkpoint_Task")
                            .setStartTsMillis(trigger + v)
                            .setEndTsMillis(trigger + 800)
                            .setAttribute("checkpointId", id)
                            .setAttribute("jobVertexId", vertex);
            for (String f : FIGURES) {
                task.setAttribute("max" + f, id + v);
                task.setAttribute("sum" + f, (id + v) * parallelism);
            }
            for (int s = 0; s < parallelism; s++) {
                SpanBuilder subtask =
                        Span.builder(CheckpointMemoryBenchmark.class, "Checkpoint_Subtask")
                                .setStartTsMillis(trigger + v + s)
                                .setEndTsMillis(trigger + 700 + s)
                                .setAttribute("checkpointId", id)
                                .setAttribute("jobVertexId", vertex)
                                .setAttribute("subtaskId", s);
                for (String f : FIGURES) {
                    subtask.setAttribute(f, id + v + s);
                }
                task.addChild(subtask);
            }
            b.addChild(task);
        }
        b.setAttribute("jobId", job);
        return b.build(Map.of("<job_id>", job, "<job_name>", "job-" + job.substring(28)));
    }
}
