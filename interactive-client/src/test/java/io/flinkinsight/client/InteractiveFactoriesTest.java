package io.flinkinsight.client;

import org.apache.flink.client.deployment.ClusterClientFactory;
import org.apache.flink.client.deployment.DefaultClusterClientServiceLoader;
import org.apache.flink.client.deployment.StandaloneClientFactory;
import org.apache.flink.client.deployment.executors.RemoteExecutorFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.apache.flink.core.execution.PipelineExecutorFactory;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InteractiveFactoriesTest {

    private static Configuration target(String target) {
        Configuration conf = new Configuration();
        conf.set(DeploymentOptions.TARGET, target);
        return conf;
    }

    @Test
    void flinkFindsTheExecutorFactoryForRemoteInteractive() throws Exception {
        PipelineExecutorFactory factory =
                new DefaultExecutorServiceLoader().getExecutorFactory(target("remote-interactive"));

        assertThat(factory).isInstanceOf(InteractivePipelineExecutorFactory.class);
        assertThat(factory.getExecutor(target("remote-interactive")))
                .isInstanceOf(InteractiveExecutor.class);
    }

    @Test
    void flinkFindsTheClusterClientFactoryForRemoteInteractive() {
        ClusterClientFactory<?> factory =
                new DefaultClusterClientServiceLoader()
                        .getClusterClientFactory(target("REMOTE-INTERACTIVE"));

        assertThat(factory).isInstanceOf(InteractiveClusterClientFactory.class);
    }

    @Test
    void stockRemoteTargetKeepsFlinksOwnFactories() throws Exception {
        // a second factory compatible with "remote" would make every stock query fail
        assertThat(new DefaultExecutorServiceLoader().getExecutorFactory(target("remote")))
                .isInstanceOf(RemoteExecutorFactory.class);
        assertThat(
                        new DefaultClusterClientServiceLoader()
                                .getClusterClientFactory(target("remote")))
                .isInstanceOf(StandaloneClientFactory.class);
        assertThat(new InteractivePipelineExecutorFactory().isCompatibleWith(target("remote")))
                .isFalse();
        assertThat(new InteractiveClusterClientFactory().isCompatibleWith(target("local")))
                .isFalse();
    }
}
