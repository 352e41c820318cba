package io.flinkinsight.client;

import io.flinkinsight.client.admission.QueryAdmission;
import io.flinkinsight.client.collect.RecentJobRuns;
import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.flink.ClientBoundaries;
import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.client.metrics.ClientMetricRegistry;
import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.metrics.QueryTimeline;
import io.flinkinsight.client.pool.ClusterClientPool;
import io.flinkinsight.client.transport.KeepAliveClusterClients;
import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.ShutdownHookUtil;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoopGroup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Everything the interactive client shares within a process, created once, lazily, from the
 * configuration of the first query: the pool of cluster clients, one Netty event loop for all of
 * them, the cap on queries in flight, one small scheduler for waits and sweeps, one background
 * thread for blocking work, and the client's metric registry. Flink creates executor factories and
 * executors per query, so they keep no state and use this instead.
 */
public final class InteractiveClientRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InteractiveClientRuntime.class);

    private static final Object LOCK = new Object();
    private static volatile InteractiveClientRuntime instance;

    private final NioEventLoopGroup eventLoop;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ThreadPoolExecutor background;
    private final ClientMetricRegistry metricRegistry;
    private final ClusterClientPool pool;
    private final QueryAdmission admission;
    private final RecentJobRuns recentJobRuns = new RecentJobRuns();

    private InteractiveClientRuntime(
            Configuration conf, InteractiveClientSettings settings, FlinkApi flink) {
        // Threads of all three start on first use; the event loop is built first as the only part
        // that can fail.
        this.eventLoop =
                new NioEventLoopGroup(settings.ioThreads(), threads("flink-insight-client-io"));
        this.scheduler = new GuardedScheduler(threads("flink-insight-client-scheduler"));
        scheduler.setRemoveOnCancelPolicy(true);
        this.background =
                new ThreadPoolExecutor(
                        0,
                        1,
                        60,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        threads("flink-insight-client-background"));
        this.metricRegistry = ClientMetricRegistry.create(conf, flink);
        ClientMetrics metrics = metricRegistry.metrics();
        this.pool =
                new ClusterClientPool(
                        identity ->
                                KeepAliveClusterClients.create(
                                        identity.configuration(),
                                        eventLoop,
                                        identity.settings().channelPool(),
                                        metrics.transportListener(),
                                        flink),
                        metrics,
                        scheduler,
                        background,
                        System::nanoTime);
        this.admission = new QueryAdmission(scheduler);
        metrics.gaugeQueriesWaiting(admission::waiting);
    }

    /**
     * The process's runtime, created from {@code conf} and its {@code settings} if this is the
     * first call: the metric registry is built from {@code conf}, the event loop has {@code
     * settings}' IO threads, and the client's mechanisms call Flink through {@code flink}.
     */
    public static InteractiveClientRuntime get(
            Configuration conf, InteractiveClientSettings settings, FlinkApi flink) {
        InteractiveClientRuntime current = instance;
        if (current != null) {
            return current;
        }
        synchronized (LOCK) {
            if (instance == null) {
                String spans = QueryTimeline.describeSpans(); // before anything is built
                InteractiveClientRuntime created =
                        new InteractiveClientRuntime(conf, settings, flink);
                ShutdownHookUtil.addShutdownHook(created, "Flink Insight interactive client", LOG);
                LOG.info(
                        "Flink Insight interactive client started ({} IO threads, metrics {}; {}; {}).",
                        settings.ioThreads(),
                        created.metricRegistry.isReporting() ? "reported" : "not reported",
                        flink.describe(),
                        spans);
                instance = created;
            }
            return instance;
        }
    }

    public ClusterClientPool pool() {
        return pool;
    }

    /**
     * How long the jobs of this process's recent queries ran; sets how long a new query's first
     * poll waits.
     */
    public RecentJobRuns recentJobRuns() {
        return recentJobRuns;
    }

    public QueryAdmission admission() {
        return admission;
    }

    public ClientMetrics metrics() {
        return metricRegistry.metrics();
    }

    /** For short, non-blocking tasks only: delayed polls and expiry sweeps. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /**
     * For work that may block (closing evicted clients, job status listeners); one thread, started
     * on demand.
     */
    public Executor background() {
        return background;
    }

    /** Runs at JVM shutdown; closes without waiting for anything. */
    @Override
    public void close() {
        pool.close();
        metricRegistry.close();
        scheduler.shutdownNow();
        eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /**
     * The one scheduler thread, whose tasks run through a {@link FlinkBoundary}: a task's exception
     * would otherwise vanish into its future, which nobody reads. The client's tasks all reach it
     * through {@link #schedule(Runnable, long, TimeUnit)} (so does {@code execute}); the client
     * schedules no {@code Callable} and nothing periodic, which would pass unguarded.
     */
    static final class GuardedScheduler extends ScheduledThreadPoolExecutor {
        private static final FlinkBoundary TASKS = ClientBoundaries.logTo(LOG);

        GuardedScheduler(ThreadFactory threads) {
            super(1, threads);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
            return super.schedule(
                    TASKS.guarded("a task of the interactive client's scheduler", task),
                    delay,
                    unit);
        }
    }

    /**
     * Daemon threads that log instead of killing the host process on an uncaught exception, and
     * that do not pin the class loader of whichever query happened to create them.
     */
    private static ThreadFactory threads(String name) {
        ThreadFactory base =
                new ExecutorThreadFactory(
                        name,
                        (thread, t) -> LOG.error("Uncaught exception in {}", thread.getName(), t));
        ClassLoader ownLoader = InteractiveClientRuntime.class.getClassLoader();
        return runnable -> {
            Thread thread = base.newThread(runnable);
            thread.setContextClassLoader(ownLoader);
            return thread;
        };
    }
}
