package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.series.ChunkData;
import io.flinkinsight.plugin.store.series.Series;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One hub run's writes: each write puts what changed since the last one (jobs, checkpoints) and the
 * history's newly sealed chunks into a new segment file, within the byte budget of one write (what
 * does not fit waits, the history last), then the history not sealed yet into a new tail file that
 * replaces this writer's previous one. Every half retention everything kept is written again, so
 * what is still kept outlives the files that expire. Not thread-safe: one thread writes.
 */
final class StoreWriter {

    private final InsightStores stores;
    private final String writer;
    private final long budget;
    private final long rewriteEveryMillis;
    private final Map<String, Integer> writtenJobs = new HashMap<>();
    private final Map<String, Integer> writtenCheckpoints = new HashMap<>();

    /** The statements' {@code changes()} when last written; -1 before. */
    private long writtenStatements = -1;

    private long sequence;
    private long lastFullWriteMillis = Long.MIN_VALUE;
    private StoreFileName tail;
    private long bytesWritten;

    StoreWriter(InsightStores stores, String writer, long budget, long retentionMillis) {
        this.stores = stores;
        this.writer = writer;
        this.budget = budget;
        this.rewriteEveryMillis = Math.max(60_000, retentionMillis / 2);
    }

    long bytesWritten() {
        return bytesWritten;
    }

    /** This writer's current tail file, which retention must not delete; null before the first. */
    StoreFileName ownTail() {
        return tail;
    }

    /**
     * The jobs, checkpoints and statements a read back took are on disk already: not written again.
     */
    void markRestored(Set<String> jobIds, Set<String> checkpointKeys) {
        writtenStatements = stores.statements().changes();
        for (JobRecord job : stores.jobs().newestFirst()) {
            if (jobIds.contains(job.jobId())) {
                writtenJobs.put(job.jobId(), version(job, stores.jobs().settings(job.jobId())));
            }
        }
        for (String jobId : stores.checkpoints().jobIds()) {
            for (CheckpointRecord c : stores.checkpoints().newestFirst(jobId, Integer.MAX_VALUE)) {
                if (checkpointKeys.contains(key(c))) {
                    writtenCheckpoints.put(key(c), version(c));
                }
            }
        }
    }

    void write(FileSystem fs, Path dir, long now) throws IOException {
        if (now - lastFullWriteMillis >= rewriteEveryMillis) {
            writtenJobs.clear();
            writtenCheckpoints.clear();
            writtenStatements = -1;
            lastFullWriteMillis = now;
        }
        SegmentFormat.Writer segment = new SegmentFormat.Writer();
        Map<String, Integer> jobs = changedJobs(segment);
        Map<String, Integer> checkpoints = changedCheckpoints(segment);
        long statements = changedStatements(segment);
        List<Runnable> marks = sealedChunks(segment);
        if (segment.records() > 0) {
            writeNew(fs, dir, StoreFileName.SEGMENT, now, segment.finish());
            writtenJobs.putAll(jobs);
            writtenCheckpoints.putAll(checkpoints);
            if (statements >= 0) {
                writtenStatements = statements;
            }
            marks.forEach(Runnable::run);
        }
        forgetRemoved();
        SegmentFormat.Writer openChunks = new SegmentFormat.Writer();
        stores.series()
                .forEachSeries(
                        (key, series) -> {
                            ChunkData open = series.openChunk();
                            if (open != null && openChunks.size() < budget) {
                                openChunks.chunk(key, open);
                            }
                        });
        if (openChunks.records() > 0) {
            StoreFileName previous = tail;
            tail = writeNew(fs, dir, StoreFileName.TAIL, now, openChunks.finish());
            if (previous != null) {
                fs.delete(new Path(dir, previous.fileName()), false);
            }
        }
    }

    private StoreFileName writeNew(FileSystem fs, Path dir, String kind, long now, byte[] bytes)
            throws IOException {
        StoreFileName name = new StoreFileName(kind, now, writer, ++sequence);
        DurableStores.writeFile(fs, new Path(dir, name.fileName()), bytes);
        bytesWritten += bytes.length;
        return name;
    }

