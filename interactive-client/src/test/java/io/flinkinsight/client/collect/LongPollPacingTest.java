package io.flinkinsight.client.collect;

import io.flinkinsight.client.collect.LongPollPacing.EmptyPoll;
import io.flinkinsight.client.collect.LongPollPacing.Next;
import io.flinkinsight.client.collect.LongPollPacing.Step;
import io.flinkinsight.client.config.CollectRetryStrategy;

import org.apache.flink.streaming.api.operators.collect.CollectResultFetcher;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.Duration;

import static io.flinkinsight.client.collect.LongPollPacing.STATUS_CHECK_EVERY_EMPTY_POLLS;
import static io.flinkinsight.client.collect.LongPollPacing.UNREACHED_SINK_POLL_MILLIS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LongPollPacing} on a manual clock: each decision is a function of the time and of what the
 * last poll showed, so the times here are exact and nothing sleeps.
 */
class LongPollPacingTest {

    /**
     * 5 ms, 10 ms, 15 ms, ... up to 50 ms: each wait of the strategy tells which poll in a row it
     * followed.
     */
    private static final CollectRetryStrategy STRATEGY =
            CollectRetryStrategy.incremental(
                    Duration.ofMillis(5),
                    Duration.ofMillis(5),
                    Duration.ofMillis(50),
                    Integer.MAX_VALUE);

    private static final Duration BUDGET = Duration.ofSeconds(1);

    private final TestingScheduler clock = new TestingScheduler();

    /** How long after the job may have ended it is still one of the usual runs, in these tests. */
    private static final Duration USUAL_RUNS_OVER_AFTER = Duration.ofSeconds(2);

    private final long start = clock.nowNanos();

    /**
     * Pacing whose first poll may go out at once, and whose job may have ended {@code
     * mayHaveEndedAfter} from now.
     */
    private LongPollPacing pacing(Duration mayHaveEndedAfter) {
        return new LongPollPacing(
                STRATEGY,
                BUDGET,
                start,
                start + mayHaveEndedAfter.toNanos(),
                start + mayHaveEndedAfter.toNanos() + USUAL_RUNS_OVER_AFTER.toNanos());
    }

    private long now() {
        return clock.nowNanos();
    }

    private static EmptyPoll sinkAnswered(long inRow) {
        return new EmptyPoll(inRow, false, true);
    }

    private static EmptyPoll sinkNotReached(long inRow) {
        return new EmptyPoll(inRow, false, false);
    }

    private static EmptyPoll endLikely(long inRow) {
        return new EmptyPoll(inRow, true, false);
    }

    @Test
    void aSinkThatAnswersIsPolledAgainAtTheStrategysPaceWithoutAskingForTheEnd() {
        // before the job may have ended
        LongPollPacing pacing = pacing(Duration.ofHours(1));

        assertThat(pacing.afterEmptyPoll(sinkAnswered(1), now(), true))
                .isEqualTo(new Next(Step.POLL, 5));
        assertThat(pacing.afterEmptyPoll(sinkAnswered(3), now(), false))
                .isEqualTo(new Next(Step.POLL, 15));
        assertThat(
                        pacing.afterEmptyPoll(
                                sinkAnswered(STATUS_CHECK_EVERY_EMPTY_POLLS), now(), false))
                .as("a sink that answers shows the end itself")
                .isEqualTo(new Next(Step.POLL, 50));
    }

    @Test
    void whileTheEndIsExpectedASinkThatAnswersIsPolledAsOneNotReachedThenAsAliveOnceTheJobIsLong() {
        LongPollPacing pacing = pacing(Duration.ZERO);

        assertThat(pacing.afterEmptyPoll(sinkAnswered(1), now(), true))
                .as("fast: questions at the strategy's pace")
                .isEqualTo(new Next(Step.ASK_END, 0));
        assertThat(pacing.afterEmptyPoll(sinkAnswered(1), now(), false))
                .as("not fast: polls at Flink's pace")
                .isEqualTo(new Next(Step.POLL, UNREACHED_SINK_POLL_MILLIS));
        clock.advance(USUAL_RUNS_OVER_AFTER);
        assertThat(pacing.afterEmptyPoll(sinkAnswered(1), now(), true))
                .as("a long job's sink shows its end itself")
                .isEqualTo(new Next(Step.POLL, 5));
    }

