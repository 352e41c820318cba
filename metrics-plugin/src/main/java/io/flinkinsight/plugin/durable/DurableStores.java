package io.flinkinsight.plugin.durable;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.common.RateLimitedLog;
import io.flinkinsight.plugin.OwnThreads;
import io.flinkinsight.plugin.store.InsightStores;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TimeUtils;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hub's stores on disk: what the hub keeps is written every {@code stores.dir.write-interval}
 * to a directory through Flink's own {@link FileSystem} (so {@code s3://}, {@code hdfs://} and
 * {@code file://} work as for checkpoints), and read back when a hub starts to lead. Files are
 * written once and never changed ({@link StoreFileName}, {@link SegmentFormat}); the history not
 * sealed yet goes to a tail file that the next write replaces. Everything runs on this class's own
 * thread {@value #THREAD_NAME} (or the hub's, for the read back), never a Flink thread; a directory
 * that cannot be written leaves the stores in memory, said once in ten minutes, and never fails
 * Flink.
 */
public final class DurableStores implements AutoCloseable {

    public static final String THREAD_NAME = "flink-insight-stores-dir";

    private static final Logger LOG = LoggerFactory.getLogger(DurableStores.class);
    private static final long WARN_INTERVAL_MILLIS = 10 * 60_000;

    /** Flink waits for its reporters to close: the last write gets this long, then is given up. */
    private static final long CLOSE_WAIT_SECONDS = 3;

    /** The longest a read back may take before the hub goes on without the rest of it. */
    private static final long RESTORE_WAIT_MINUTES = 10;

    /** The largest file read back: a write is far smaller (its budget per interval). */
    private static final long MAX_FILE_BYTES = 256L << 20;

    private final DurableSettings settings;
    private final String uri;

    /** The URI as logs and the overview show it: without a {@code user:secret@} part. */
    private final String safeUri;

    private final Path dir;
    private final InsightStores stores;
    private final Clock clock;
    private final StoreWriter writer;
    private final RateLimitedLog warnings;
    private final FlinkBoundary ownThread;
    private final ScheduledExecutorService executor;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private volatile long bytesOnDisk;
    private volatile long lastWriteMillis;
    private volatile String lastFailure;
    private StoreRestorer.Restored restored; // guarded by this; null until read back
    private ScheduledFuture<?> writes; // guarded by this; null while not writing
    private boolean closed; // guarded by this

    /**
     * Writes a last time when the JVM exits (SIGTERM): Flink's own shutdown may end the process
     * before it closes its reporters. Removed when closed first.
     */
    private final Thread lastWriteOnExit = new Thread(this::close, THREAD_NAME + "-on-exit");

    private boolean lastWriteOnExitAdded; // guarded by this

    private DurableStores(DurableSettings settings, String uri, InsightStores stores, Clock clock) {
        this.settings = settings;
        this.uri = uri;
        this.safeUri = withoutUserInfo(uri);
        this.dir = new Path(uri);
        this.stores = stores;
        this.clock = clock;
        this.writer =
                new StoreWriter(
                        stores,
                        StoreFileName.newWriter(
                                clock.millis(), ThreadLocalRandom.current().nextInt()),
                        settings.bytesPerWrite(),
                        settings.retention().toMillis());
        this.warnings = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        this.ownThread = new FlinkBoundary(LOG, clock);
        this.executor = OwnThreads.scheduler(THREAD_NAME);
    }

    /**
     * The hub's stores on disk, or null when they stay in memory (said in one INFO line). Touches
     * no file: {@link #restore()} and the writes do, on the hub's and their own thread.
     */
    public static DurableStores open(
            DurableSettings settings,
            Map<String, String> flinkConfiguration,
            InsightStores stores,
            Clock clock) {
        DurableSettings.Resolved where = settings.resolve(flinkConfiguration);
        if (where.uri() == null) {
            LOG.info(
                    "Flink Insight hub keeps its stores in memory only: {} (stores.dir names a directory)",
                    where.why());
            return null;
        }
        LOG.info(
                "Flink Insight hub writes its stores to {} (from {}) every {}, at most {} bytes a minute and {} bytes"
                        + " in all, kept {}",
                withoutUserInfo(where.uri()),
                where.why(),
                TimeUtils.formatWithHighestUnit(settings.writeInterval()),
                settings.maxBytesPerMinute(),
                settings.maxBytes(),
                TimeUtils.formatWithHighestUnit(settings.retention()));
        return new DurableStores(settings, where.uri(), stores, clock);
    }

    /**
     * Reads the newest whole state back into the stores, within their memory budget, the first time
     * this hub leads (after that, what the stores hold is newer than what another leader wrote
     * meanwhile could fill in before it); a file that is damaged, cut short or foreign is skipped
     * with one log line. Runs on this class's thread, so never beside a write; the caller (the
     * hub's thread) waits for it, so that its first round adds to what was read back.
     */
    public StoreRestorer.Restored restore() {
        synchronized (this) {
            if (restored != null || closed) {
                return restored == null ? StoreRestorer.Restored.NOTHING : restored;
            }
        }
        try {
            return executor.submit(this::restoreNow).get(RESTORE_WAIT_MINUTES, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            failed("could not read back its stores from " + safeUri, e);
        }
        return StoreRestorer.Restored.NOTHING;
    }

    private StoreRestorer.Restored restoreNow() {
        StoreRestorer.Restored result;
        try {
            FileSystem fs = dir.getFileSystem();
            result =
                    new StoreRestorer(stores, Math.min(MAX_FILE_BYTES, stores.maxBytes()))
                            .restore(fs, dir);
            LOG.info("Flink Insight hub read back its stores from {}: {}", safeUri, result);
        } catch (IOException | RuntimeException e) {
            failed("could not read back its stores from " + safeUri, e);
            result = StoreRestorer.Restored.NOTHING;
        }
        synchronized (this) {
            restored = result;
        }
        return result;
    }

    /** Writes what is new every {@code stores.dir.write-interval} from now on. */
    public synchronized void startWriting() {
        if (closed || writes != null) {
            return;
        }
        if (!lastWriteOnExitAdded) {
            try {
                Runtime.getRuntime().addShutdownHook(lastWriteOnExit);
                lastWriteOnExitAdded = true;
            } catch (IllegalStateException | SecurityException e) {
                // the JVM exits already, or may not be given hooks: no last write then
            }
        }
        long interval = settings.writeInterval().toMillis();
        writes =
                executor.scheduleWithFixedDelay(
                        () ->
                                ownThread.runScheduled(
                                        "the hub's write to " + safeUri, this::writeNow),
                        interval,
                        interval,
                        TimeUnit.MILLISECONDS);
    }

    /**
     * Writes no more (another JobManager leads and writes now); a write under way ends first.
     * {@link #startWriting()} starts again.
     */
    public synchronized void stopWriting() {
        if (writes != null) {
            writes.cancel(false);
            writes = null;
        }
    }

    /** One write of what is new, then the directory's retention and byte bound. */
    @VisibleForTesting
    public void writeNow() {
        try {
            FileSystem fs = dir.getFileSystem();
            if (!fs.exists(dir)) {
                fs.mkdirs(dir);
            }
            long before = writer.bytesWritten();
            writer.write(fs, dir, clock.millis());
            bytesWritten.addAndGet(writer.bytesWritten() - before);
            bytesOnDisk = StoreRetention.apply(fs, dir, settings, clock.millis(), writer.ownTail());
            lastWriteMillis = clock.millis();
            if (lastFailure != null) {
                LOG.info("Flink Insight hub writes to {} again", safeUri);
                lastFailure = null;
            }
        } catch (IOException | RuntimeException e) {
            failed(
                    "could not write its stores to "
                            + safeUri
                            + "; it keeps them in memory and tries again every "
                            + TimeUtils.formatWithHighestUnit(settings.writeInterval()),
                    e);
        }
    }

    /**
     * Counts and logs a failure; the overview shows only its kind: an object store's message may
     * name accounts and roles, which the log may hold and the panel's readers need not see.
     */
    private void failed(String what, Exception e) {
        failures.incrementAndGet();
        Throwable cause =
                e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        lastFailure = cause.getClass().getSimpleName();
        warnings.warn(
                "Flink Insight hub " + what + " (" + lastFailure + ": " + cause.getMessage() + ")",
                null);
    }

    /** What the overview and {@code /metrics} say of the directory. */
    public record Status(
            String dir,
            boolean writing,
            long lastWriteMillis,
            long bytesOnDisk,
            long bytesWritten,
            long failures,
            String lastFailure,
            StoreRestorer.Restored restored) {}

    public Status status() {
        boolean on;
        StoreRestorer.Restored readBack;
        synchronized (this) {
            on = writes != null && !closed;
            readBack = restored;
        }
        return new Status(
                safeUri,
                on,
                lastWriteMillis,
                bytesOnDisk,
                bytesWritten.get(),
                failures.get(),
                lastFailure,
                readBack);
    }

    /**
     * Stops writing after one last write of what is new (a graceful restart loses nothing), waiting
     * at most {@value #CLOSE_WAIT_SECONDS} s for it.
     */
    @Override
    public void close() {
        boolean wasWriting;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            wasWriting = writes != null;
        }
        if (wasWriting) {
            executor.execute(() -> ownThread.runScheduled("the hub's last write", this::writeNow));
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                executor.shutdownNow();
                LOG.info(
                        "Flink Insight hub: the last write to {} did not end within {} s",
                        safeUri,
                        CLOSE_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        removeLastWriteOnExit();
    }

    private synchronized void removeLastWriteOnExit() {
        if (lastWriteOnExitAdded && Thread.currentThread() != lastWriteOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(lastWriteOnExit);
            } catch (IllegalStateException e) {
                // the JVM exits: the hook runs and finds this closed
            }
            lastWriteOnExitAdded = false;
        }
    }

    /** {@code uri} without the {@code user:secret@} of its authority, if it has one. */
    static String withoutUserInfo(String uri) {
        return uri.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", "$1");
    }

    /** Reads a whole file of at most {@code maxBytes}; throws when it is larger. */
    static byte[] readFile(FileSystem fs, FileStatus file, long maxBytes) throws IOException {
        long length = file.getLen();
        if (length > maxBytes) {
            throw new IOException(
                    "it is " + length + " bytes, more than the " + maxBytes + " read back at most");
        }
        byte[] bytes = new byte[(int) length];
        try (FSDataInputStream in = fs.open(file.getPath())) {
            int at = 0;
            while (at < bytes.length) {
                int n = in.read(bytes, at, bytes.length - at);
                if (n < 0) {
                    throw new IOException("it ended after " + at + " of " + length + " bytes");
                }
                at += n;
            }
        }
        return bytes;
    }

    /** Writes a new file; it must not exist (names are never reused). */
    static void writeFile(FileSystem fs, Path path, byte[] bytes) throws IOException {
        try (FSDataOutputStream out = fs.create(path, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(bytes);
        }
    }

    /** Our files in the directory, by name, oldest first; others are left out. */
    static List<Listed> list(FileSystem fs, Path dir) throws IOException {
        return list(fs, dir, new int[1]);
    }

    /** As {@link #list(FileSystem, Path)}, counting the entries not ours in {@code others[0]}. */
    static List<Listed> list(FileSystem fs, Path dir, int[] others) throws IOException {
        List<Listed> out = new ArrayList<>();
        FileStatus[] files = fs.exists(dir) ? fs.listStatus(dir) : null;
        if (files != null) {
            for (FileStatus f : files) {
                StoreFileName name = f.isDir() ? null : StoreFileName.parse(f.getPath().getName());
                if (name != null) {
                    out.add(new Listed(name, f));
                } else {
                    others[0]++;
                }
            }
        }
        out.sort(Comparator.comparingLong((Listed l) -> l.name().newestMillis()));
        return out;
    }

    /** One of our files as listed. */
    record Listed(StoreFileName name, FileStatus status) {}
}
