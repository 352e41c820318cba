package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.api.JobsEndpoint;
import io.flinkinsight.plugin.api.QueryParamsAccess;

import org.junit.jupiter.api.Test;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

class InsightStoresTest {

    private final TestingClock clock = new TestingClock(1_000_000);

    @Test
    void spansAndEventsReachTheirStores() throws Exception {
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, FlinkCapabilities.current());
        stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 900_000));
        stores.onEvent(FlinkTelemetry.checkpointEvent(JOB_ID, 1, 950_000, 2));
        stores.onSpan(FlinkTelemetry.checkpointSpan(JOB_ID, 1, 940_000, 950_000, 2, 1));
        stores.onSpan(FlinkTelemetry.jobInitialization(JOB_ID, 900_100, 900_200));

        assertThat(stores.checkpoints().latest(JOB_ID).source()).isEqualTo("span");
        assertThat(stores.jobs().get(JOB_ID).status()).isEqualTo("RUNNING");
        assertThat(stores.jobs().get(JOB_ID).initialization()).isNotNull();
        var jobs =
                (JobsEndpoint.Response)
                        new JobsEndpoint(stores.jobs(), stores.checkpoints())
                                .handle(QueryParamsAccess.empty());
        assertThat(jobs.jobs())
                .singleElement()
                .satisfies(j -> assertThat(j.lastCheckpoint().id()).isEqualTo(1));
    }
}