    @Test
    void anUnreachedSinkIsPolledNoFasterThanFlinksOwnFetcher() {
        LongPollPacing pacing = pacing(Duration.ZERO);

        assertThat(pacing.afterEmptyPoll(sinkNotReached(1), now(), false))
                .isEqualTo(new Next(Step.POLL, UNREACHED_SINK_POLL_MILLIS));
        assertThat(pacing.unreachedSinkPollMillis(now(), false))
                .isEqualTo(UNREACHED_SINK_POLL_MILLIS);
    }

    @Test
    void beforeTheJobMayHaveEndedEveryTenthPollThatDidNotReachTheSinkAlsoAsksForTheEnd() {
        LongPollPacing pacing = pacing(Duration.ofHours(1));

        for (long inRow = 1; inRow <= 3 * STATUS_CHECK_EVERY_EMPTY_POLLS; inRow++) {
            Step expected =
                    inRow % STATUS_CHECK_EVERY_EMPTY_POLLS == 0
                            ? Step.ASK_END_THEN_POLL
                            : Step.POLL;
            assertThat(pacing.afterEmptyPoll(sinkNotReached(inRow), now(), false).step())
                    .as("after empty poll %s", inRow)
                    .isEqualTo(expected);
        }
    }

    @Test
    void onceTheJobMayHaveEndedNoTenthPollAsksForTheEndAgain() {
        LongPollPacing pacing = pacing(Duration.ZERO);

        // each poll of an unreached sink goes after a question then
        assertThat(pacing.mayHaveEnded(now())).isTrue();
        assertThat(
                        pacing.afterEmptyPoll(
                                        sinkNotReached(STATUS_CHECK_EVERY_EMPTY_POLLS),
                                        now(),
                                        false)
                                .step())
                .isEqualTo(Step.POLL);
    }

    @Test
    void aPollGoesAfterAQuestionOnceTheJobMayHaveEndedAndToASinkSeenAliveOnlyInTheUsualRuns() {
        LongPollPacing pacing = pacing(Duration.ofMillis(250));

        assertThat(pacing.questionFirst(now(), false)).as("before it may have ended").isFalse();
        assertThat(pacing.questionFirst(now(), true)).isFalse();
        clock.advance(Duration.ofMillis(250));
        assertThat(pacing.questionFirst(now(), false)).isTrue();
        assertThat(pacing.questionFirst(now(), true)).isTrue();
        clock.advance(USUAL_RUNS_OVER_AFTER.minusNanos(1));
        assertThat(pacing.questionFirst(now(), true)).isTrue();
        clock.advance(Duration.ofNanos(1));
        assertThat(pacing.questionFirst(now(), true))
                .as("a long job: its live sink shows its end itself")
                .isFalse();
        assertThat(pacing.questionFirst(now(), false))
                .as("an unreached sink shows nothing")
                .isTrue();
    }

    @Test
    void theJobMayHaveEndedFromTheShortestUsualRunOfJobsLikeIt() {
        LongPollPacing pacing = pacing(Duration.ofMillis(250));

        assertThat(pacing.mayHaveEnded(now())).isFalse();
        clock.advance(Duration.ofMillis(250).minusNanos(1));
        assertThat(pacing.mayHaveEnded(now())).isFalse();
        clock.advance(Duration.ofNanos(1));
        assertThat(pacing.mayHaveEnded(now())).isTrue();
    }

    @Test
    void aPollThatShowsTheEndHasTheEndAskedForBeforeTheNextPoll() {
        LongPollPacing pacing = pacing(Duration.ZERO);

        assertThat(pacing.afterEmptyPoll(endLikely(2), now(), false))
                .isEqualTo(new Next(Step.ASK_END_THEN_POLL, UNREACHED_SINK_POLL_MILLIS));
        assertThat(pacing.afterEmptyPoll(endLikely(2), now(), true))
                .as("fast, once the job may have ended: no wait beyond the strategy's")
                .isEqualTo(new Next(Step.ASK_END_THEN_POLL, 10));
    }

    @Test
    void whileFastAnUnreachedSinkWaitsOnlyUntilTheJobMayHaveEndedThenTheEndIsAskedFor() {
        LongPollPacing pacing = pacing(Duration.ofMillis(250));

        assertThat(pacing.afterEmptyPoll(sinkNotReached(1), now(), true))
                .isEqualTo(new Next(Step.POLL, UNREACHED_SINK_POLL_MILLIS));
        clock.advance(Duration.ofMillis(200));
        assertThat(pacing.afterEmptyPoll(sinkNotReached(2), now(), true))
                .as("50 ms before the job may have ended")
                .isEqualTo(new Next(Step.POLL, 50));
        clock.advance(Duration.ofMillis(49).plusNanos(1));
        assertThat(pacing.unreachedSinkPollMillis(now(), true))
                .as("rounded up to a whole ms")
                .isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(pacing.afterEmptyPoll(sinkNotReached(3), now(), true).step())
                .isEqualTo(Step.ASK_END);
        assertThat(pacing.afterEmptyPoll(sinkNotReached(3), now(), false))
                .as("no longer fast: Flink's pace again")
                .isEqualTo(new Next(Step.POLL, UNREACHED_SINK_POLL_MILLIS));
    }

