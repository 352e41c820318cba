package io.flinkinsight.client;

import io.flinkinsight.client.config.InteractiveClientOptions;
import io.flinkinsight.client.config.InteractiveClientSettings;

import org.apache.flink.client.deployment.ClusterClientFactory;
import org.apache.flink.client.deployment.ClusterDescriptor;
import org.apache.flink.client.deployment.ClusterSpecification;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;

/**
 * The cluster client factory of {@code execution.target: remote-interactive}, which Flink code uses
 * for cluster actions outside a query (the SQL Gateway's STOP JOB, SHOW JOBS, DESCRIBE JOB):
 * clients are leases on the pooled client, so closing them after one action costs nothing.
 */
public final class InteractiveClusterClientFactory
        implements ClusterClientFactory<StandaloneClusterId> {

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return InteractiveClientOptions.TARGET.equalsIgnoreCase(
                configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public ClusterDescriptor<StandaloneClusterId> createClusterDescriptor(
            Configuration configuration) {
        // a bad value fails the cluster action with a clear message, as it fails a query
        return new InteractiveClusterDescriptor(
                configuration,
                InteractiveClientSettings.fromConfiguration(configuration),
                FlinkLine.get());
    }

    @Override
    public StandaloneClusterId getClusterId(Configuration configuration) {
        return StandaloneClusterId.getInstance();
    }

    @Override
    public ClusterSpecification getClusterSpecification(Configuration configuration) {
        return new ClusterSpecification.ClusterSpecificationBuilder().createClusterSpecification();
    }
}
