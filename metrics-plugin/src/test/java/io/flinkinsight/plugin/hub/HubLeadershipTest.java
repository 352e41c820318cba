package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.TestingCapabilities;
import io.flinkinsight.plugin.TestingLogCapture;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;

import org.apache.flink.metrics.MetricGroup;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Only the leading JobManager's hub sends requests; its listener hears each change once. */
class HubLeadershipTest {

    private final List<String> heard = new ArrayList<>();
    private final HubLeadershipListener listener =
            new HubLeadershipListener() {
                @Override
                public void gainedLeadership() {
                    heard.add("gained");
                }

                @Override
                public void lostLeadership() {
                    heard.add("lost");
                }
            };

    /** Port 1 refuses at once: each request fails fast, and is counted all the same. */
    private Hub hub(Leadership leadership) {
        TestingClock clock = new TestingClock(0);
        HubSettings settings =
                new HubSettings(
                        true,
                        "http://127.0.0.1:1",
                        Duration.ofSeconds(1),
                        ClientTarget.parseList("127.0.0.1:1"));
        return new Hub(
                settings,
                new InsightStores(StoreSettings.defaults(), clock, TestingCapabilities.FLINK_2_2),
                TestingCapabilities.FLINK_2_2,
                clock,
                Map::of,
                leadership,
                listener);
    }

    @Test
    void aStandbySendsNoRequestUntilItLeadsAndNoneAfter() {
        Leadership leadership = new Leadership();
        MetricGroup resourceManager = LeadershipTest.resourceManagerGroup();
        try (TestingLogCapture log = new TestingLogCapture();
                Hub hub = hub(leadership)) {
            hub.tick();
            hub.tick();
            hub.pollRound();
            assertThat(hub.leading()).isFalse();
            assertThat(hub.restRequests()).as("standby: Flink's REST API").isZero();
            assertThat(hub.clientRequests()).as("standby: client processes").isZero();
            assertThat(hub.leaderRestUrl()).as("no HA services to ask").isNull();
            assertThat(heard).isEmpty();

            leadership.metricAdded(Leadership.SIGNAL_METRIC, resourceManager);
            hub.tick(); // a new leader polls at once
            assertThat(heard).containsExactly("gained");
            assertThat(hub.restRequests()).isPositive();
            assertThat(hub.clientRequests()).isPositive();
            assertThat(hub.leaderRestUrl()).as("its own").isEqualTo("http://127.0.0.1:1");
            long rest = hub.restRequests();
            hub.tick(); // within the poll interval: no round
            assertThat(hub.restRequests()).isEqualTo(rest);

            leadership.metricRemoved(Leadership.SIGNAL_METRIC, resourceManager);
            hub.tick();
            hub.pollRound();
            assertThat(heard).containsExactly("gained", "lost");
            assertThat(hub.restRequests()).isEqualTo(rest);
            long clients = hub.clientRequests();
            hub.tick();
            assertThat(hub.clientRequests()).isEqualTo(clients);
            assertThat(log.linesAt("INFO")).anyMatch(l -> l.contains("no longer leads"));
        }
    }

    @Test
    void aThrowingListenerNeitherStopsPollingNorEscapes() {
        Leadership leadership = Leadership.granted();
        TestingClock clock = new TestingClock(0);
        HubSettings settings =
                new HubSettings(true, "http://127.0.0.1:1", Duration.ofSeconds(1), List.of());
        try (TestingLogCapture log = new TestingLogCapture();
                Hub hub =
                        new Hub(
                                settings,
                                new InsightStores(
                                        StoreSettings.defaults(),
                                        clock,
                                        TestingCapabilities.FLINK_2_2),
                                TestingCapabilities.FLINK_2_2,
                                clock,
                                Map::of,
                                leadership,
                                new HubLeadershipListener() {
                                    @Override
                                    public void gainedLeadership() {
                                        throw new IllegalStateException("restore failed");
                                    }

                                    @Override
                                    public void lostLeadership() {}
                                })) {
            hub.tick();
            assertThat(hub.restRequests()).isPositive();
        }
    }
}
