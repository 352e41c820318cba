package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.TestingCapabilities;
import io.flinkinsight.plugin.TestingLogCapture;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HubTest {

    @Test
    void runsOnItsOwnDaemonThreadAndStopsOnClose() throws Exception {
        TestingClock clock = new TestingClock(0);
        // port 1 refuses connections: the polls fail fast, are counted, and the schedule goes on
        HubSettings settings =
                new HubSettings(true, "http://127.0.0.1:1", Duration.ofMillis(100), List.of());
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, TestingCapabilities.FLINK_2_2);
        SeriesStore series = stores.series();
        Hub hub =
                Hub.start(
                        settings,
                        stores,
                        TestingCapabilities.FLINK_2_2,
                        clock,
                        Map::of,
                        Leadership.granted(),
                        HubLeadershipListener.NONE);

        await(() -> !series.names().isEmpty());
        Thread hubThread = null;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(Hub.THREAD_NAME)) {
                hubThread = t;
            }
        }
        assertThat(series.names()).contains(HubSeries.POLL_FAILURES);
        assertThat(hubThread).isNotNull();
        assertThat(hubThread.isDaemon()).isTrue();

        hub.close();
        assertThat(hub.isTerminated()).isTrue();
    }

    @Test
    void flinksRestApiNotUpYetAtStartIsNoWarning() {
        TestingClock clock = new TestingClock(0);
        HubSettings settings =
                new HubSettings(true, "http://127.0.0.1:1", Duration.ofMillis(100), List.of());
        InsightStores stores =
                new InsightStores(StoreSettings.defaults(), clock, TestingCapabilities.FLINK_2_2);
        try (TestingLogCapture log = new TestingLogCapture();
                Hub hub =
                        new Hub(
                                settings,
                                stores,
                                TestingCapabilities.FLINK_2_2,
                                clock,
                                Map::of,
                                Leadership.granted(),
                                HubLeadershipListener.NONE)) {
            hub.pollRound(); // port 1 refuses: every request of the round fails
            assertThat(log.linesAt("INFO")).anyMatch(l -> l.contains("does not answer yet"));
            hub.pollRound();
            clock.advance(Hub.START_UP_GRACE_MILLIS - 1);
            hub.pollRound();
            assertThat(log.linesAt("WARN")).as("within the start-up grace").isEmpty();

            clock.advance(1);
            hub.pollRound();
            assertThat(log.linesAt("WARN")).anyMatch(l -> l.contains("REST requests failed"));
        }
    }

    /**
     * Waits at most 30 s (generous: a loaded CI machine) for the hub's thread to bring {@code
     * condition} about.
     */
    private static void await(java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && !condition.getAsBoolean()) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("within 30 s").isTrue();
    }
}
