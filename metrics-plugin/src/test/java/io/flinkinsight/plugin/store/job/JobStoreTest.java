package io.flinkinsight.plugin.store.job;

import io.flinkinsight.plugin.store.FlinkTelemetry;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.flinkinsight.plugin.store.FlinkTelemetry.JOB_ID;
import static org.assertj.core.api.Assertions.assertThat;

class JobStoreTest {

    private final TestingClock clock = new TestingClock(100_000);
    private final JobStore store = new JobStore(3, clock);

    private static String job(int n) {
        return String.format("%032x", n);
    }

    @Test
    void statusEventsGiveTransitionsAndClusterSideLatency() {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1_000), store);
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 1_050), store);
        JobEventParser.apply(FlinkTelemetry.allSubtasksRunning(JOB_ID, 1_120), store);
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "FINISHED", 1_230), store);

        JobRecord r = store.get(JOB_ID);
        assertThat(r.jobName()).isEqualTo(FlinkTelemetry.JOB_NAME);
        assertThat(r.status()).isEqualTo("FINISHED");
        assertThat(r.terminal()).isTrue();
        assertThat(r.transitions())
                .extracting(JobTransition::status)
                .containsExactly("CREATED", "RUNNING", "FINISHED");
        assertThat(r.createdAt()).isEqualTo(1_000);
        assertThat(r.endedAt()).isEqualTo(1_230);
        assertThat(r.clusterLatencyMs()).isEqualTo(230);
        assertThat(r.allSubtasksRunningAt()).isEqualTo(1_120);
    }

    @Test
    void runningJobLatencyIsSoFar() {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 99_000), store);

        assertThat(store.get(JOB_ID).clusterLatencyMs()).isEqualTo(1_000);
        clock.advance(500);
        assertThat(store.get(JOB_ID).clusterLatencyMs()).isEqualTo(1_500);
    }

    @Test
    void restStartTimeEarlierThanTheFirstEventIsTheCreationTime() {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 1_100), store);
        store.onRestOverview(JOB_ID, "wordcount", "RUNNING", 1_000, -1);

        assertThat(store.get(JOB_ID).createdAt()).isEqualTo(1_000);
        assertThat(store.get(JOB_ID).transitions())
                .hasSize(1); // events win over REST for the status
    }

    @Test
    void restOverviewAloneTracksStatusWhenNoEventsArrive() {
        store.onRestOverview(JOB_ID, "q1", "RUNNING", 1_000, -1);
        store.onRestOverview(JOB_ID, "q1", "FINISHED", 1_000, 1_400);

        JobRecord r = store.get(JOB_ID);
        assertThat(r.status()).isEqualTo("FINISHED");
        assertThat(r.clusterLatencyMs()).isEqualTo(400);
        assertThat(r.jobName()).isEqualTo("q1");
    }

    @Test
    void failuresAreCountedAndTheMostRecentKept() {
        for (int i = 0; i < JobStore.MAX_FAILURES + 5; i++) {
            JobEventParser.apply(FlinkTelemetry.jobFailure(JOB_ID, 1_000 + i), store);
        }

        JobRecord r = store.get(JOB_ID);
        assertThat(r.failureCount()).isEqualTo(JobStore.MAX_FAILURES + 5);
        assertThat(r.failures()).hasSize(JobStore.MAX_FAILURES);
        assertThat(r.failures().get(0).timestamp()).isEqualTo(1_005);
        assertThat(r.failures().get(0).canRestart()).isTrue();
        assertThat(r.failures().get(0).labels()).containsEntry("type", "user");
    }

    @Test
    void restartLoopsKeepTheFirstAndTheLatestTransitions() {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "CREATED", 1), store);
        for (int i = 0; i < 100; i++) {
            JobEventParser.apply(
                    FlinkTelemetry.jobStatus(JOB_ID, i % 2 == 0 ? "RUNNING" : "RESTARTING", 10 + i),
                    store);
        }

        JobRecord r = store.get(JOB_ID);
        assertThat(r.transitions()).hasSize(JobStore.MAX_TRANSITIONS);
        assertThat(r.transitions().get(0)).isEqualTo(new JobTransition("CREATED", 1));
        assertThat(r.transitions().get(r.transitions().size() - 1))
                .isEqualTo(new JobTransition("RESTARTING", 109));
        assertThat(r.createdAt()).isEqualTo(1);
    }

    @Test
    void oldestTerminalJobsAreEvictedFirst() {
        store.onStatus(job(1), null, "RUNNING", 10);
        clock.advance(1);
        store.onStatus(job(2), null, "FINISHED", 30);
        clock.advance(1);
        store.onStatus(job(3), null, "FINISHED", 20);
        clock.advance(1);
        store.onStatus(job(4), null, "RUNNING", 40);
        clock.advance(1);

        assertThat(store.size()).isEqualTo(3);
        assertThat(store.get(job(3))).isNull();
        assertThat(store.get(job(1))).isNotNull();
        store.onStatus(job(5), null, "RUNNING", 50);
        clock.advance(1);
        assertThat(store.get(job(2))).isNull();
        store.onStatus(job(6), null, "RUNNING", 60);
        clock.advance(1);
        assertThat(store.get(job(1)))
                .as("with no terminal job left the least recently updated goes")
                .isNull();
    }

    @Test
    void jobsAreListedNewestFirst() {
        store.onStatus(job(1), null, "CREATED", 10);
        store.onStatus(job(2), null, "CREATED", 30);
        store.onStatus(job(3), null, "CREATED", 20);

        assertThat(store.newestFirst())
                .extracting(JobRecord::jobId)
                .containsExactly(job(2), job(3), job(1));
    }

    @Test
    void initializationSpanAndVertexNamesAreKept() {
        JobEventParser.apply(FlinkTelemetry.jobStatus(JOB_ID, "RUNNING", 1_000), store);
        JobEventParser.applyInitialization(
                FlinkTelemetry.jobInitialization(JOB_ID, 1_010, 1_090), store);
        store.onVertices(JOB_ID, Map.of(FlinkTelemetry.SOURCE_VERTEX, "Source: numbers"));

        JobRecord r = store.get(JOB_ID);
        assertThat(r.initialization().status()).isEqualTo("COMPLETED");
        assertThat(r.initialization().checkpointId()).isEqualTo(7);
        assertThat(r.initialization().figures()).containsEntry("maxInitializeStateDurationMs", 40L);
        assertThat(store.vertexName(JOB_ID, FlinkTelemetry.SOURCE_VERTEX))
                .isEqualTo("Source: numbers");
    }

    @Test
    void unknownEventsAreNotApplied() {
        var event =
                org.apache.flink.events.Event.builder(JobStoreTest.class, "SomethingElse")
                        .setAttribute("jobId", JOB_ID)
                        .build();
        assertThat(JobEventParser.apply(event, store)).isFalse();
        assertThat(store.size()).isZero();
    }

    @Test
    void aJobReadBackAsRunningThatFlinkNoLongerListsIsSuspendedAndOneItListsGoesOn() {
        JobStore before = new JobStore(10, clock);
        before.onStatus(job(1), "gone", "CREATED", 1_000);
        before.onStatus(job(1), "gone", "RUNNING", 1_100);
        before.onStatus(job(2), "recovered", "RUNNING", 1_200);
        before.onStatus(job(3), "done", "FINISHED", 1_300);

        JobStore after = new JobStore(10, clock);
        for (JobRecord r : before.newestFirst()) {
            assertThat(after.restore(r, null)).isTrue();
        }
        assertThat(after.restore(before.get(job(1)), null)).as("a second time").isFalse();
        after.onRestJobsListed(java.util.Set.of(job(2)), 5_000);
        after.onRestOverview(job(2), "recovered", "RUNNING", 1_200, 0);

        assertThat(after.get(job(1)).status()).isEqualTo("SUSPENDED");
        assertThat(after.get(job(1)).terminal()).isTrue();
        assertThat(after.get(job(1)).endedAt()).isEqualTo(5_000);
        assertThat(after.get(job(1)).transitions())
                .extracting(JobTransition::status)
                .containsExactly("CREATED", "RUNNING", "SUSPENDED");
        assertThat(after.get(job(2)).status()).isEqualTo("RUNNING");
        assertThat(after.get(job(3)).status()).isEqualTo("FINISHED");
        assertThat(after.get(job(3)).endedAt()).isEqualTo(1_300);
    }
}
