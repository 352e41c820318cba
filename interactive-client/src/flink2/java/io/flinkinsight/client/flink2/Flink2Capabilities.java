package io.flinkinsight.client.flink2;

import javax.annotation.Nullable;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What the loaded Flink 2.x offers the interactive client where 2.0 and 2.1+ differ, probed once by
 * reflection on the classes Flink loaded (never by calling and catching a {@code
 * NoSuchMethodError}):
 *
 * <ul>
 *   <li>{@code RestClient(Configuration, Executor, String, int, EventLoopGroup)} and {@code
 *       RestClusterClient( Configuration, T, ClientHighAvailabilityServicesFactory,
 *       EventLoopGroup)}: since 2.1; on 2.0 Flink's own clients take {@code
 *       RestClient(Configuration, Executor, String, int)} and make an event loop each.
 *   <li>{@code ReporterSetupBuilder}: since 2.1; on 2.0 the client's registry is built from {@code
 *       ReporterSetup}/{@code TraceReporterSetup} (no event reporters before 2.1).
 * </ul>
 */
public final class Flink2Capabilities {

    static final String EXECUTION_PLAN = "org.apache.flink.streaming.api.graph.ExecutionPlan";
    static final String CONFIGURATION = "org.apache.flink.configuration.Configuration";
    static final String EVENT_LOOP_GROUP =
            "org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup";
    static final String REST_CLIENT = "org.apache.flink.runtime.rest.RestClient";
    static final String REST_CLUSTER_CLIENT =
            "org.apache.flink.client.program.rest.RestClusterClient";
    static final String HA_SERVICES_FACTORY =
            "org.apache.flink.runtime.highavailability.ClientHighAvailabilityServicesFactory";
    static final String REPORTER_SETUP_BUILDER =
            "org.apache.flink.runtime.metrics.ReporterSetupBuilder";
    static final String REPORTER_SETUP = "org.apache.flink.runtime.metrics.ReporterSetup";
    static final String TRACE_REPORTER_SETUP =
            "org.apache.flink.runtime.metrics.TraceReporterSetup";
    static final String PLUGIN_MANAGER = "org.apache.flink.core.plugin.PluginManager";
    static final String METRIC_REGISTRY_IMPL =
            "org.apache.flink.runtime.metrics.MetricRegistryImpl";
    static final String METRIC_REGISTRY_CONFIGURATION =
            "org.apache.flink.runtime.metrics.MetricRegistryConfiguration";

    private static final Flink2Capabilities LOADED =
            probe(Flink2Capabilities.class.getClassLoader());

    /**
     * ExecutionPlan, which 2.x submits (1.x submits a JobGraph): whether this is a Flink of this
     * jar's line.
     */
    private final boolean flink2;

    /** RestClient takes an event loop of the caller's (2.1+). */
    private final boolean restClientOnSharedLoop;

    /** RestClient(Configuration, Executor, String, int) (2.0), if present. */
    @Nullable private final Constructor<?> restClientWithHost;

    /** RestClusterClient takes an event loop of the caller's (2.1+). */
    private final boolean clusterClientOnSharedLoop;

    /** ReporterSetupBuilder (2.1+): metric, trace and event reporters. */
    private final boolean reporterSetupBuilder;

    /**
     * ReporterSetup.fromConfiguration, TraceReporterSetup.fromConfiguration and the registry taking
     * both (2.0).
     */
    @Nullable private final Method metricReporterSetups;

    @Nullable private final Method traceReporterSetups;
    @Nullable private final Constructor<?> registryWithSetups;

    private Flink2Capabilities(
            boolean flink2,
            boolean restClientOnSharedLoop,
            @Nullable Constructor<?> restClientWithHost,
            boolean clusterClientOnSharedLoop,
            boolean reporterSetupBuilder,
            @Nullable Method metricReporterSetups,
            @Nullable Method traceReporterSetups,
            @Nullable Constructor<?> registryWithSetups) {
        this.flink2 = flink2;
        this.restClientOnSharedLoop = restClientOnSharedLoop;
        this.restClientWithHost = restClientWithHost;
        this.clusterClientOnSharedLoop = clusterClientOnSharedLoop;
        this.reporterSetupBuilder = reporterSetupBuilder;
        this.metricReporterSetups = metricReporterSetups;
        this.traceReporterSetups = traceReporterSetups;
        this.registryWithSetups = registryWithSetups;
    }

    /** What the Flink that loaded this jar offers; probed once. */
    public static Flink2Capabilities loaded() {
        return LOADED;
    }

