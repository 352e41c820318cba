package io.flinkinsight.client;

import io.flinkinsight.client.config.InteractiveClientOptions;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;

/**
 * Selected by {@code execution.target: remote-interactive}; hands out the stateless {@link
 * InteractiveExecutor}.
 */
public final class InteractivePipelineExecutorFactory implements PipelineExecutorFactory {

    @Override
    public String getName() {
        return InteractiveClientOptions.TARGET;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return InteractiveClientOptions.TARGET.equalsIgnoreCase(
                configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
        return new InteractiveExecutor(FlinkLine.get());
    }
}
