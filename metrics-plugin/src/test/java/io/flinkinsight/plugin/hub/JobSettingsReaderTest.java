package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.store.job.JobSettings;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobSettingsReaderTest {

    private static final String JOB = "f3a874d12c3a7e77b32fe710c1a72ba2";

    private static HubRound round() {
        return new HubRound(1, 0, HubPoller.MAX_REQUESTS_PER_POLL);
    }

    @Test
    void readsTheCheckpointConfigurationAndTheClusterDefaultForIncremental() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        HubRound round = round();

        JobSettings s = new JobSettingsReader(rest).read(JOB, 4, round);

        assertThat(round.failures()).isZero();
        assertThat(s.checkpointing()).isTrue();
        assertThat(s.stateBackend()).isEqualTo("EmbeddedRocksDBStateBackend");
        assertThat(s.changelog()).isTrue();
        assertThat(s.materializationIntervalMs()).isEqualTo(60_000L);
        assertThat(s.checkpointIntervalMs()).isEqualTo(3_000L);
        assertThat(s.unaligned()).isFalse();
        assertThat(s.checkpointMode()).isEqualToIgnoringCase("exactly_once");
        assertThat(s.parallelism()).isEqualTo(1); // the job's own, before the vertices' highest
        // the recorded job's user-config lists no incremental setting: the JobManager's
        // configuration tells
        assertThat(s.incremental()).isTrue();
        assertThat(s.incrementalSource()).isEqualTo("cluster");
    }

    @Test
    void theClusterConfigurationIsReadOnceForAllJobs() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        JobSettingsReader reader = new JobSettingsReader(rest);
        reader.read(JOB, 1, round());
        reader.read("0".repeat(32), 1, round());

        assertThat(rest.requested.stream().filter(p -> p.equals("/jobmanager/config"))).hasSize(1);
    }

    @Test
    void aFailedClusterConfigurationLeavesTheSettingsUnreadSoTheNextRoundTriesAgain()
            throws Exception {
        TestingRestSource rest =
                new TestingRestSource()
                        .route(p -> p.endsWith("/checkpoints/config"), "checkpoint-config.json")
                        .route(
                                p -> p.endsWith("/config") && p.startsWith("/jobs/"),
                                "job-config.json");
        HubRound round = round();

        assertThat(new JobSettingsReader(rest).read(JOB, 2, round)).isNull();
        assertThat(round.failures()).isEqualTo(1); // /jobmanager/config answered 404 here
    }

    @Test
    void aJobWithoutCheckpointingIsSaidSoNotCountedAsAFailure() throws Exception {
        TestingRestSource rest =
                new TestingRestSource()
                        .route(
                                p -> p.endsWith("/config") && !p.contains("checkpoints"),
                                "job-config.json");
        HubRound round = round();

        JobSettings s = new JobSettingsReader(rest).read(JOB, 2, round);

        assertThat(round.failures()).isZero();
        assertThat(s.checkpointing()).isFalse();
        assertThat(s.stateBackend()).isNull();
        assertThat(s.parallelism()).isEqualTo(1);
    }

    @Test
    void aFailedRequestLeavesTheSettingsUnreadForTheNextRound() throws Exception {
        TestingRestSource rest =
                new TestingRestSource(); // everything 404, also the job's own config
        HubRound round = round();

        assertThat(new JobSettingsReader(rest).read(JOB, 2, round)).isNull();
        assertThat(round.failures()).isEqualTo(1);
    }
}
