package io.flinkinsight.client.collect;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RecentJobRunsTest {

    private static final long SHAPE = 7;
    private static final long NEW_SHAPE = 8;

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /**
     * {@code count} runs of {@code millis}, each of a shape of its own (from 1000 up), as if every
     * query differed.
     */
    private static void addOfDistinctShapes(RecentJobRuns runs, int count, long millis) {
        for (int i = 0; i < count; i++) {
            runs.add(1000 + i, millis);
        }
    }

    @Test
    void noWaitBeforeEnoughRunsAreKnown() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.SHAPE_MIN_RUNS - 1; i++) {
            runs.add(SHAPE, 80);
        }
        addOfDistinctShapes(runs, RecentJobRuns.MIN_RUNS - RecentJobRuns.SHAPE_MIN_RUNS, 80);

        assertThat(runs.pollTimes(SHAPE).firstPollDelayNanos()).isZero();
        assertThat(runs.pollTimes(SHAPE).mayHaveEndedNanos()).isZero();
    }

    @Test
    void thePollTimesComeFromTheShortestAndTheLongestUsualRun() {
        RecentJobRuns runs = new RecentJobRuns();
        assertThat(runs.pollTimes(SHAPE))
                .as("none known: the job may have ended at once, and is a usual run for 1 s")
                .isEqualTo(
                        new RecentJobRuns.PollTimes(
                                0, 0, RecentJobRuns.MIN_USUAL_RUNS_OVER.toNanos()));
        // 600, 610, ..., 750 ms: the 10th percentile of the 16 is index 1, the 90th index 13
        for (int i = 0; i < RecentJobRuns.SHAPE_WINDOW; i++) {
            runs.add(SHAPE, 600 + 10 * i);
        }

        RecentJobRuns.PollTimes times = runs.pollTimes(SHAPE);

        assertThat(millis(times.firstPollDelayNanos()))
                .isEqualTo(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis());
        assertThat(millis(times.mayHaveEndedNanos())).isEqualTo(610);
        assertThat(millis(times.usualRunsOverNanos())).isEqualTo(2 * 730);
    }

    @Test
    void theEndIsExpectedAtMostTenSecondsPastTheShortestUsualRun() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.SHAPE_WINDOW; i++) {
            runs.add(SHAPE, 60_000);
        }

        assertThat(millis(runs.pollTimes(SHAPE).usualRunsOverNanos()))
                .isEqualTo(60_000 + RecentJobRuns.MAX_EXPECTED_END.toMillis());
    }

    @Test
    void aNewShapeWaitsForTheShortestUsualRunOfAllRecentJobs() {
        RecentJobRuns runs = new RecentJobRuns();
        // 60, 61, ..., 91 ms: the 10th percentile of the 32 is the 4th shortest (index 3 of 0..31)
        for (int i = 0; i < RecentJobRuns.WINDOW; i++) {
            runs.add(1000 + i, 60 + i);
        }

        assertThat(millis(runs.pollTimes(NEW_SHAPE).firstPollDelayNanos())).isEqualTo(63);
    }

    @Test
    void onlyTheMostRecentRunsCount() {
        RecentJobRuns runs = new RecentJobRuns();
        addOfDistinctShapes(runs, RecentJobRuns.WINDOW, 5);
        addOfDistinctShapes(runs, RecentJobRuns.WINDOW, 40);

        assertThat(millis(runs.pollTimes(NEW_SHAPE).firstPollDelayNanos())).isEqualTo(40);
    }

    @Test
    void aKnownShapeGoesByItsOwnRunsNotByShorterJobsOfOtherQueries() {
        RecentJobRuns runs = new RecentJobRuns();
        addOfDistinctShapes(runs, RecentJobRuns.WINDOW, 60);
        runs.add(SHAPE, 900);
        runs.add(SHAPE, 850);
        assertThat(millis(runs.pollTimes(SHAPE).mayHaveEndedNanos()))
                .as("two runs of the shape: all jobs count")
                .isEqualTo(60);

        runs.add(SHAPE, 1200);

        assertThat(millis(runs.pollTimes(SHAPE).mayHaveEndedNanos())).isEqualTo(850);
        assertThat(millis(runs.pollTimes(NEW_SHAPE).mayHaveEndedNanos())).isEqualTo(60);
        assertThat(millis(runs.pollTimes(SHAPE).firstPollDelayNanos()))
                .isEqualTo(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis());
    }

    @Test
    void theShapeLeastRecentlyUsedIsForgottenBeyondTheLimit() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int run = 0; run < RecentJobRuns.SHAPE_MIN_RUNS; run++) {
            runs.add(SHAPE, 500);
            runs.add(NEW_SHAPE, 600);
        }
        for (int shape = 0; shape < RecentJobRuns.MAX_SHAPES - 1; shape++) {
            if (shape == RecentJobRuns.MAX_SHAPES / 2) {
                // asked about midway: used more recently than NEW_SHAPE, though added as early
                assertThat(millis(runs.pollTimes(SHAPE).mayHaveEndedNanos())).isEqualTo(500);
            }
            for (int run = 0; run < RecentJobRuns.SHAPE_MIN_RUNS; run++) {
                runs.add(1000 + shape, 70);
            }
        }

        assertThat(millis(runs.pollTimes(SHAPE).mayHaveEndedNanos()))
                .as("kept: used recently")
                .isEqualTo(500);
        assertThat(millis(runs.pollTimes(NEW_SHAPE).mayHaveEndedNanos()))
                .as("forgotten: all jobs count")
                .isEqualTo(70);
    }

    @Test
    void neverWaitsLongerThanFlinksOwnPollIntervalForTheFirstPoll() {
        RecentJobRuns runs = new RecentJobRuns();
        for (int i = 0; i < RecentJobRuns.SHAPE_WINDOW; i++) {
            runs.add(SHAPE, 5_000);
        }

        assertThat(millis(runs.pollTimes(SHAPE).firstPollDelayNanos()))
                .isEqualTo(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis());
        assertThat(millis(runs.pollTimes(SHAPE).mayHaveEndedNanos()))
                .as("when a job may have ended, which is not capped")
                .isEqualTo(5_000);
    }

    @Test
    void aJobMayHaveEndedAtOnceBeforeEnoughRunsAreKnown() {
        RecentJobRuns runs = new RecentJobRuns();
        runs.add(SHAPE, 5_000);

        assertThat(runs.pollTimes(SHAPE).mayHaveEndedNanos()).isZero();
    }
}
