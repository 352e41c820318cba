package io.flinkinsight.plugin.hub;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.MetricGroup;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether this JobManager process leads its cluster, learnt from the metrics Flink registers: the
 * signal is process-local, exact, and needs nothing of Flink but the metric callbacks the reporter
 * already gets.
 *
 * <p>Flink creates a ResourceManager per leadership session ({@code
 * ResourceManagerServiceImpl.grantLeadership}); it registers the gauge {@value #SIGNAL_METRIC} on
 * its own metric group, whose logical scope is {@code jobmanager}, when it starts ({@code
 * ResourceManager.onStart → registerMetrics}) and closes that group, which unregisters the gauge,
 * when leadership is revoked ({@code onStop → resourceManagerMetricGroup.close()}). Same code in
 * Flink 1.20 and 2.x. Without high availability the single JobManager is granted leadership at
 * once, so its gauge arrives just after the REST endpoint starts. A re-grant may start the new
 * ResourceManager before the old one's group is closed (its close is asynchronous), so the gauges
 * alive are counted rather than a flag flipped.
 *
 * <p>Fed from the reporter's callbacks, under Flink's metric registry lock: only a counter moves
 * there. The hub reads {@link #leading()} on its own thread.
 */
public final class Leadership {

    /** The ResourceManager's gauge, {@code MetricNames.NUM_REGISTERED_TASK_MANAGERS}. */
    public static final String SIGNAL_METRIC = "numRegisteredTaskManagers";

    /** The logical scope of the ResourceManager's metric group. */
    static final String SIGNAL_SCOPE = "jobmanager";

    private final AtomicInteger resourceManagers = new AtomicInteger();

    /** Flink registered a metric: a ResourceManager's gauge means leadership was granted. */
    public void metricAdded(String metricName, MetricGroup group) {
        if (isSignal(metricName, group)) {
            resourceManagers.incrementAndGet();
        }
    }

    /** Flink unregistered a metric: a ResourceManager's gauge means its leadership ended. */
    public void metricRemoved(String metricName, MetricGroup group) {
        if (isSignal(metricName, group)) {
            resourceManagers.updateAndGet(n -> Math.max(0, n - 1));
        }
    }

    /** A leadership already granted, for tests that poll. */
    @VisibleForTesting
    public static Leadership granted() {
        Leadership leadership = new Leadership();
        leadership.resourceManagers.set(1);
        return leadership;
    }

    /** Whether a ResourceManager of this process runs, i.e. this JobManager leads. */
    public boolean leading() {
        return resourceManagers.get() > 0;
    }

    private static boolean isSignal(String metricName, MetricGroup group) {
        if (!SIGNAL_METRIC.equals(metricName)) {
            return false; // the common case: no scope computed
        }
        try {
            return SIGNAL_SCOPE.equals(
                    LogicalScopeProvider.castFrom(group).getLogicalScope(s -> s));
        } catch (RuntimeException e) {
            return false; // a group without logical scope is not the ResourceManager's
        }
    }
}
