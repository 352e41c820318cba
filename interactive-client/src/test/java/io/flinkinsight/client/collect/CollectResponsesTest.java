package io.flinkinsight.client.collect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link CollectResponses}: what the collect long poll reads from the cluster's answers. */
class CollectResponsesTest {

    @Test
    void onlyAFailureThatSaysTheSinkIsNotDeployedShowsNoEnd() {
        assertThat(
                        CollectResponses.sinkNotStarted(
                                new RuntimeException(
                                        "org.apache.flink.runtime.rest.util.RestClientException: [Internal server error., <Exception on server"
                                                + " side:\norg.apache.flink.util.FlinkException: Coordinator of operator 1234 does not exist"
                                                + " or the job vertex this operator belongs to is not initialized.\n>]")))
                .isTrue();
        assertThat(
                        CollectResponses.sinkNotStarted(
                                new RuntimeException(
                                        new IllegalStateException(
                                                "org.apache.flink.runtime.dispatcher.UnavailableDispatcherOperationException: Unable to get"
                                                        + " JobMasterGateway for initializing job."))))
                .isTrue();
        assertThat(
                        CollectResponses.sinkNotStarted(
                                new RuntimeException(
                                        "org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (42)")))
                .isFalse();
        assertThat(
                        CollectResponses.sinkNotStarted(
                                new java.net.ConnectException("Connection refused")))
                .isFalse();
    }
}