    @Test
    void questionsForTheEndGoAtTheStrategysPaceButNeverPastTheNextPollForRows() {
        LongPollPacing pacing = pacing(Duration.ZERO);
        long lastSent = now();

        clock.advance(Duration.ofMillis(10));
        assertThat(pacing.questionDelayMillis(1, now(), lastSent)).isEqualTo(5);
        assertThat(pacing.questionDelayMillis(4, now(), lastSent)).isEqualTo(20);
        clock.advance(Duration.ofMillis(87).plusNanos(1));
        assertThat(pacing.questionDelayMillis(4, now(), lastSent))
                .as("the poll for rows is due in 2.999999 ms")
                .isEqualTo(3);
        clock.advance(Duration.ofMillis(5));
        assertThat(pacing.questionDelayMillis(4, now(), lastSent))
                .as("the poll for rows is overdue")
                .isZero();
    }

    @Test
    void aDueQuestionForTheEndGivesWayToAPollForRowsAtFlinksPaceOrOnceNoLongerFast() {
        LongPollPacing pacing = pacing(Duration.ZERO);
        long lastSent = now();

        clock.advance(Duration.ofMillis(UNREACHED_SINK_POLL_MILLIS).minusNanos(1));
        assertThat(pacing.pollInsteadOfQuestion(now(), lastSent, true)).isFalse();
        assertThat(pacing.pollInsteadOfQuestion(now(), lastSent, false)).isTrue();
        clock.advance(Duration.ofNanos(1));
        assertThat(pacing.pollInsteadOfQuestion(now(), lastSent, true)).isTrue();
    }

    @Test
    void beforeTheJobMayHaveEndedADueQuestionGivesWayToAPoll() {
        LongPollPacing pacing = pacing(Duration.ofMillis(300));
        long lastSent = now();

        clock.advance(Duration.ofMillis(10));
        assertThat(pacing.pollInsteadOfQuestion(now(), lastSent, true)).isTrue();
    }

    @Test
    void theFirstRequestWaitsForTheFirstPollDelayOrABackOffThatOutlastedTheLastBudget() {
        LongPollPacing pacing =
                new LongPollPacing(STRATEGY, BUDGET, start + 40_000_000, start, start);

        assertThat(pacing.firstRequestDelayNanos(now(), 0)).isEqualTo(40_000_000);
        assertThat(pacing.firstRequestDelayNanos(now(), start + 70_000_000)).isEqualTo(70_000_000);
        clock.advance(Duration.ofMillis(100));
        assertThat(pacing.firstRequestDelayNanos(now(), start + 70_000_000))
                .as("due already")
                .isNegative();
    }

    @Test
    void aStepAfterTheDeadlineHandsTheAnswerBackButOneExactlyAtItDoesNot() {
        LongPollPacing pacing = pacing(Duration.ZERO);
        long deadline = pacing.deadlineNanos(now());

        assertThat(deadline - now()).isEqualTo(BUDGET.toNanos());
        clock.advance(Duration.ofMillis(900));
        assertThat(LongPollPacing.pastDeadline(now(), Duration.ofMillis(100).toNanos(), deadline))
                .isFalse();
        assertThat(
                        LongPollPacing.pastDeadline(
                                now(), Duration.ofMillis(100).toNanos() + 1, deadline))
                .isTrue();
    }

    @Test
    void noPollWaitsLongerThanFlinksOwnFetcherWaitsBetweenItsPolls() throws Exception {
        // Flink's collect fetcher sleeps this long after an empty poll (a private constant of the
        // Flink on the class
        // path, read here so that this test follows it): the long poll must never show rows later
        // than that fetcher
        Field retry = CollectResultFetcher.class.getDeclaredField("DEFAULT_RETRY_MILLIS");
        retry.setAccessible(true);
        long flinksRetryMillis = retry.getInt(null);

        assertThat(UNREACHED_SINK_POLL_MILLIS).isLessThanOrEqualTo(flinksRetryMillis);
        assertThat(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis())
                .isLessThanOrEqualTo(flinksRetryMillis);
    }
}