    private Map<String, Integer> changedJobs(SegmentFormat.Writer segment) {
        Map<String, Integer> changed = new HashMap<>();
        for (JobRecord job : stores.jobs().newestFirst()) {
            JobSettings settings = stores.jobs().settings(job.jobId());
            int version = version(job, settings);
            if (segment.size() < budget && !Objects.equals(writtenJobs.get(job.jobId()), version)) {
                segment.json(
                        SegmentFormat.JOB,
                        RecordJson.write(new RecordJson.StoredJob(job, settings)));
                changed.put(job.jobId(), version);
            }
        }
        return changed;
    }

    private Map<String, Integer> changedCheckpoints(SegmentFormat.Writer segment) {
        Map<String, Integer> changed = new HashMap<>();
        for (String jobId : stores.checkpoints().jobIds()) {
            for (CheckpointRecord c : stores.checkpoints().newestFirst(jobId, Integer.MAX_VALUE)) {
                int version = version(c);
                if (segment.size() < budget
                        && !Objects.equals(writtenCheckpoints.get(key(c)), version)) {
                    segment.json(SegmentFormat.CHECKPOINT, RecordJson.write(c));
                    changed.put(key(c), version);
                }
            }
        }
        return changed;
    }

    /**
     * Adds the statements, whole, when they changed and fit the budget; returns their {@code
     * changes()} then, or -1 when not added.
     */
    private long changedStatements(SegmentFormat.Writer segment) {
        long changes = stores.statements().changes();
        if (changes == writtenStatements || segment.size() >= budget) {
            return -1;
        }
        byte[] json = RecordJson.write(stores.statements().snapshot());
        if (segment.size() + json.length > budget && segment.records() > 0) {
            return -1; // next time, first in its file
        }
        segment.json(SegmentFormat.STATEMENTS, json);
        return changes;
    }

    /** Adds the newly sealed chunks within the budget; returns what marks them written. */
    private List<Runnable> sealedChunks(SegmentFormat.Writer segment) {
        List<Runnable> marks = new ArrayList<>();
        stores.series()
                .forEachSeries(
                        (SeriesKey key, Series series) -> {
                            int added = 0;
                            for (ChunkData chunk : series.unwrittenChunks()) {
                                if (segment.size() >= budget) {
                                    break;
                                }
                                segment.chunk(key, chunk);
                                added++;
                            }
                            if (added > 0) {
                                int n = added;
                                marks.add(() -> series.markWritten(n));
                            }
                        });
        return marks;
    }

    /** Keeps the written versions of what the stores still keep only. */
    private void forgetRemoved() {
        Set<String> jobIds = new HashSet<>();
        for (JobRecord job : stores.jobs().newestFirst()) {
            jobIds.add(job.jobId());
        }
        writtenJobs.keySet().retainAll(jobIds);
        Set<String> checkpointJobs = new HashSet<>(stores.checkpoints().jobIds());
        writtenCheckpoints
                .keySet()
                .removeIf(k -> !checkpointJobs.contains(k.substring(0, k.lastIndexOf('/'))));
    }

    static String key(CheckpointRecord c) {
        return c.jobId() + "/" + c.checkpointId();
    }

    /** What changes when a checkpoint is reported again or filled in. */
    private static int version(CheckpointRecord c) {
        return Objects.hash(
                c.status(),
                c.endTime(),
                c.durationMs(),
                c.fullSize(),
                c.checkpointedSize(),
                c.source(),
                c.tasks().size(),
                c.max(),
                c.sum());
    }

    /** What changes when a job moves on (not its running latency, which grows by itself). */
    private static int version(JobRecord j, JobSettings settings) {
        return Objects.hash(
                j.jobName(),
                j.status(),
                j.endedAt(),
                j.createdAt(),
                j.transitions().size(),
                j.transitions().isEmpty() ? null : j.transitions().get(j.transitions().size() - 1),
                j.failureCount(),
                j.allSubtasksRunningAt(),
                j.initialization(),
                j.vertices().size(),
                settings);
    }
}
