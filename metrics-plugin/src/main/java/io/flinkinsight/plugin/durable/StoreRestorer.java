package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.series.ChunkData;
import io.flinkinsight.plugin.store.statement.StatementsSnapshot;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the directory back into the stores: the newest files first, as many as the stores' memory
 * budget holds; the newest report of each job and checkpoint wins; each series gets its chunks
 * newest first, each before what it holds, so a chunk written twice (a tail, then sealed) counts
 * once. A file that is damaged, cut short or not whole is skipped with one WARN line; files of
 * other names are left alone.
 */
public final class StoreRestorer {

    private static final Logger LOG = LoggerFactory.getLogger(StoreRestorer.class);

    /** What a read back found, for the log and the overview. */
    public record Restored(
            int files,
            int skippedFiles,
            int damagedFiles,
            int series,
            long samples,
            int jobs,
            int checkpoints,
            int statements,
            long oldestMillis,
            long newestMillis) {

        static final Restored NOTHING =
                new Restored(0, 0, 0, 0, 0, 0, 0, 0, Long.MIN_VALUE, Long.MIN_VALUE);

        @Override
        public String toString() {
            return files
                    + " files ("
                    + skippedFiles
                    + " beyond the memory budget, "
                    + damagedFiles
                    + " damaged), "
                    + series
                    + " series with "
                    + samples
                    + " samples, "
                    + jobs
                    + " jobs, "
                    + checkpoints
                    + " checkpoints, "
                    + statements
                    + " statements";
        }
    }

    private final InsightStores stores;
    private final long maxBytes;

    /**
     * @param maxBytes the most bytes of files read back
     */
    StoreRestorer(InsightStores stores, long maxBytes) {
        this.stores = stores;
        this.maxBytes = maxBytes;
    }

    Restored restore(FileSystem fs, Path dir) throws IOException {
        Map<String, String> strings = new HashMap<>(); // names and labels, each once
        int[] others = new int[1];
        List<DurableStores.Listed> files = DurableStores.list(fs, dir, others);
        if (others[0] > 0) {
            LOG.info(
                    "Flink Insight hub left alone {} entries of {} that are not its files",
                    others[0],
                    dir);
        }
        Map<SeriesKey, List<ChunkData>> chunks = new HashMap<>();
        Map<String, RecordJson.StoredJob> jobs = new LinkedHashMap<>();
        Map<String, CheckpointRecord> checkpoints = new LinkedHashMap<>();
        StatementsSnapshot statements = null;
        long read = 0;
        int unreadable = 0; // records of whole files that do not parse
        int whole = 0;
        int skipped = 0;
        int damaged = 0;
        long retentionStart = stores.series().retentionStartMillis();
        for (int i = files.size() - 1; i >= 0; i--) { // newest first
            FileStatus file = files.get(i).status();
            if (read + file.getLen() > maxBytes) {
                skipped++;
                continue;
            }
            read += file.getLen();
            SegmentFormat.Contents contents;
            try {
                contents = SegmentFormat.read(DurableStores.readFile(fs, file, maxBytes), strings);
            } catch (FileNotFoundException e) {
                // replaced or expired by another JobManager's writer since the listing
                LOG.info("Flink Insight hub: {} went while it was read back", file.getPath());
                continue;
            } catch (IOException | RuntimeException e) {
                damaged++;
                LOG.warn(
                        "Flink Insight hub skipped {} when reading back its stores: {}",
                        file.getPath(),
                        e.getMessage());
                continue;
            }
            whole++;
            for (SegmentFormat.KeyedChunk c : contents.chunks()) {
                if (c.chunk().lastTimestamp() >= retentionStart) {
                    chunks.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c.chunk());
                }
            }
            for (byte[] json : contents.jobs()) {
                try {
                    RecordJson.StoredJob job = RecordJson.job(json);
                    jobs.putIfAbsent(job.job().jobId(), job);
                } catch (IOException | RuntimeException e) {
                    unreadable++; // a record of a whole file: written by another version
                }
            }
            if (statements == null && contents.statements() != null) {
                try {
                    statements = RecordJson.statements(contents.statements());
                } catch (IOException | RuntimeException e) {
                    unreadable++;
                }
            }
            for (byte[] json : contents.checkpoints()) {
                try {
                    CheckpointRecord c = RecordJson.checkpoint(json);
                    checkpoints.putIfAbsent(StoreWriter.key(c), c);
                } catch (IOException | RuntimeException e) {
                    unreadable++;
                }
            }
        }
        // each record on its own: one the stores refuse (a newer plugin's, a damaged one in a whole
        // file) costs itself only
        Set<String> jobsTaken = new HashSet<>();
        int refused = unreadable;
        for (RecordJson.StoredJob job : jobs.values()) {
            try {
                if (stores.jobs().restore(job.job(), job.settings())) {
                    jobsTaken.add(job.job().jobId());
                }
            } catch (RuntimeException e) {
                refused++;
            }
        }
        int checkpointsTaken = 0;
        for (CheckpointRecord c : checkpoints.values()) {
            try {
                stores.checkpoints().addIfAbsent(c);
                checkpointsTaken++;
            } catch (RuntimeException e) {
                refused++;
            }
        }
        int statementsTaken = 0;
        if (statements != null) {
            try {
                statementsTaken = stores.statements().restore(statements);
            } catch (RuntimeException e) {
                refused++;
            }
        }
        if (refused > 0) {
            LOG.warn(
                    "Flink Insight hub left out {} records of whole files in {} when reading back its stores:"
                            + " they do not parse or do not fit (written by another version?)",
                    refused,
                    dir);
        }
        int series = 0;
        long samples = 0;
        long newest = Long.MIN_VALUE;
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<SeriesKey, List<ChunkData>> e : chunks.entrySet()) {
            List<ChunkData> newestFirst = e.getValue();
            newestFirst.sort(Comparator.comparingLong(ChunkData::lastTimestamp).reversed());
            long kept = stores.series().restore(e.getKey(), newestFirst);
            if (kept > 0) {
                series++;
                samples += kept;
                newest = Math.max(newest, newestFirst.get(0).lastTimestamp());
                oldest =
                        Math.min(
                                oldest,
                                Math.max(
                                        retentionStart,
                                        newestFirst.get(newestFirst.size() - 1).firstTimestamp()));
            }
        }
        stores.keepWithinBudget();
        return new Restored(
                whole,
                skipped,
                damaged,
                series,
                samples,
                jobsTaken.size(),
                checkpointsTaken,
                statementsTaken,
                oldest == Long.MAX_VALUE ? Long.MIN_VALUE : oldest,
                newest);
    }
}
