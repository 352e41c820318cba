package io.flinkinsight.client;

import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.pool.ClusterIdentity;

import org.apache.flink.client.deployment.ClusterDescriptor;
import org.apache.flink.client.deployment.ClusterSpecification;
import org.apache.flink.client.deployment.StandaloneClusterDescriptor;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.deployment.application.ApplicationConfiguration;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.client.program.ClusterClientProvider;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;

/**
 * Describes an existing session cluster; every client it hands out is a new lease on the cluster's
 * pooled client, which its user closes after use (closing ends the lease only).
 */
final class InteractiveClusterDescriptor implements ClusterDescriptor<StandaloneClusterId> {

    private final Configuration configuration;
    private final InteractiveClientSettings settings;
    private final FlinkLine line;

    InteractiveClusterDescriptor(
            Configuration configuration, InteractiveClientSettings settings, FlinkLine line) {
        this.configuration = configuration;
        this.settings = settings;
        this.line = line;
    }

    @Override
    public String getClusterDescription() {
        return "Session "
                + ClusterIdentity.of(configuration, settings)
                + " (pooled interactive client)";
    }

    @Override
    public ClusterClientProvider<StandaloneClusterId> retrieve(StandaloneClusterId clusterId) {
        ClusterIdentity cluster = ClusterIdentity.of(configuration, settings);
        return () -> {
            if (!line.runsOnThisFlink()) {
                FlinkClientFallback.wrongJarOnce(line);
                return flinkClient(clusterId);
            }
            try {
                return line.leasedClusterClient(
                        InteractiveClientRuntime.get(configuration, settings, line)
                                .pool()
                                .lease(cluster));
            } catch (LinkageError e) {
                // not foreseen by FlinkLine's probes: Flink's own client, as the executor falls
                // back to
                FlinkClientFallback.warnOnce(e);
                return flinkClient(clusterId);
            } catch (Exception e) {
                // the same failure as Flink's StandaloneClusterDescriptor
                throw new RuntimeException("Couldn't retrieve standalone cluster", e);
            }
        };
    }

    private ClusterClient<StandaloneClusterId> flinkClient(StandaloneClusterId clusterId) {
        try {
            return new StandaloneClusterDescriptor(configuration)
                    .retrieve(clusterId)
                    .getClusterClient();
        } catch (Exception e) {
            throw new RuntimeException("Couldn't retrieve standalone cluster", e);
        }
    }

    @Override
    public ClusterClientProvider<StandaloneClusterId> deploySessionCluster(
            ClusterSpecification spec) {
        throw new UnsupportedOperationException("Can't deploy a standalone cluster.");
    }

    @Override
    public ClusterClientProvider<StandaloneClusterId> deployApplicationCluster(
            ClusterSpecification spec, ApplicationConfiguration applicationConfiguration) {
        throw new UnsupportedOperationException(
                "Application Mode not supported by standalone deployments.");
    }

    /**
     * Abstract in Flink 1.20's ClusterDescriptor (per-job mode, gone in 2.x); standalone has no
     * per-job mode.
     */
    public ClusterClientProvider<StandaloneClusterId> deployJobCluster(
            ClusterSpecification spec, JobGraph jobGraph, boolean detached) {
        throw new UnsupportedOperationException("Can't deploy a standalone per-job cluster.");
    }

    @Override
    public void killCluster(StandaloneClusterId clusterId) {
        throw new UnsupportedOperationException("Cannot terminate a standalone cluster.");
    }

    @Override
    public void close() {
        // nothing to release: the pooled client outlives the descriptor
    }
}
