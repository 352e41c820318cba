package io.flinkinsight.client.pool;

import io.flinkinsight.client.flink.ClientBoundaries;
import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.transport.PooledTransport;
import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One pooled cluster client per {@link ClusterIdentity}, shared by every query and request of the
 * process. Users take a {@link Lease}; closing a lease never closes the client. A client is closed,
 * on a background thread, when it has not been leased for {@code
 * execution.interactive.client-pool.expire-after-access} and no lease is open, or once its last
 * lease is closed after it was evicted because the JobManager could not be reached (the next lease
 * then builds a fresh client, with fresh leader retrieval).
 */
public final class ClusterClientPool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterClientPool.class);
    private static final FlinkBoundary OWN_THREADS = ClientBoundaries.logTo(LOG);

    /** Builds the client of one cluster; called once per pool entry. */
    @FunctionalInterface
    public interface TransportFactory {
        PooledTransport create(ClusterIdentity identity) throws Exception;
    }

    private final ConcurrentHashMap<ClusterIdentity, Entry> entries = new ConcurrentHashMap<>();
    private final TransportFactory factory;
    private final ClientMetrics metrics;
    @Nullable private final ScheduledExecutorService scheduler;
    private final Executor closer;
    private final LongSupplier nanoClock;
    private final AtomicBoolean closed = new AtomicBoolean();

    private final Object sweepLock = new Object();
    @Nullable private ScheduledFuture<?> pendingSweep;
    private long pendingSweepAtNanos;

    /**
     * @param scheduler runs the expiry sweeps; null means only {@link #evictExpired()} evicts
     *     (tests)
     * @param closer closes evicted clients (closing can block for seconds)
     * @param nanoClock the time source of expiry, {@code System::nanoTime} outside tests
     */
    public ClusterClientPool(
            TransportFactory factory,
            ClientMetrics metrics,
            @Nullable ScheduledExecutorService scheduler,
            Executor closer,
            LongSupplier nanoClock) {
        this.factory = factory;
        this.metrics = metrics;
        this.scheduler = scheduler;
        this.closer = closer;
        this.nanoClock = nanoClock;
        metrics.gaugePoolSize(entries::size);
    }

    /** A lease on the client of {@code identity}, building the client if there is none. */
    public Lease lease(ClusterIdentity identity) throws Exception {
        if (closed.get()) {
            throw new IllegalStateException("The interactive client pool is closed.");
        }
        metrics.poolRequests.inc();
        while (true) {
            if (closed.get()) {
                throw new IllegalStateException("The interactive client pool is closed.");
            }
            Entry entry = entries.get(identity);
            boolean created = false;
            if (entry == null) {
                Entry fresh = new Entry(identity);
                entry = entries.putIfAbsent(identity, fresh);
                if (entry == null) {
                    entry = fresh;
                    created = true;
                    try {
                        fresh.transport = factory.create(identity);
                    } catch (Throwable t) {
                        // not left half-built, whatever failed, or later leases would wait on it
                        // for ever
                        entries.remove(identity, fresh);
                        fresh.failed(t);
                        metrics.poolMisses.inc();
                        throw t instanceof Exception ? (Exception) t : new RuntimeException(t);
                    }
                    fresh.ready.complete(null);
                    if (closed.get()) {
                        // close() ran while this client was being built and could not see it
                        entries.remove(identity, fresh);
                        fresh.closeInBackground();
                        throw new IllegalStateException("The interactive client pool is closed.");
                    }
                    scheduleSweep(nanoClock.getAsLong() + fresh.expireAfterNanos);
                }
            }
            if (!created) {
                // Another caller may still be building this entry's client.
                entry.awaitReady();
            }
            if (entry.tryAcquire()) {
                (created ? metrics.poolMisses : metrics.poolHits).inc();
                return new Lease(entry);
            }
            // The entry was evicted between lookup and lease: look again.
        }
    }

    /**
     * Runs {@code request} on a leased client and closes the lease when its future completes; a
     * connection failure evicts the client.
     */
    public <T> CompletableFuture<T> call(
            ClusterIdentity identity,
            Function<RestClusterClient<StandaloneClusterId>, CompletableFuture<T>> request) {
        Lease lease;
        try {
            lease = lease(identity);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<T> result;
        try {
            result = request.apply(lease.client());
        } catch (Throwable t) {
            // the lease goes back, and the caller learns of the failure from the future, as of any
            // other
            lease.failed(t);
            lease.close();
            return CompletableFuture.failedFuture(t);
        }
        return lease.track(result);
    }

    /** Pooled clients, leased or not. */
    public int size() {
        return entries.size();
    }

    /**
     * Evicts and closes every client idle for longer than its expire-after-access; returns how
     * many.
     */
    public int evictExpired() {
        long now = nanoClock.getAsLong();
        int evicted = 0;
        for (Entry entry : entries.values()) {
            if (entry.retireIfExpired(now)) {
                evicted++;
            }
        }
        return evicted;
    }

    private void sweepAndReschedule() {
        synchronized (sweepLock) {
            pendingSweep = null;
        }
        // guarded apart from the rest, so that the next sweep is scheduled whatever happens here
        OWN_THREADS.runScheduled("evicting expired cluster clients", this::evictExpired);
        long next = Long.MAX_VALUE;
        for (Entry entry : entries.values()) {
            next = Math.min(next, entry.expiresAtNanos());
        }
        if (next != Long.MAX_VALUE) {
            scheduleSweep(next);
        }
    }

    private void scheduleSweep(long atNanos) {
        if (scheduler == null || closed.get()) {
            return;
        }
        synchronized (sweepLock) {
            if (pendingSweep != null && pendingSweepAtNanos <= atNanos) {
                return;
            }
            if (pendingSweep != null) {
                pendingSweep.cancel(false);
            }
            long delay =
                    Math.max(TimeUnit.MILLISECONDS.toNanos(10), atNanos - nanoClock.getAsLong());
            try {
                pendingSweep =
                        scheduler.schedule(this::sweepAndReschedule, delay, TimeUnit.NANOSECONDS);
                pendingSweepAtNanos = atNanos;
            } catch (Exception e) {
                LOG.debug("Cannot schedule the next expiry sweep (shutting down?).", e);
            }
        }
    }

    /** Closes every client, leased or not, in the background; later leases fail. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (sweepLock) {
            if (pendingSweep != null) {
                pendingSweep.cancel(false);
            }
        }
        List<Entry> all = new ArrayList<>(entries.values());
        for (Entry entry : all) {
            entry.retire(true);
        }
    }

    /** A pooled client and its bookkeeping. */
    private final class Entry {
        final ClusterIdentity identity;
        final long expireAfterNanos;
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        volatile PooledTransport transport;
        // guarded by this
        int leases;
        long lastAccessNanos;
        boolean retired;
        boolean closeScheduled;

        Entry(ClusterIdentity identity) {
            this.identity = identity;
            this.expireAfterNanos = identity.settings().expireAfterAccess().toNanos();
            this.lastAccessNanos = nanoClock.getAsLong();
        }

        void awaitReady() {
            try {
                ready.join();
            } catch (Exception e) {
                // The creator failed; the caller's loop looks up again and may create the client
                // itself.
            }
        }

        void failed(Throwable t) {
            synchronized (this) {
                retired = true;
            }
            ready.completeExceptionally(t);
        }

        synchronized boolean tryAcquire() {
            if (retired || transport == null) {
                return false;
            }
            leases++;
            lastAccessNanos = nanoClock.getAsLong();
            return true;
        }

        void release() {
            boolean closeNow;
            synchronized (this) {
                leases--;
                lastAccessNanos = nanoClock.getAsLong();
                closeNow = retired && leases == 0 && !closeScheduled;
                closeScheduled |= closeNow;
            }
            if (closeNow) {
                closeInBackground();
            }
        }

        synchronized long expiresAtNanos() {
            return retired ? Long.MAX_VALUE : lastAccessNanos + expireAfterNanos;
        }

        boolean retireIfExpired(long nowNanos) {
            synchronized (this) {
                if (retired
                        || transport == null
                        || leases > 0
                        || nowNanos - lastAccessNanos < expireAfterNanos) {
                    return false;
                }
            }
            LOG.debug(
                    "Closing the pooled client of {}: unused for {} s.",
                    identity,
                    expireAfterNanos / 1_000_000_000L);
            return retire(false);
        }

        /**
         * Takes the entry out of the pool; closes it now if unleased, else when its last lease
         * closes.
         */
        boolean retire(boolean evenIfLeased) {
            boolean closeNow;
            synchronized (this) {
                if (retired) {
                    return false;
                }
                retired = true;
                closeNow = (leases == 0 || evenIfLeased) && !closeScheduled;
                closeScheduled |= closeNow;
            }
            entries.remove(identity, this);
            metrics.poolEvictions.inc();
            if (closeNow) {
                closeInBackground();
            }
            return true;
        }

        private void closeInBackground() {
            PooledTransport toClose = transport;
            if (toClose == null) {
                return;
            }
            // called from a lease's release, on whichever thread completed its request: nothing may
            // reach it
            OWN_THREADS.runScheduled(
                    "handing a pooled cluster client to its closer",
                    () ->
                            closer.execute(
                                    OWN_THREADS.guarded(
                                            "closing a pooled cluster client", toClose::close)));
        }
    }

    /**
     * One user's hold on a pooled client; {@link #close()} releases it and never closes the client.
     */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(Entry entry) {
            this.entry = entry;
        }

        public RestClusterClient<StandaloneClusterId> client() {
            return entry.transport.clusterClient();
        }

        public PooledTransport transport() {
            return entry.transport;
        }

        public ClusterIdentity identity() {
            return entry.identity;
        }

        /**
         * Reports a failed request; a connection failure evicts the client so the next lease gets a
         * fresh one.
         */
        public void failed(Throwable failure) {
            if (ConnectionErrors.isConnectionError(failure) && entry.retire(false)) {
                LOG.info(
                        "Evicted the pooled client of {} after a connection failure: {}",
                        entry.identity,
                        String.valueOf(failure));
            }
        }

        /** Reports the outcome of {@code future} and closes this lease when it completes. */
        public <T> CompletableFuture<T> track(CompletableFuture<T> future) {
            return future.whenComplete(
                    (value, failure) -> {
                        if (failure != null) {
                            failed(failure);
                        }
                        close();
                    });
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                entry.release();
            }
        }
    }
}
