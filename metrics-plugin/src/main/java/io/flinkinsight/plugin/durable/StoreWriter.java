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
import java.util.LinkedHashMap;
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

    /**
     * Checkpoints taken from the store as changed and not written yet (they did not fit a write's
     * budget, or the write failed), by job and id.
     */
    private final Map<String, CheckpointRecord> pendingCheckpoints = new LinkedHashMap<>();

    /** A series not written for this long has its open chunk sealed before a write. */
    static final long IDLE_MILLIS = 60_000;

    /** Checkpoints taken from the store at a time: its lock is held for as many. */
    private static final int CHECKPOINTS_PER_TAKE = 64;

    /** The most checkpoints taken and waiting for a write; the store holds the rest as changed. */
    private static final int MAX_PENDING_CHECKPOINTS = 4_096;

    /** The statements' {@code changes()} when last written; -1 before. */
    private long writtenStatements = -1;

    private long sequence;

    /** When everything kept is written again; the first write writes everything. */
    private long nextFullWriteMillis = Long.MIN_VALUE;

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

    void write(FileSystem fs, Path dir, long now) throws IOException {
        if (now >= nextFullWriteMillis) {
            // what was read back, or written long ago, is in files that expire: write it anew
            writtenJobs.clear();
            stores.checkpoints().markAllChanged();
            writtenStatements = -1;
            nextFullWriteMillis = now + rewriteEveryMillis;
        }
        // a series no longer written (a finished job's) has its open chunk sealed, so it goes to
        // disk once and not in every tail until the history drops it
        stores.series().forEachSeries((key, series) -> series.sealIfIdle(now - IDLE_MILLIS));
        SegmentFormat.Writer segment = new SegmentFormat.Writer();
        // the statements first: one record, whole, that checkpoints arriving every minute must not
        // keep from its turn
        long statements = changedStatements(segment);
        List<JobRecord> kept = stores.jobs().newestFirst(); // once a write: built under the lock
        Map<String, Integer> jobs = changedJobs(segment, kept);
        List<CheckpointRecord> checkpoints = changedCheckpoints(segment);
        List<Runnable> marks = sealedChunks(segment);
        if (segment.records() > 0) {
            writeNew(fs, dir, StoreFileName.SEGMENT, now, segment.finish());
            writtenJobs.putAll(jobs);
            checkpoints.forEach(c -> pendingCheckpoints.remove(key(c), c));
            if (statements >= 0) {
                writtenStatements = statements;
            }
            marks.forEach(Runnable::run);
        }
        forgetRemoved(kept);
        long left = budget - (segment.records() > 0 ? segment.size() : 0);
        SegmentFormat.Writer openChunks = new SegmentFormat.Writer();
        boolean[] whole = {true};
        stores.series()
                .forEachSeries(
                        (key, series) -> {
                            ChunkData open = series.openChunk();
                            if (open != null && whole[0]) {
                                if (openChunks.size() < left) {
                                    openChunks.chunk(key, open);
                                } else {
                                    whole[0] = false;
                                }
                            }
                        });
        // A tail replaces the one before, so it must hold every series' open chunk: one that would
        // not fit the budget waits for the next write, the one before staying meanwhile.
        if (openChunks.records() > 0 && whole[0]) {
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

    private Map<String, Integer> changedJobs(SegmentFormat.Writer segment, List<JobRecord> kept) {
        Map<String, Integer> changed = new HashMap<>();
        for (JobRecord job : kept) {
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

    /**
     * Adds the checkpoints that changed, taken from the store a few at a time (its lock held for no
     * more), within the budget; returns those added (the rest stay pending).
     */
    private List<CheckpointRecord> changedCheckpoints(SegmentFormat.Writer segment) {
        while (pendingCheckpoints.size() < MAX_PENDING_CHECKPOINTS) {
            List<CheckpointRecord> taken = stores.checkpoints().takeChanged(CHECKPOINTS_PER_TAKE);
            if (taken.isEmpty()) {
                break;
            }
            for (CheckpointRecord c : taken) {
                pendingCheckpoints.remove(key(c)); // a newer report goes last, in its place
                pendingCheckpoints.put(key(c), c);
            }
        }
        List<CheckpointRecord> added = new ArrayList<>();
        for (CheckpointRecord c : pendingCheckpoints.values()) {
            if (segment.size() >= budget) {
                break;
            }
            segment.json(SegmentFormat.CHECKPOINT, RecordJson.write(c));
            added.add(c);
        }
        return added;
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
            return -1; // cannot be: the statements go first
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
                            long upTo = Long.MIN_VALUE;
                            for (ChunkData chunk : series.unwrittenChunks()) {
                                if (segment.size() >= budget) {
                                    break;
                                }
                                segment.chunk(key, chunk);
                                upTo = chunk.lastTimestamp();
                            }
                            if (upTo != Long.MIN_VALUE) {
                                long written = upTo;
                                marks.add(() -> series.markWritten(written));
                            }
                        });
        return marks;
    }

    /** Keeps the written versions of what the stores still keep only. */
    private void forgetRemoved(List<JobRecord> kept) {
        Set<String> jobIds = new HashSet<>();
        for (JobRecord job : kept) {
            jobIds.add(job.jobId());
        }
        writtenJobs.keySet().retainAll(jobIds);
        Set<String> checkpointJobs = new HashSet<>(stores.checkpoints().jobIds());
        pendingCheckpoints.values().removeIf(c -> !checkpointJobs.contains(c.jobId()));
    }

    static String key(CheckpointRecord c) {
        return c.jobId() + "/" + c.checkpointId();
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
