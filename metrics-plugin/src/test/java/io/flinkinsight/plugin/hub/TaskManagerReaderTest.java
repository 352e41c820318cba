package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TaskManagerReaderTest {

    private static final String TM = "aae5604d-9443-442e-bd50-0e7b521211ae";

    private final TestingClock clock = new TestingClock(1_795_321_760_000L);
    private final SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);

    @Test
    void theListIsCountedAndEachTaskManagersFiguresAreRecorded() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        TaskManagerReader reader = new TaskManagerReader(rest, series);
        HubRound round = new HubRound(1, clock.millis(), 10);

        assertThat(reader.list(round)).containsExactly(TM);
        reader.read(TM, round);

        assertThat(series.latest(HubSeries.of(HubSeries.TM_COUNT))).hasValue(1.0);
        assertThat(series.latest(HubSeries.of(HubSeries.TM_HEAP_MAX, "tm_id", TM)))
                .hasValue(536870912.0);
        assertThat(rest.requested)
                .containsExactly(
                        "/taskmanagers",
                        "/taskmanagers/" + TM + "/metrics?get=" + TaskManagerReader.TM_METRICS);
    }

    @Test
    void aFailedListIsNoTaskManagersAndNoCount() throws Exception {
        HubRound round = new HubRound(1, clock.millis(), 10);

        assertThat(new TaskManagerReader(new TestingRestSource(), series).list(round)).isEmpty();
        assertThat(round.failures()).isEqualTo(1);
        assertThat(series.latest(HubSeries.of(HubSeries.TM_COUNT))).isEmpty();
    }

    @Test
    void taskManagerIdsAreSafeInAPath() {
        assertThat(TaskManagerReader.pathSegment("127.0.0.1:35827-4d5e1a"))
                .isEqualTo("127.0.0.1:35827-4d5e1a");
        assertThat(TaskManagerReader.pathSegment("a b/c")).isEqualTo("a%20b%2Fc");
        assertThat(TaskManagerReader.pathSegment("tm-é")).isEqualTo("tm-%C3%A9");
    }
}
