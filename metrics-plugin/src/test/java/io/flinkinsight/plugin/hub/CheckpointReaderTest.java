package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointReaderTest {

    private static final JobOverview JOB =
            new JobOverview("f3a874d12c3a7e77b32fe710c1a72ba2", "recorded-job", "RUNNING", 1, -1);

    private final CheckpointStore checkpoints = new CheckpointStore(100, 10);

    @Test
    void aJobWithoutCheckpointingIsAskedOnce() throws Exception {
        TestingRestSource rest = new TestingRestSource(); // every path a 404
        CheckpointReader reader = new CheckpointReader(rest, checkpoints);
        HubRound round = new HubRound(1, 0, 10);

        assertThat(reader.read(JOB, round)).isTrue();
        assertThat(reader.read(JOB, round)).isTrue();
        assertThat(rest.requested).containsExactly("/jobs/" + JOB.jobId() + "/checkpoints");
        assertThat(round.failures()).isZero();
    }

    @Test
    void aFailedRequestIsToBeTriedAgain() throws Exception {
        RestSource refused =
                path -> {
                    throw new java.io.IOException("refused");
                };
        assertThat(new CheckpointReader(refused, checkpoints).read(JOB, new HubRound(1, 0, 10)))
                .isFalse();
    }

    @Test
    void aCheckpointsDetailsAreReadOnceTheyMatchIt() throws Exception {
        TestingRestSource rest =
                new TestingRestSource()
                        .route(p -> p.contains("/checkpoints/details/"), "checkpoint-details.json")
                        .route(p -> p.endsWith("/checkpoints"), "job-checkpoints.json");
        CheckpointReader reader = new CheckpointReader(rest, checkpoints);
        reader.read(JOB, new HubRound(1, 0, 10));
        reader.read(JOB, new HubRound(2, 0, 10));

        // the fixture's details answer checkpoint 3 only: the others are asked again, 3 is not
        assertThat(rest.requested.stream().filter(p -> p.endsWith("/details/3"))).hasSize(1);
        assertThat(rest.requested.stream().filter(p -> p.endsWith("/details/2"))).hasSize(2);
        assertThat(checkpoints.latest(JOB.jobId()).tasks()).hasSize(2);
    }
}
