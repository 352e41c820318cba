package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.hub.Hub;
import io.flinkinsight.plugin.index.RegisteredMetric;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * Which role this process plays, declared or learnt from the scopes of the metrics Flink registers,
 * and the hub the JobManager's role starts: once, unless the hub is turned off, and never after
 * close.
 */
final class RoleTracker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoleTracker.class);

    private final ProcessRole declared;
    private final boolean hubEnabled;
    private final Supplier<Hub> hubStart;
    private volatile ProcessRole role;
    private Hub hub; // guarded by this
    private boolean closed; // guarded by this

    /**
     * @param declared the role the options or the system property declare, or null to learn it from
     *     the metrics
     * @param hubStart starts the hub when this process turns out to be the JobManager
     */
    RoleTracker(ProcessRole declared, boolean hubEnabled, Supplier<Hub> hubStart) {
        this.declared = declared;
        this.hubEnabled = hubEnabled;
        this.hubStart = hubStart;
    }

    /** Takes the declared role, if any (a declared JobManager starts its hub now). */
    void start() {
        if (declared != null) {
            set(declared);
        }
    }

    /** Flink registered {@code metric}: its scope may tell the role, unless one was declared. */
    void metricAdded(RegisteredMetric metric) {
        if (declared != null || ProcessRole.JOBMANAGER.equals(role)) {
            return;
        }
        ProcessRole detected = ProcessRole.fromLogicalScope(metric.family().logicalScope());
        // JobManager wins over TaskManager and client: a MiniCluster runs several, and the hub
        // belongs to the
        // JobManager.
        if (detected != null && (role == null || detected.equals(ProcessRole.JOBMANAGER))) {
            set(detected);
        }
    }

    /** The role is known: a JobManager starts the hub (once, unless turned off or closed). */
    void set(ProcessRole newRole) {
        role = newRole;
        try {
            synchronized (this) {
                if (ProcessRole.JOBMANAGER.equals(newRole)
                        && hubEnabled
                        && hub == null
                        && !closed) {
                    hub = hubStart.get();
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // The hub is optional: without it this process still reports (and the reporter still
            // opens).
            LOG.warn("Flink Insight: the hub could not start", e);
        }
    }

    /** The role known so far (jobmanager, taskmanager, client), or null. */
    ProcessRole role() {
        return role;
    }

    /** The hub this process runs, or null. */
    synchronized Hub hub() {
        return hub;
    }

    /** Stops the hub; none starts after this. */
    @Override
    public void close() {
        Hub toClose;
        synchronized (this) {
            closed = true;
            toClose = hub;
            hub = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }
}
