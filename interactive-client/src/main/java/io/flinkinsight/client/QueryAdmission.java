package io.flinkinsight.client;

import io.flinkinsight.client.pool.ClusterIdentity;

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
 * Caps the queries this process keeps running on each cluster. A cluster that gets every query at once runs them
 * all slower (they share one JobManager's and one TaskManager's main threads), and a query whose job already runs
 * keeps its JDBC client fetching results in a tight loop through the gateway; a query that waits here instead is
 * "not ready" to the gateway, whose JDBC clients then poll every 100 ms. Queries wait in order of arrival.
 *
 * <p>A query holds its place until it ends or has held it for the configured time, so long streaming queries never
 * hold back short ones for longer than that.
 */
public final class QueryAdmission {

    private final ScheduledExecutorService scheduler;
    private final ConcurrentHashMap<ClusterIdentity, ClusterQueries> byCluster = new ConcurrentHashMap<>();
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
    public static final Place NONE = new Place() {
        @Override
        public void release() {}

        @Override
        public int othersInFlight() {
            return 0;
        }
    };

    /**
     * The admission options of a query, as {@link InteractiveClientSettings} read them.
     *
     * @param maxQueries {@link InteractiveClientOptions#MAX_QUERIES_IN_FLIGHT}
     * @param timeout {@link InteractiveClientOptions#ADMISSION_TIMEOUT}
     * @param maxHold {@link InteractiveClientOptions#ADMISSION_MAX_HOLD}
     */
    public record Settings(int maxQueries, Duration timeout, Duration maxHold) {}

    /** The queries of one cluster: the places under its cap ({@code null} without a cap) and those holding one. */
    private record ClusterQueries(Semaphore places, AtomicInteger inFlight) {}

    /**
     * Waits on the caller's thread for a place on {@code cluster}, at most the configured timeout. Flink's callers
     * of an executor block on the job client future anyway; waiting before submission adds no thread.
     *
     * @throws TimeoutException naming the options, when no place became free in time
     */
    public Place enter(ClusterIdentity cluster, Settings settings) throws InterruptedException, TimeoutException {
        int max = settings.maxQueries();
        // The first query of a cluster fixes its cap for the life of the process, like the client pool's settings.
        ClusterQueries queries = byCluster.computeIfAbsent(cluster,
                ignored -> new ClusterQueries(max == 0 ? null : new Semaphore(max, true), new AtomicInteger()));
        if (queries.places() != null) {
            awaitPlace(queries.places(), settings.timeout(), max);
        }
        return new HeldPlace(queries, settings.maxHold());
    }

    private void awaitPlace(Semaphore places, Duration timeout, int max)
            throws InterruptedException, TimeoutException {
        waiting.incrementAndGet();
        try {
            if (!places.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException("No place for the query on the cluster within "
                        + ConfigChecks.format(timeout) + " ("
                        + InteractiveClientOptions.ADMISSION_TIMEOUT.key() + "): "
                        + max + " queries (" + InteractiveClientOptions.MAX_QUERIES_IN_FLIGHT.key()
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
        private final ClusterQueries queries;
        private final AtomicBoolean released = new AtomicBoolean();
        private final ScheduledFuture<?> expiry;

        HeldPlace(ClusterQueries queries, Duration maxHold) {
            this.queries = queries;
            queries.inFlight().incrementAndGet();
            ScheduledFuture<?> scheduled;
            try {
                scheduled = scheduler.schedule(this::release, maxHold.toNanos(), TimeUnit.NANOSECONDS);
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
            }
        }

        @Override
        public int othersInFlight() {
            return Math.max(0, queries.inFlight().get() - (released.get() ? 0 : 1));
        }
    }
}
