package io.flinkinsight.client.metrics;

import io.flinkinsight.client.flink.ClientBoundaries;
import io.flinkinsight.client.transport.TransportListener;
import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Every figure of the interactive client, as Flink metric objects: the client pool, the REST
 * channels, result collection and queries. The objects work whether or not they are registered with
 * a reporter. Their groups, names and kinds are the contract declared in {@code
 * client-figures.json} (insight-common's {@code ClientFigures}), which the plugin and the panel
 * read; {@code ClientMetricRegistryTest} checks that {@link #registerOn} registers exactly those.
 */
public final class ClientMetrics {

    /** A trace reporter's failure must not reach the thread that ends a query. */
    private static final FlinkBoundary SPANS =
            ClientBoundaries.logTo(LoggerFactory.getLogger(ClientMetrics.class));

    /** Values kept by each latency histogram (a sliding window of the most recent ones). */
    static final int HISTOGRAM_WINDOW = 1024;

    // group "pool"
    public final Counter poolRequests = new ThreadSafeSimpleCounter();
    public final Counter poolHits = new ThreadSafeSimpleCounter();
    public final Counter poolMisses = new ThreadSafeSimpleCounter();
    public final Counter poolEvictions = new ThreadSafeSimpleCounter();

    private volatile IntSupplier poolSize = () -> 0;

    /** Where the query spans go: the group the figures are registered on. */
    @Nullable private volatile MetricGroup spans;

    // group "channels"
    public final Counter channelRequests = new ThreadSafeSimpleCounter();
    public final Counter channelsOpened = new ThreadSafeSimpleCounter();
    public final Counter channelsReused = new ThreadSafeSimpleCounter();
    public final AtomicInteger channelsInFlight = new AtomicInteger();
    public final Histogram requestLatencyMs = newHistogram();

    /** REST requests to the JobManager sent for queries (see {@code QueryRecord#requestSent}). */
    public final Counter queryRequests = new ThreadSafeSimpleCounter();

    /** Per ended query, the REST requests sent for it. */
    public final Histogram requestsPerQuery = newHistogram();

    // group "collect"
    public final Counter collectRequests = new ThreadSafeSimpleCounter();
    public final Counter collectRetries = new ThreadSafeSimpleCounter();
    public final Histogram retriesPerQuery = newHistogram();

    // group "queries"
    public final Counter queriesSubmitted = new ThreadSafeSimpleCounter();
    public final Counter queriesSucceeded = new ThreadSafeSimpleCounter();
    public final Counter queriesFailed = new ThreadSafeSimpleCounter();
    public final Histogram e2eLatencyMs = newHistogram();
    public final Histogram submitMs = newHistogram();
    public final Histogram admissionWaitMs = newHistogram();

    private volatile IntSupplier queriesWaiting = () -> 0;

    public final Histogram jobStartWaitMs = newHistogram();
    public final Histogram clusterRunMs = newHistogram();
    public final Histogram resultFetchMs = newHistogram();

    private final TransportListener transportListener = new ChannelFigures();

    /** Reports {@code query} as a span to the trace reporters, if the figures are registered. */
    public void queryEnded(QueryTimeline query) {
        MetricGroup group = spans;
        if (group != null) {
            SPANS.runScheduled("reporting a query's span", () -> group.addSpan(query.toSpan()));
        }
    }

    /** The pool's gauge {@code size} reads {@code size} (the pool's entries) from now on. */
    public void gaugePoolSize(IntSupplier size) {
        this.poolSize = size;
    }

    /** What the pool's gauge {@code size} reads now. */
    public int poolSize() {
        return poolSize.getAsInt();
    }

    /**
     * The gauge {@code queries.waiting} reads {@code waiting} (queries waiting for a place under
     * the cap on queries in flight) from now on.
     */
    public void gaugeQueriesWaiting(IntSupplier waiting) {
        this.queriesWaiting = waiting;
    }

    /** Metrics that are not registered anywhere (tests, or when no registry could be built). */
    public ClientMetrics() {}

    /** Registers every figure under {@code root} (groups pool, channels, collect, queries). */
    public ClientMetrics registerOn(MetricGroup root) {
        this.spans = root;
        MetricGroup pool = root.addGroup("pool");
        pool.counter("requests", poolRequests);
        pool.counter("hits", poolHits);
        pool.counter("misses", poolMisses);
        pool.counter("evictions", poolEvictions);
        pool.gauge("hitRate", (Gauge<Double>) this::poolHitRate);
        pool.gauge("size", (Gauge<Integer>) this::poolSize);

        MetricGroup channels = root.addGroup("channels");
        channels.counter("requests", channelRequests);
        channels.counter("opened", channelsOpened);
        channels.counter("reused", channelsReused);
        channels.gauge("reuseRatio", (Gauge<Double>) this::channelReuseRatio);
        channels.gauge("inFlight", (Gauge<Integer>) channelsInFlight::get);
        channels.histogram("requestLatencyMs", requestLatencyMs);
        channels.counter("queryRequests", queryRequests);
        channels.histogram("requestsPerQuery", requestsPerQuery);

        MetricGroup collect = root.addGroup("collect");
        collect.counter("requests", collectRequests);
        collect.counter("retries", collectRetries);
        collect.histogram("retriesPerQuery", retriesPerQuery);

        MetricGroup queries = root.addGroup("queries");
        queries.counter("submitted", queriesSubmitted);
        queries.counter("succeeded", queriesSucceeded);
        queries.counter("failed", queriesFailed);
        queries.histogram("e2eLatencyMs", e2eLatencyMs);
        queries.histogram("submitMs", submitMs);
        queries.histogram("admissionWaitMs", admissionWaitMs);
        queries.gauge("waiting", (Gauge<Integer>) () -> queriesWaiting.getAsInt());
        queries.histogram("jobStartWaitMs", jobStartWaitMs);
        queries.histogram("clusterRunMs", clusterRunMs);
        queries.histogram("resultFetchMs", resultFetchMs);
        return this;
    }

    /**
     * Share of pool lookups served by an existing client, 0 before the first: hits over hits and
     * misses, the ratio client-figures.json declares for it, which the plugin computes the same way
     * over all client processes.
     */
    public double poolHitRate() {
        long hits = poolHits.getCount();
        return ratio(hits, hits + poolMisses.getCount());
    }

    /**
     * Share of REST requests that rode an open channel, 0 before the first: as client-figures.json
     * declares.
     */
    public double channelReuseRatio() {
        long reused = channelsReused.getCount();
        return ratio(reused, reused + channelsOpened.getCount());
    }

    /** Feeds the channel figures; handed to the keep-alive transport. */
    public TransportListener transportListener() {
        return transportListener;
    }

    private static double ratio(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }

    private static Histogram newHistogram() {
        return new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW);
    }

    /**
     * The channel group's side of {@link TransportListener}: counters only, so it is cheap on the
     * event loop.
     */
    private final class ChannelFigures implements TransportListener {

        @Override
        public void channelOpened() {
            channelsOpened.inc();
        }

        @Override
        public void channelReused() {
            channelsReused.inc();
        }

        @Override
        public void requestFinished(long latencyNanos, boolean success) {
            channelRequests.inc();
            // rounded, not truncated: keep-alive requests often take less than a millisecond
            requestLatencyMs.update((latencyNanos + 500_000L) / 1_000_000L);
        }

        @Override
        public void inFlightChanged(int delta) {
            channelsInFlight.addAndGet(delta);
        }
    }
}
