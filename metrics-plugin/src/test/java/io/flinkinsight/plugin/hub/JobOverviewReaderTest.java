package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.JobOverviewReader.Overview;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.job.JobStore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobOverviewReaderTest {

    private final TestingClock clock = new TestingClock(1_795_321_760_000L);
    private final SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);
    private final JobStore jobs = new JobStore(100, clock);

    /**
     * {@code finished} finished jobs then {@code running} running ones, each started after the one
     * before.
     */
    private static RestSource overview(int finished, int running) {
        ObjectNode root = new ObjectMapper().createObjectNode();
        var list = root.putArray("jobs");
        for (int i = 0; i < finished + running; i++) {
            list.addObject()
                    .put("jid", String.format("%032x", i))
                    .put("name", "j" + i)
                    .put("state", i < finished ? "FINISHED" : "RUNNING")
                    .put("start-time", 1_000L + i)
                    .put("end-time", i < finished ? 2_000L + i : -1);
        }
        return path -> root;
    }

    @Test
    void runningJobsComeNewestFirstAndAFewEndedOnesAwaitTheirLastRead() throws Exception {
        HubRound round = new HubRound(1, clock.millis(), 10);
        Overview read =
                new JobOverviewReader(overview(20, 3), jobs, series)
                        .read(round, id -> !id.equals(String.format("%032x", 13)));

        assertThat(read.running())
                .extracting(JobOverview::name)
                .containsExactly("j22", "j21", "j20");
        // newest first, at most a few per round, and not those already read
        assertThat(read.ended())
                .extracting(JobOverview::name)
                .containsExactly("j19", "j18", "j17", "j16", "j15", "j14", "j12", "j11")
                .hasSize(JobOverviewReader.MAX_ENDED_JOBS_PER_POLL);
        assertThat(series.latest(HubSeries.of(HubSeries.CLUSTER_JOBS, "state", "FINISHED")))
                .hasValue(20.0);
        assertThat(jobs.get(String.format("%032x", 0)).jobName()).isEqualTo("j0");
    }

    @Test
    void aFailedOverviewHasNoJobs() throws Exception {
        HubRound round = new HubRound(1, clock.millis(), 10);
        Overview read =
                new JobOverviewReader(new TestingRestSource(), jobs, series)
                        .read(round, id -> true);

        assertThat(read).isEqualTo(Overview.NONE);
        assertThat(round.failures()).isEqualTo(1);
    }
}
