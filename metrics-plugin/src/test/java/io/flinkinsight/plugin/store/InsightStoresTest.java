package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.store.api.JobsEndpoint;
import io.flinkinsight.plugin.store.api.QueryParamsAccess;
import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

class InsightStoresTest {

    private final TestingClock clock = new TestingClock(1_000_000);

    @Test
    void servesTheDocumentedEndpoints() {
        try (InsightStores stores = new InsightStores(StoreSettings.defaults(), clock)) {
            assertThat(stores.endpoints()).containsOnlyKeys(
                    "/api/v1/series", "/api/v1/series/names", "/api/v1/checkpoints", "/api/v1/jobs", "/api/v1/client");
        }
    }

    @Test
    void spansAndEventsReachTheirStores() throws Exception {
        try (InsightStores stores = new InsightStores(StoreSettings.defaults(), clock)) {
            stores.onEvent(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 900_000));
            stores.onEvent(FlinkTelemetry.checkpointEvent(JOB_ID, 1, 950_000, 2));
            stores.onSpan(FlinkTelemetry.checkpointSpan(JOB_ID, 1, 940_000, 950_000, 2, 1));
            stores.onSpan(FlinkTelemetry.jobInitialization(JOB_ID, 900_100, 900_200));

            assertThat(stores.checkpoints().latest(JOB_ID).source()).isEqualTo("span");
            assertThat(stores.jobs().get(JOB_ID).status()).isEqualTo("RUNNING");
            assertThat(stores.jobs().get(JOB_ID).initialization()).isNotNull();
            var jobs = (JobsEndpoint.Response) stores.endpoints().get("/api/v1/jobs").handle(QueryParamsAccess.empty());
            assertThat(jobs.jobs()).singleElement()
                    .satisfies(j -> assertThat(j.lastCheckpoint().id()).isEqualTo(1));
            assertThat(stores.callbackFailures()).isZero();
        }
    }

    @Test
    void brokenSpansAndEventsAreCountedNeverThrown() {
        Span broken = new Span() {
            public String getScope() { return "x"; }
            public String getName() { return "Checkpoint"; }
            public long getStartTsMillis() { return 0; }
            public long getEndTsMillis() { return 0; }
            public Map<String, Object> getAttributes() { throw new IllegalStateException("boom"); }
            public List<Span> getChildren() { return null; }
        };
        Event nullName = new Event() {
            public long getObservedTsMillis() { return 0; }
            public String getName() { return null; }
            public String getClassScope() { return null; }
            public String getBody() { return null; }
            public String getSeverity() { return null; }
            public Map<String, Object> getAttributes() { return null; }
        };
        try (InsightStores stores = new InsightStores(StoreSettings.defaults(), clock)) {
            stores.onSpan(broken);
            stores.onEvent(nullName);
            stores.onSpan(null);

            assertThat(stores.callbackFailures()).isEqualTo(3);
        }
    }

    @Test
    void onlyAJobManagerWithTheHubEnabledRunsTheHub() {
        try (InsightStores tm = new InsightStores(StoreSettings.defaults(), clock);
                InsightStores disabled = new InsightStores(StoreSettings.defaults().withHubEnabled(false), clock)) {
            tm.onRoleKnown("taskmanager");
            disabled.onRoleKnown("jobmanager");
            assertThat(tm.hubRunning()).isFalse();
            assertThat(disabled.hubRunning()).isFalse();
        }
        // port 1 refuses connections: should a poll start before close, it cannot reach anyone's cluster
        StoreSettings unreachable = new StoreSettings(StoreSettings.DEFAULT_RETENTION, StoreSettings.DEFAULT_RESOLUTION,
                100, 10, 10, "http://127.0.0.1:1", StoreSettings.DEFAULT_HUB_POLL_INTERVAL);
        InsightStores jm = new InsightStores(unreachable, clock);
        jm.onRoleKnown("jobmanager");
        jm.onRoleKnown("jobmanager");
        assertThat(jm.hubRunning()).isTrue();
        jm.close();
        assertThat(jm.hubRunning()).isFalse();
        jm.onRoleKnown("jobmanager");
        assertThat(jm.hubRunning()).as("no hub after close").isFalse();
    }
}