    /**
     * Probes the Flink classes visible to {@code loader} (tests pass a class loader of another
     * version's jars).
     */
    public static Flink2Capabilities probe(ClassLoader loader) {
        Class<?> configuration = load(CONFIGURATION, loader);
        Class<?> eventLoopGroup = load(EVENT_LOOP_GROUP, loader);
        Class<?> restClient = load(REST_CLIENT, loader);
        Class<?> restClusterClient = load(REST_CLUSTER_CLIENT, loader);
        Class<?> haServicesFactory = load(HA_SERVICES_FACTORY, loader);
        Class<?> pluginManager = load(PLUGIN_MANAGER, loader);
        Class<?> reporterSetup = load(REPORTER_SETUP, loader);
        Class<?> traceReporterSetup = load(TRACE_REPORTER_SETUP, loader);
        Class<?> registryImpl = load(METRIC_REGISTRY_IMPL, loader);
        Class<?> registryConfiguration = load(METRIC_REGISTRY_CONFIGURATION, loader);
        return new Flink2Capabilities(
                load(EXECUTION_PLAN, loader) != null,
                constructor(
                                restClient,
                                configuration,
                                java.util.concurrent.Executor.class,
                                String.class,
                                int.class,
                                eventLoopGroup)
                        != null,
                constructor(
                        restClient,
                        configuration,
                        java.util.concurrent.Executor.class,
                        String.class,
                        int.class),
                constructor(
                                restClusterClient,
                                configuration,
                                Object.class,
                                haServicesFactory,
                                eventLoopGroup)
                        != null,
                load(REPORTER_SETUP_BUILDER, loader) != null,
                method(reporterSetup, "fromConfiguration", configuration, pluginManager),
                method(traceReporterSetup, "fromConfiguration", configuration, pluginManager),
                constructor(
                        registryImpl, registryConfiguration, Collection.class, Collection.class));
    }

    /** Whether this is a Flink 2.x at all; on 1.x the 2.x jar's pooled path cannot run. */
    public boolean flink2() {
        return flink2;
    }

    public boolean restClientOnSharedLoop() {
        return restClientOnSharedLoop;
    }

    /**
     * The 2.0 constructor of Flink's RestClient with an SSL host and port; null where it is gone
     * (2.1+).
     */
    @Nullable
    Constructor<?> restClientWithHost() {
        return restClientWithHost;
    }

    public boolean clusterClientOnSharedLoop() {
        return clusterClientOnSharedLoop;
    }

    public boolean reporterSetupBuilder() {
        return reporterSetupBuilder;
    }

    /** Whether the client's registry can be built the 2.0 way (metric and trace reporters). */
    public boolean reporterSetups() {
        return metricReporterSetups != null
                && traceReporterSetups != null
                && registryWithSetups != null;
    }

    @Nullable
    Method metricReporterSetups() {
        return metricReporterSetups;
    }

    @Nullable
    Method traceReporterSetups() {
        return traceReporterSetups;
    }

    @Nullable
    Constructor<?> registryWithSetups() {
        return registryWithSetups;
    }

    /** What this Flink gives and what not, for the log. */
    public String describe() {
        if (!flink2) {
            return "not a Flink 2.x API (no ExecutionPlan): queries run on Flink's own client; for Flink 1.20 use"
                    + " the interactive-client-flink1 jar";
        }
        List<String> missing = new ArrayList<>();
        if (!restClientOnSharedLoop) {
            missing.add(
                    "RestClient on a shared event loop (large uploads and the fallback client get one each)");
        }
        if (!reporterSetupBuilder) {
            missing.add(
                    reporterSetups()
                            ? "event reporters (the client's figures go to metric and trace reporters)"
                            : "a way to build a metric registry (the client's figures are not reported)");
        }
        return missing.isEmpty()
                ? "Flink 2.1+ API: everything the client uses"
                : "Flink 2.0 API, without: " + String.join("; ", missing);
    }

    @Override
    public String toString() {
        return describe();
    }

    @Nullable
    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    @Nullable
    private static Constructor<?> constructor(@Nullable Class<?> type, Class<?>... parameters) {
        if (type == null || anyNull(parameters)) {
            return null;
        }
        try {
            return type.getConstructor(parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @Nullable
    private static Method method(@Nullable Class<?> type, String name, Class<?>... parameters) {
        if (type == null || anyNull(parameters)) {
            return null;
        }
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static boolean anyNull(Class<?>... types) {
        for (Class<?> type : types) {
            if (type == null) {
                return true;
            }
        }
        return false;
    }
}
