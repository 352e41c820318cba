package io.flinkinsight.client.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RecentJobRunsTest {

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    @Test
    void noWaitBeforeEnoughRunsAreKnown() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.MIN_RUNS - 1; i++) {
            runs.add(80);
        }

        assertThat(runs.firstPollDelayNanos()).isZero();
    }

    @Test
    void waitsForTheShortestUsualRunOfTheRecentOnes() {
        RecentJobRuns runs = new RecentJobRuns();
        // 60, 61, ..., 91 ms: the 10th percentile of the 32 is the 4th shortest (index 3 of 0..31)
        for (int i = 0; i < RecentJobRuns.WINDOW; i++) {
            runs.add(60 + i);
        }

        assertThat(millis(runs.firstPollDelayNanos())).isEqualTo(63);
    }

    @Test
    void onlyTheMostRecentRunsCount() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.WINDOW; i++) {
            runs.add(5);
        }
        for (int i = 0; i < RecentJobRuns.WINDOW; i++) {
            runs.add(40);
        }

        assertThat(millis(runs.firstPollDelayNanos())).isEqualTo(40);
    }

    @Test
    void neverWaitsLongerThanFlinksOwnPollInterval() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.WINDOW; i++) {
            runs.add(5_000);
        }

        assertThat(millis(runs.firstPollDelayNanos())).isEqualTo(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis());
        assertThat(millis(runs.shortestUsualRunNanos())).as("when a job may have ended, which is not capped")
                .isEqualTo(5_000);
    }

    @Test
    void aJobMayHaveEndedAtOnceBeforeEnoughRunsAreKnown() {
        RecentJobRuns runs = new RecentJobRuns();
        runs.add(5_000);

        assertThat(runs.shortestUsualRunNanos()).isZero();
    }
}
