package io.flinkinsight.client.admission;

import io.flinkinsight.client.config.AdmissionSettings;
import io.flinkinsight.client.config.InteractiveClientOptions;
import io.flinkinsight.client.pool.ClusterIdentity;
import io.flinkinsight.common.OptionRange;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps the queries this process keeps running on each cluster. A cluster that gets every query at
 * once runs them all slower (they share one JobManager's and one TaskManager's main threads), and a
 * query whose job already runs keeps its JDBC client fetching results in a tight loop through the
 * gateway; a query that waits here instead is "not ready" to the gateway, whose JDBC clients then
 * poll every 100 ms. Queries wait in order of arrival.
 *
 * <p>A query holds its place until it ends or has held it for the configured time, so long
 * streaming queries never hold back short ones for longer than that.
 *
 * <p>A cluster's state lives while queries wait for or hold a place on it, so sessions that name
 * many clusters (or set distinct {@code rest.*} values) leave nothing behind once their queries
 * ended.
 */
public final class QueryAdmission {

    private final ScheduledExecutorService scheduler;
    private final ConcurrentHashMap<ClusterIdentity, ClusterQueries> byCluster =
            new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();

    public QueryAdmission(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /** One query's place; giving it back twice is harmless. */
    public interface Place {
        void release();

        /** Other queries of this process that hold a place on the same cluster now. */
        int othersInFlight();
    }

    /** A place that holds nothing (the job is not a query). */
    public static final Place NONE =
            new Place() {
                @Override
                public void release() {}

                @Override
                public int othersInFlight() {
                    return 0;
                }
            };

    /**
     * The queries of one cluster: the places under its cap ({@code null} without a cap), those
     * holding one, and those waiting for or holding one (the entry goes when none are left).
     */
    private record ClusterQueries(Semaphore places, AtomicInteger inFlight, AtomicInteger users) {}

    /**
     * Waits on the caller's thread for a place on {@code cluster}, at most the configured timeout.
     * Flink's callers of an executor block on the job client future anyway; waiting before
     * submission adds no thread.
     *
     * @throws TimeoutException naming the options, when no place became free in time
     */
    public Place enter(ClusterIdentity cluster, AdmissionSettings settings)
            throws InterruptedException, TimeoutException {
        int max = settings.maxQueries();
        // The first query of a cluster fixes its cap for as long as queries wait for or hold places
        // on it.
        ClusterQueries queries =
                byCluster.compute(
                        cluster,
                        (key, present) -> {
                            ClusterQueries entry =
                                    present != null
                                            ? present
                                            : new ClusterQueries(
                                                    max == 0 ? null : new Semaphore(max, true),
                                                    new AtomicInteger(),
                                                    new AtomicInteger());
                            entry.users().incrementAndGet();
                            return entry;
                        });
        boolean placed = false;
        try {
            if (queries.places() != null) {
                awaitPlace(queries.places(), settings.timeout(), max);
            }
            placed = true;
            return new HeldPlace(cluster, queries, settings.maxHold());
        } finally {
            if (!placed) {
                leave(cluster);
            }
        }
    }

    /**
     * A query stopped waiting for or holding a place on {@code cluster}; the last one takes the
     * entry away.
     */
    private void leave(ClusterIdentity cluster) {
        byCluster.computeIfPresent(
                cluster, (key, entry) -> entry.users().decrementAndGet() == 0 ? null : entry);
    }

    /** Clusters with queries waiting for or holding a place now. */
    int clusters() {
        return byCluster.size();
    }

    private void awaitPlace(Semaphore places, Duration timeout, int max)
            throws InterruptedException, TimeoutException {
        waiting.incrementAndGet();
        try {
            if (!places.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException(
                        "No place for the query on the cluster within "
                                + OptionRange.format(timeout)
                                + " ("
                                + InteractiveClientOptions.ADMISSION_TIMEOUT.key()
                                + "): "
                                + max
                                + " queries ("
                                + InteractiveClientOptions.MAX_QUERIES_IN_FLIGHT.key()
                                + ") are running on it.");
            }
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Queries waiting for a place, on all clusters. */
    public int waiting() {
        return waiting.get();
    }

    private final class HeldPlace implements Place {
        private final ClusterIdentity cluster;
        private final ClusterQueries queries;
        private final AtomicBoolean released = new AtomicBoolean();
        private final ScheduledFuture<?> expiry;

        HeldPlace(ClusterIdentity cluster, ClusterQueries queries, Duration maxHold) {
            this.cluster = cluster;
            this.queries = queries;
            queries.inFlight().incrementAndGet();
            ScheduledFuture<?> scheduled;
            try {
                scheduled =
                        scheduler.schedule(this::release, maxHold.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RuntimeException e) {
                // the runtime is shutting down: nothing will wait for this place any more
                scheduled = null;
            }
            this.expiry = scheduled;
        }

        @Override
        public void release() {
            if (released.compareAndSet(false, true)) {
                queries.inFlight().decrementAndGet();
                if (queries.places() != null) {
                    queries.places().release();
                }
                if (expiry != null) {
                    expiry.cancel(false);
                }
                leave(cluster);
            }
        }

        @Override
        public int othersInFlight() {
            return Math.max(0, queries.inFlight().get() - (released.get() ? 0 : 1));
        }
    }
}
