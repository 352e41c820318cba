package io.flinkinsight.client.metrics;

import io.flinkinsight.client.flink.FlinkApi;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.metrics.MetricRegistry;
import org.apache.flink.runtime.metrics.MetricRegistryImpl;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;

/**
 * The metric registry of a client process, which Flink does not create itself: built like a
 * JobManager's from the client's configuration, so the metric, trace and event reporters configured
 * there (classpath or {@code plugins/}) report the client's figures too. If it cannot be built, the
 * figures are kept but not reported.
 */
public final class ClientMetricRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClientMetricRegistry.class);

    private final MetricRegistry registry;
    private final ClientMetrics metrics;

    private ClientMetricRegistry(MetricRegistry registry, ClientMetrics metrics) {
        this.registry = registry;
        this.metrics = metrics;
    }

    /**
     * Builds the registry with {@code flink}'s reporters and registers all figures; never throws.
     */
    public static ClientMetricRegistry create(Configuration conf, FlinkApi flink) {
        ClientMetrics metrics = new ClientMetrics();
        String host = hostname();
        MetricRegistry registry;
        try {
            registry =
                    flink.newMetricRegistry(
                            conf, PluginUtils.createPluginManagerFromRootFolder(conf));
            if (registry == null) {
                LOG.warn(
                        "This Flink offers no way to build the interactive client's metric registry ({}); its"
                                + " figures are not reported.",
                        flink.describe());
                registry = NoOpMetricRegistry.INSTANCE;
            }
        } catch (Throwable t) {
            // Metrics must never cost a query (not even an unforeseen linkage gap): keep counting
            // without reporters.
            LOG.warn(
                    "Cannot build the metric registry of the interactive client; its figures are not reported.",
                    t);
            registry = NoOpMetricRegistry.INSTANCE;
        }
        try {
            metrics.registerOn(new InsightClientMetricGroup(registry, host));
        } catch (Throwable t) {
            // as above: the figures are kept, only not reported
            LOG.warn(
                    "Cannot register the figures of the interactive client; they are not reported.",
                    t);
        }
        return new ClientMetricRegistry(registry, metrics);
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    public ClientMetrics metrics() {
        return metrics;
    }

    /** Whether reporters can see the figures (false when the registry could not be built). */
    public boolean isReporting() {
        return registry instanceof MetricRegistryImpl;
    }

    /** Stops the reporters without waiting for them. */
    @Override
    public void close() {
        if (registry instanceof MetricRegistryImpl) {
            ((MetricRegistryImpl) registry).closeAsync();
        }
    }
}
