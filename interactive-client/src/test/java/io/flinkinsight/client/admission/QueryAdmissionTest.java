package io.flinkinsight.client.admission;

import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.pool.ClusterIdentity;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueryAdmissionTest {

    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
    private final QueryAdmission admission = new QueryAdmission(scheduler);

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private static Configuration conf(int maxQueries, String timeout, String maxHold) {
        Configuration conf = new Configuration();
        conf.setString("rest.address", "jm.example");
        conf.setString("rest.port", "8081");
        conf.setString("execution.interactive.admission.max-queries", String.valueOf(maxQueries));
        conf.setString("execution.interactive.admission.timeout", timeout);
        conf.setString("execution.interactive.admission.max-hold", maxHold);
        return conf;
    }

    private QueryAdmission.Place enter(Configuration conf) throws Exception {
        InteractiveClientSettings settings = InteractiveClientSettings.fromConfiguration(conf);
        return admission.enter(ClusterIdentity.of(conf, settings), settings.admission());
    }

    @Test
    void aClustersStateGoesWithItsLastQuery() throws Exception {
        List<QueryAdmission.Place> places = new ArrayList<>();
        for (int port = 20_000; port < 20_100; port++) {
            Configuration conf = conf(2, "10 s", "1 h");
            conf.setString(
                    "rest.port",
                    Integer.toString(port)); // a distinct cluster (client identity) each
            places.add(enter(conf));
            places.add(enter(conf));
        }
        assertThat(admission.clusters()).isEqualTo(100);

        places.remove(0).release();
        assertThat(admission.clusters())
                .as("one query still holds a place on the first cluster")
                .isEqualTo(100);
        places.forEach(QueryAdmission.Place::release);

        assertThat(admission.clusters()).isZero();
    }

    @Test
    void aQueryThatTimedOutWaitingLeavesNothingBehind() throws Exception {
        Configuration conf = conf(1, "10 ms", "1 h");
        QueryAdmission.Place first = enter(conf);
        assertThatThrownBy(() -> enter(conf)).isInstanceOf(TimeoutException.class);

        first.release();

        assertThat(admission.clusters()).isZero();
    }

    @Test
    void aQueryOverTheCapWaitsUntilOneEndsThenEnters() throws Exception {
        Configuration conf = conf(2, "10 s", "1 h");
        QueryAdmission.Place first = enter(conf);
        enter(conf);

        CompletableFuture<QueryAdmission.Place> third =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return enter(conf);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (admission.waiting() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(admission.waiting()).isEqualTo(1);
        assertThat(third).isNotDone();

        first.release();
        assertThat(third.get(10, TimeUnit.SECONDS)).isNotNull();
        assertThat(admission.waiting()).isZero();
    }

    @Test
    void noPlaceWithinTheTimeoutIsAClearErrorNamingBothOptions() throws Exception {
        Configuration conf = conf(1, "20 ms", "1 h");
        enter(conf);
        assertThatThrownBy(() -> enter(conf))
                .isInstanceOf(TimeoutException.class)
                .hasMessageContaining("execution.interactive.admission.timeout")
                .hasMessageContaining("execution.interactive.admission.max-queries")
                .hasMessageContaining("20 ms");
    }

    @Test
    void releasingTwiceGivesBackOnePlace() throws Exception {
        Configuration conf = conf(1, "20 ms", "1 h");
        QueryAdmission.Place place = enter(conf);
        place.release();
        place.release();
        enter(conf);
        assertThatThrownBy(() -> enter(conf)).isInstanceOf(TimeoutException.class);
    }

    @Test
    void aLongQueryGivesItsPlaceAwayAfterTheMaxHold() throws Exception {
        Configuration conf = conf(1, "10 s", "50 ms");
        enter(conf);
        // The first never ends; the second gets its place once the first has held it 50 ms.
        assertThat(enter(conf)).isNotNull();
    }

    @Test
    void zeroTurnsTheCapOffButQueriesInFlightAreStillCounted() throws Exception {
        Configuration conf = conf(0, "1 ms", "1 h");
        List<QueryAdmission.Place> places = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            places.add(enter(conf));
        }
        assertThat(places.get(0).othersInFlight()).isEqualTo(99);

        places.subList(1, 100).forEach(QueryAdmission.Place::release);
        assertThat(places.get(0).othersInFlight()).isZero();
    }

    @Test
    void queriesOfOtherClustersAreNotCounted() throws Exception {
        Configuration conf = conf(1, "20 ms", "1 h");
        Configuration other = conf(1, "20 ms", "1 h");
        other.setString("rest.port", "9081");
        QueryAdmission.Place mine = enter(conf);
        enter(other);
        assertThat(mine.othersInFlight()).isZero();
    }

    @Test
    void theQueryRecordGivesThePlaceBackWhenTheQueryEnds() throws Exception {
        Configuration conf = conf(1, "20 ms", "1 h");
        QueryRecord record = new QueryRecord(new ClientMetrics(), System::nanoTime);
        record.admitted(enter(conf));
        assertThatThrownBy(() -> enter(conf)).isInstanceOf(TimeoutException.class);

        record.finish(true);
        assertThat(enter(conf)).isNotNull();
    }

    @Test
    void badValuesNameTheKeyAndTheRange() {
        assertThatThrownBy(() -> enter(conf(-1, "1 s", "1 s")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.admission.max-queries")
                .hasMessageContaining("between 0 and 100000");
        assertThatThrownBy(() -> enter(conf(1, "0 ms", "1 s")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.admission.timeout")
                .hasMessageContaining("between 1 ms and 1 d");
        assertThatThrownBy(() -> enter(conf(1, "1 s", "forever")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.admission.max-hold");
    }
}
