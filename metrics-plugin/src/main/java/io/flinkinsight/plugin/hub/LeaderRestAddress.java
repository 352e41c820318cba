package io.flinkinsight.plugin.hub;

import org.apache.flink.configuration.Configuration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The leading JobManager's REST URL under high availability, as Flink's own clients learn it:
 * {@code HighAvailabilityServicesUtils.createClientHAService(configuration,
 * fatalErrorHandler).getClusterRestEndpointLeaderRetriever()} (same signatures in Flink 1.20 and
 * 2.x), so a standby can name the leader. With ZooKeeper this is one more ZooKeeper session per
 * JobManager process, opened by the hub's thread and closed with the hub.
 *
 * <p>Reached by reflection: flink-runtime is in every JobManager (the plugin class loader loads
 * {@code org.apache.flink.*} parent-first) but the plugin compiles against Flink's public API only,
 * so a changed runtime signature costs the leader's name (logged once), never the plugin.
 */
final class LeaderRestAddress implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderRestAddress.class);

    private static final String RUNTIME = "org.apache.flink.runtime.";

    private final AutoCloseable services;
    private final Object retriever;
    private final Method stop;
    private volatile String url;

    private LeaderRestAddress(AutoCloseable services, Object retriever, Method stop) {
        this.services = services;
        this.retriever = retriever;
        this.stop = stop;
    }

    /**
     * Whether {@code flink} configures high availability ({@code high-availability.type}, or its
     * deprecated keys, other than NONE), as Flink reads it; false when that cannot be told.
     */
    static boolean highlyAvailable(Configuration flink) {
        try {
            Class<?> mode = load("jobmanager.HighAvailabilityMode");
            return (Boolean)
                    mode.getMethod("isHighAvailabilityModeActivated", Configuration.class)
                            .invoke(null, flink);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.debug("Flink Insight hub: Flink's high-availability mode is unknown", e);
            return false;
        }
    }

    /**
     * Starts following the leading REST endpoint; null (logged) when Flink's HA services cannot be
     * reached. Call only under high availability: without it Flink's answer is this process's own
     * address, which says nothing.
     */
    static LeaderRestAddress start(Configuration flink) {
        try {
            Class<?> fatalErrorHandler = load("rpc.FatalErrorHandler");
            Class<?> listener = load("leaderretrieval.LeaderRetrievalListener");
            Class<?> retrievalService = load("leaderretrieval.LeaderRetrievalService");
            Class<?> clientServices = load("highavailability.ClientHighAvailabilityServices");
            Object services =
                    load("highavailability.HighAvailabilityServicesUtils")
                            .getMethod(
                                    "createClientHAService", Configuration.class, fatalErrorHandler)
                            .invoke(null, flink, proxy(fatalErrorHandler, null));
            Object retriever =
                    clientServices
                            .getMethod("getClusterRestEndpointLeaderRetriever")
                            .invoke(services);
            LeaderRestAddress address =
                    new LeaderRestAddress(
                            (AutoCloseable) services,
                            retriever,
                            retrievalService.getMethod("stop"));
            retrievalService
                    .getMethod("start", listener)
                    .invoke(retriever, proxy(listener, address));
            return address;
        } catch (InvocationTargetException e) {
            LOG.info(
                    "Flink Insight hub: the leading JobManager's address is unknown here ({})",
                    e.getCause().toString());
            return null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.info(
                    "Flink Insight hub: the leading JobManager's address is unknown here: this Flink's"
                            + " client HA services are not reachable ({})",
                    e.toString());
            return null;
        }
    }

    /** The leading REST endpoint's URL (e.g. {@code http://host:8081}), or null while unknown. */
    String url() {
        return url;
    }

    private static Class<?> load(String name) throws ClassNotFoundException {
        return Class.forName(RUNTIME + name, false, Configuration.class.getClassLoader());
    }

    /**
     * {@code type} (a listener or fatal-error handler): leader addresses go to {@code address};
     * errors are logged, never rethrown (Flink's default handlers would end the process).
     */
    private static Object proxy(Class<?> type, LeaderRestAddress address) {
        return Proxy.newProxyInstance(
                type.getClassLoader(),
                new Class<?>[] {type},
                (self, method, args) -> {
                    switch (method.getName()) {
                        case "notifyLeaderAddress":
                            String leader = (String) args[0];
                            address.url = leader == null || leader.isEmpty() ? null : leader;
                            return null;
                        case "handleError":
                        case "onFatalError":
                            if (address != null) {
                                address.url = null;
                            }
                            LOG.info(
                                    "Flink Insight hub: following the leading JobManager failed: {}",
                                    String.valueOf(args[0]));
                            return null;
                        case "hashCode":
                            return System.identityHashCode(self);
                        case "equals":
                            return self == args[0];
                        case "toString":
                            return "Flink Insight " + type.getSimpleName();
                        default:
                            return null;
                    }
                });
    }

    /** Stops following and closes Flink's client HA services (its ZooKeeper session). */
    @Override
    public void close() {
        try {
            stop.invoke(retriever);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("Flink Insight hub: stopping the leader retrieval failed", e);
        }
        try {
            services.close();
        } catch (Exception e) {
            LOG.debug("Flink Insight hub: closing Flink's client HA services failed", e);
        }
    }
}
