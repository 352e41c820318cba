package io.flinkinsight.workloads;

import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChainedMapsJobTest {

    @Test
    void pipelineIsSourceTenMapsAndSinkAtParallelismOne() {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        ChainedMapsJob.jobConfiguration());
        env.setParallelism(1);
        ChainedMapsJob.build(env, 1000);

        StreamGraph graph = env.getStreamGraph();

        assertThat(graph.getStreamNodes()).hasSize(1 + ChainedMapsJob.MAPS + 1);
        assertThat(
                        graph.getStreamNodes().stream()
                                .filter(n -> n.getOperatorName().equals("Map"))
                                .count())
                .isEqualTo(ChainedMapsJob.MAPS);
        assertThat(graph.getStreamNodes()).extracting(StreamNode::getParallelism).containsOnly(1);
    }

    @Test
    void jobReusesObjects() {
        assertThat(ChainedMapsJob.jobConfiguration().get(PipelineOptions.OBJECT_REUSE)).isTrue();
    }
}
