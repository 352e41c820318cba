package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.hub.RestPayloads.Vertex;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyReaderTest {

    private static final JobOverview JOB =
            new JobOverview("f3a874d12c3a7e77b32fe710c1a72ba2", "recorded-job", "RUNNING", 1, -1);
    private static final Vertex SINK =
            new Vertex("90bea66de1c231edf33913ecd54406c1", "plus one -> Sink: discard", 2);

    private final TestingClock clock = new TestingClock(1_795_321_760_000L);
    private final SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);

    private static long listings(TestingRestSource rest) {
        return rest.requested.stream().filter(p -> p.endsWith("/metrics")).count();
    }

    @Test
    void idsAreListedInTheFirstRoundAndAgainAtTheRediscoveryRound() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        LatencyReader reader = new LatencyReader(rest, series);
        for (int round = 1; round <= LatencyReader.LATENCY_DISCOVERY_EVERY; round++) {
            reader.read(JOB, SINK, new HubRound(round, clock.millis(), 10));
        }
        assertThat(listings(rest)).isEqualTo(1);

        reader.read(
                JOB,
                SINK,
                new HubRound(LatencyReader.LATENCY_DISCOVERY_EVERY + 1, clock.millis(), 10));
        assertThat(listings(rest)).isEqualTo(2);
        assertThat(
                        series.latest(
                                HubSeries.latency(
                                        JOB.jobId(), JOB.name(), SINK.id(), SINK.name(), "0.99")))
                .isPresent();
    }

    @Test
    void theIdsOfAJobNoLongerRunningAreForgotten() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        LatencyReader reader = new LatencyReader(rest, series);
        reader.read(JOB, SINK, new HubRound(1, clock.millis(), 10));
        reader.retainJobs(Set.of());

        reader.read(JOB, SINK, new HubRound(2, clock.millis(), 10));
        assertThat(listings(rest)).isEqualTo(2);
    }

    @Test
    void longIdListsAreSplitIntoShortRequests() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            ids.add(
                    "0.latency.source_id.cbc357ccb763df2852fee8c4fc7d55f2.operator_id.90bea66de1c231edf33913ecd54406c1"
                            + ".operator_subtask_index."
                            + i
                            + ".latency_p99");
        }
        List<String> batches = LatencyReader.batches(ids);

        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(batches)
                .allSatisfy(
                        b ->
                                assertThat(b.length())
                                        .isLessThanOrEqualTo(LatencyReader.MAX_QUERY_CHARS));
        assertThat(String.join(",", batches).split(",")).hasSize(64);
    }
}
