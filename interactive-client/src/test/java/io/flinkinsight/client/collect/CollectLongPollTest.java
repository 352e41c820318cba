package io.flinkinsight.client.collect;

import io.flinkinsight.client.config.CollectRetryStrategy;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CollectLongPoll} on its own: single collect requests as the fetcher sends them, against a
 * job that speaks the collect sink's protocol, on a manual clock (the waits are exact and nobody
 * sleeps). How the fetcher drains a whole query through the job client is {@link
 * InstrumentedJobClientTest}'s; the pacing's decisions one by one are {@link LongPollPacingTest}'s.
 */
class CollectLongPollTest {

    private static final Duration GENEROUS_BUDGET = Duration.ofMinutes(1);

    private final TestingScheduler scheduler = new TestingScheduler();
    private final LongSupplier clock = scheduler.nanoClock();
    private final ClientMetrics metrics = new ClientMetrics();
    private final QueryRecord record = new QueryRecord(metrics, clock);

    private CollectLongPoll longPoll(TestingCollectJob job, Duration budget) {
        return longPoll(
                job.asLongPolledJob(),
                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                budget,
                () -> false);
    }

    private CollectLongPoll longPoll(
            CollectLongPoll.Job job,
            CollectRetryStrategy strategy,
            Duration budget,
            BooleanSupplier fastPolls) {
        return new CollectLongPoll(
                job, strategy, scheduler, metrics, record, clock, budget, fastPolls);
    }

    private CollectLongPoll longPoll(
            CollectLongPoll.Job job,
            CollectRetryStrategy strategy,
            Duration budget,
            BooleanSupplier fastPolls,
            RecentJobRuns.PollTimes times) {
        return new CollectLongPoll(
                job, strategy, scheduler, metrics, record, clock, budget, fastPolls, times);
    }

    /**
     * A long poll of a job whose like all ran longer than an hour: it cannot have ended yet as far
     * as the long poll knows, so its polls go without questions first.
     */
    private CollectLongPoll longPollBeforeTheJobMayHaveEnded(
            TestingCollectJob job, Duration budget) {
        return longPoll(
                job.asLongPolledJob(),
                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                budget,
                () -> false,
                new RecentJobRuns.PollTimes(
                        0, TimeUnit.HOURS.toNanos(1), TimeUnit.HOURS.toNanos(1)));
    }

    /**
     * What {@code future} comes to, the clock moved on from one scheduled step to the next until it
     * is done.
     */
    private <T> T await(CompletableFuture<T> future) {
        scheduler.runUntilDone(future);
        return future.join();
    }

    /**
     * The answer to the fetcher's request for offset 0 of {@code version} ("" before the sink told
     * its own).
     */
    private CoordinationResponse answer(CollectLongPoll longPoll, String version) {
        return await(longPoll.answer("uid", new CollectCoordinationRequest(version, 0)));
    }

    private static int resultCount(CoordinationResponse response) throws IOException {
        return CollectResponses.resultCount((CollectCoordinationResponse) response);
    }

    @Test
    void aPrefetchForAnotherSinkIsNotUsed() throws Exception {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(3, "a");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        await(longPoll.prefetchFirstResults("another-sink"));
        CoordinationResponse answer =
                await(longPoll.answer("collect-sink-uid", new CollectCoordinationRequest("", 0)));

        assertThat(job.polls).isGreaterThan(3);
        assertThat(((CollectCoordinationResponse) answer).getVersion())
                .isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void aBackOffLongerThanTheBudgetHoldsAcrossTheFetchersRequests() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).rowsAt(3, "x");
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofSeconds(2)),
                        Duration.ofMillis(200),
                        () -> false);

        // poll 1 learns the version, poll 2 is empty: the 2 s back-off does not fit the 200 ms
        // budget
        CoordinationResponse first = answer(longPoll, "");
        assertThat(resultCount(first)).isZero();
        assertThat(job.polls).isEqualTo(2);
        long backOffStart = clock.getAsLong();

        // the fetcher repeats its request at once, as it does after an empty answer (after its 100
        // ms sleep)
        CoordinationResponse second = answer(longPoll, TestingCollectJob.SINK_VERSION);
        // still inside the back-off: the same empty answer at the budget's end, and no request
        assertThat(resultCount(second)).isZero();
        assertThat(job.polls).isEqualTo(2);
        assertThat(clock.getAsLong() - backOffStart).isEqualTo(Duration.ofMillis(200).toNanos());

        CoordinationResponse rows = second;
        for (int i = 0; i < 100 && resultCount(rows) == 0; i++) {
            rows = answer(longPoll, TestingCollectJob.SINK_VERSION);
        }
        assertThat(((CollectCoordinationResponse) rows).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        assertThat(job.polls).isEqualTo(3);
        assertThat(clock.getAsLong() - backOffStart)
                .as("the third poll went out when the back-off ended")
                .isEqualTo(Duration.ofSeconds(2).toNanos());
    }

    @Test
    void aDroppedPrefetchStopsPollingAtOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        AtomicInteger prefetchPolls = new AtomicInteger();
        CollectLongPoll.Job counted =
                job.asLongPolledJob(
                        uid -> {
                            if (uid.equals("another-sink")) {
                                prefetchPolls.incrementAndGet();
                            }
                        },
                        () -> {});
        CollectLongPoll longPoll =
                longPoll(
                        counted,
                        CollectRetryStrategy.fixed(Duration.ofMillis(20)),
                        Duration.ofMinutes(10),
                        () -> false);
        CompletableFuture<Void> prefetched = longPoll.prefetchFirstResults("another-sink");
        scheduler.advance(Duration.ofMillis(100));

        // the fetcher asks another sink: nobody will read what the prefetch finds
        longPoll.answer(
                "collect-sink-uid",
                new CollectCoordinationRequest(TestingCollectJob.SINK_VERSION, 0));

        // without stopping, the prefetch would poll on for its whole 10 min budget
        assertThat(prefetched).isDone();
        int atDrop = prefetchPolls.get();
        assertThat(atDrop)
                .as("the prefetch polled before it was dropped")
                .isEqualTo(1 + 1 + 100 / 20);
        scheduler.advance(Duration.ofMillis(300));
        assertThat(prefetchPolls.get()).as("polls of the dropped prefetch").isEqualTo(atDrop);
    }

    @Test
    void cancellingTheJobStopsAPrefetchAtOnce() {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(20)),
                        Duration.ofMinutes(10),
                        () -> false);
        CompletableFuture<Void> prefetched = longPoll.prefetchFirstResults("collect-sink-uid");
        int polls = job.polls;

        longPoll.cancel();

        assertThat(prefetched).isDone();
        assertThat(scheduler.pending()).as("polls still scheduled").isZero();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(job.polls).isEqualTo(polls);
    }

    @Test
    void rowsThatOnlyExistInTheAccumulatorAreHandedOverByTheLongPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(4).rowsAt(4, "only-at-the-end");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        // poll 1 learns the version, poll 2 and 3 are empty, the job ends before poll 4
        CoordinationResponse answer = answer(longPoll, "");

        assertThat(resultCount(answer)).isEqualTo(1);
        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("only-at-the-end");
        assertThat(((CollectCoordinationResponse) answer).getVersion())
                .isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void emptyPollsAreRepeatedInsideOneCallAndCountedAsRetries() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(4, "x");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        CoordinationResponse answer = answer(longPoll, "");

        assertThat(resultCount(answer)).isEqualTo(1);
        // ("", 0) learns the version, (v, 0) is empty twice, the fourth poll carries the row
        assertThat(job.polls).isEqualTo(4);
        assertThat(metrics.collectRequests.getCount()).isEqualTo(4);
        assertThat(metrics.collectRetries.getCount()).isEqualTo(2);
        assertThat(record.collectRetries()).isEqualTo(2);
        assertThat(job.statusCalls)
                .as(
                        "a running job answers, so no status check is needed after the question"
                                + " before the first poll (no recent runs: the job may have ended)")
                .isEqualTo(1);
    }

    @Test
    void aSinkThatAnswersNeedsNoQuestionAboutTheEnd() {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(10, "x");

        answer(longPoll(job, GENEROUS_BUDGET), "");

        // polls 2 to 9 are empty, but the sink answered each: the job runs; the one question went
        // before the first poll, before the sink was seen
        assertThat(job.polls).isEqualTo(10);
        assertThat(job.statusCalls).isEqualTo(1);
    }

    @Test
    void theEndIsAskedForOnceAPollFailsEvenForAQueryRunningAlone() throws Exception {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(6, "x");
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        GENEROUS_BUDGET,
                        () -> true);

        CoordinationResponse answer = answer(longPoll, "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        // a question before poll 1 (the sink not seen yet); polls 2 to 5 were empty while the sink
        // answered; poll 6 failed (the job had ended): one question then
        assertThat(job.statusCalls).isEqualTo(2);
    }

    @Test
    void theFirstPollWaitsForTheGivenDelay() throws Exception {
        TestingCollectJob job = new TestingCollectJob(2).rowsAt(2, "x");
        Duration delay = Duration.ofMillis(200);
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        GENEROUS_BUDGET,
                        () -> true,
                        new RecentJobRuns.PollTimes(delay.toNanos(), delay.toNanos(), 0));

        CompletableFuture<CoordinationResponse> answer =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0));

        scheduler.advance(delay.minusNanos(1));
        assertThat(job.polls).isZero();
        scheduler.advance(Duration.ofNanos(1));
        assertThat(job.polls).isPositive();
        assertThat(resultCount(answer.join())).isEqualTo(1);
    }

    @Test
    void withoutFastPollsTheStrategyBacksOff() throws Exception {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(6, "x");

        CoordinationResponse answer = firstAnswerSlowAfterTheFirstPoll(job, false);

        // the second wait (1 ms + 1 min) does not fit the budget: the empty answer goes back to the
        // fetcher
        assertThat(resultCount(answer)).isZero();
        assertThat(job.polls).isEqualTo(3);
        // only before the first poll, which had not seen the sink
        assertThat(job.statusCalls).isEqualTo(1);
    }

    /**
     * The answer to the fetcher's first request, with a strategy that waits 1 ms and then 1 min,
     * and a 30 s budget: only a long poll that keeps the first delay gets far.
     */
    private CoordinationResponse firstAnswerSlowAfterTheFirstPoll(
            TestingCollectJob job, boolean fastPolls) {
        CollectRetryStrategy slowAfterTheFirstPoll =
                CollectRetryStrategy.incremental(
                        Duration.ofMillis(1),
                        Duration.ofMinutes(1),
                        Duration.ofMinutes(1),
                        Integer.MAX_VALUE);
        return answer(
                longPoll(
                        job.asLongPolledJob(),
                        slowAfterTheFirstPoll,
                        Duration.ofSeconds(30),
                        () -> fastPolls),
                "");
    }

    @Test
    void fetcherRepeatingItsRequestCountsAsRetry() {
        TestingCollectJob job = new TestingCollectJob(100);
        CollectLongPoll longPoll = longPoll(job, Duration.ZERO);

        answer(longPoll, TestingCollectJob.SINK_VERSION);
        scheduler.advance(
                Duration.ofMillis(
                        100)); // past the 1 ms back-off, as the fetcher's own 100 ms sleep is
        answer(longPoll, TestingCollectJob.SINK_VERSION);

        assertThat(metrics.collectRequests.getCount()).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isEqualTo(1);
    }

    @Test
    void spentBudgetHandsTheEmptyAnswerBackToTheFetcher() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        CollectLongPoll longPoll = longPoll(job, Duration.ZERO);

        CoordinationResponse answer = answer(longPoll, "");

        assertThat(resultCount(answer)).isZero();
        assertThat(((CollectCoordinationResponse) answer).getVersion())
                .isEqualTo(TestingCollectJob.SINK_VERSION);
        assertThat(job.polls).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isZero();
    }

    @Test
    void beforeTheJobMayHaveEndedAnUnreachedSinkIsPolledAtFlinksPaceAndAFailedPollShowsTheEnd()
            throws Exception {
        // polls 1 to 4 find no sink yet (the job starts), the job ended before poll 5, which fails
        TestingCollectJob job =
                new TestingCollectJob(5).sinkReachedAt(Integer.MAX_VALUE).rowsAt(5, "x");
        long start = clock.getAsLong();

        CoordinationResponse answer =
                answer(longPollBeforeTheJobMayHaveEnded(job, GENEROUS_BUDGET), "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        assertThat(job.polls).isEqualTo(5);
        assertThat(job.statusCalls)
                .as("the end is asked once, after the poll that failed")
                .isEqualTo(1);
        // 4 waits of Flink's fetcher's pace, though the strategy waits 1 ms
        assertThat(clock.getAsLong() - start)
                .isEqualTo(
                        Duration.ofMillis(4 * LongPollPacing.UNREACHED_SINK_POLL_MILLIS).toNanos());
    }

    @Test
    void onceTheJobMayHaveEndedAnUnreachedSinkIsPolledOnlyAfterTheJobIsSeenRunning()
            throws Exception {
        // the sink is never reached (the job's rows come with its end), the job ends at 450 ms
        long start = clock.getAsLong();
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE)
                        .sinkReachedAt(Integer.MAX_VALUE)
                        .rowsAt(1, "x")
                        .endsAt(clock, start + TimeUnit.MILLISECONDS.toNanos(450));

        CoordinationResponse answer = answer(longPoll(job, GENEROUS_BUDGET), "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        assertThat(job.pollsOfAnEndedJob).as("no poll reached the job once it had ended").isZero();
        // polls at 0, 100, ..., 400 ms, each after a question; the question at 500 ms found the end
        assertThat(job.polls).isEqualTo(5);
        assertThat(job.statusCalls).isEqualTo(6);
        assertThat(clock.getAsLong() - start).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
    }

    @Test
    void whileTheJobIsOneOfTheUsualRunsALiveSinkIsPolledOnlyAfterTheJobIsSeenRunning()
            throws Exception {
        // the sink answers from the first poll; its row comes with the job's end, at 45 ms
        long start = clock.getAsLong();
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE)
                        .rowsAt(1, "x")
                        .endsAt(clock, start + TimeUnit.MILLISECONDS.toNanos(45));
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(10)),
                        GENEROUS_BUDGET,
                        () -> true,
                        new RecentJobRuns.PollTimes(0, 0, TimeUnit.SECONDS.toNanos(1)));

        CoordinationResponse answer = answer(longPoll, "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        assertThat(job.pollsOfAnEndedJob).as("no poll reached the job once it had ended").isZero();
    }

    @Test
    void aQuestionThatShowsTheEndWithNothingLeftHandsBackTheCoordinatorsEmptyAnswerNotAFailure()
            throws Exception {
        // the job ended before the first request of this call; its rows, if any, came before
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).endsAtStatusCall(1);

        CoordinationResponse answer =
                await(
                        longPoll(job, GENEROUS_BUDGET)
                                .answer(
                                        "uid",
                                        new CollectCoordinationRequest(
                                                TestingCollectJob.SINK_VERSION, 3)));

        // what the sink's coordinator answers when it cannot reach the sink: Flink's fetcher then
        // looks at the job's status, where an exception would be a WARN in the gateway's log
        CollectCoordinationResponse empty = (CollectCoordinationResponse) answer;
        assertThat(empty.getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
        assertThat(empty.getLastCheckpointedOffset()).isEqualTo(-1);
        assertThat(resultCount(empty)).isZero();
        assertThat(job.polls).isZero();
    }

    @Test
    void aCancelledQuerysCallSendsNoPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);
        longPoll.cancel();

        CoordinationResponse answer = answer(longPoll, "");

        assertThat(resultCount(answer)).isZero();
        assertThat(job.polls).isZero();
        assertThat(job.statusCalls).isZero();
    }

    @Test
    void aLongJobsLiveSinkIsPolledWithoutQuestions() {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(10, "x");
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        GENEROUS_BUDGET,
                        () -> true,
                        new RecentJobRuns.PollTimes(0, 0, 0));

        answer(longPoll, "");

        // the one question before the first poll, which had not seen the sink yet
        assertThat(job.polls).isEqualTo(10);
        assertThat(job.statusCalls).isEqualTo(1);
    }

    @Test
    void aSinkNotDeployedYetShowsNoEnd() throws Exception {
        // polls 1 to 5 fail as they do while the sink's vertex is not initialized; the job ended
        // before poll 6
        TestingCollectJob job =
                new TestingCollectJob(6).sinkNotDeployedUntil(Integer.MAX_VALUE).rowsAt(6, "x");

        CoordinationResponse answer =
                answer(longPollBeforeTheJobMayHaveEnded(job, GENEROUS_BUDGET), "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        assertThat(job.polls).isEqualTo(6);
        assertThat(job.statusCalls)
                .as("only the poll that failed because the job had ended")
                .isEqualTo(1);
    }

    @Test
    void beforeTheJobMayHaveEndedASinkNeverReachedHasTheEndAskedEveryTenthPoll() throws Exception {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_500;

        CoordinationResponse answer =
                answer(longPollBeforeTheJobMayHaveEnded(job, Duration.ofMillis(budgetMillis)), "");

        assertThat(resultCount(answer)).isZero();
        // the first poll, then one per Flink's fetcher's pace until the budget is spent
        assertThat(job.polls)
                .isEqualTo(1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        assertThat(job.statusCalls)
                .isEqualTo(job.polls / LongPollPacing.STATUS_CHECK_EVERY_EMPTY_POLLS);
    }

    @Test
    void whileFastTheEndOfAJobWhoseSinkWasNotReachedIsAskedForAndComesWithItsRowsInOneAnswer()
            throws Exception {
        // the sink is never reached (the job's rows come with its end); the job ends at the third
        // question
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE)
                        .sinkReachedAt(Integer.MAX_VALUE)
                        .rowsAt(1, "x")
                        .endsAtStatusCall(3);
        long start = clock.getAsLong();

        CoordinationResponse answer =
                answer(
                        longPoll(
                                job.asLongPolledJob(),
                                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                GENEROUS_BUDGET,
                                () -> true),
                        "");

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("x");
        // a question before the poll (no recent runs: the job may have ended), which found no sink;
        // then questions 1 ms apart, the third of which found the end: no poll failed first
        assertThat(job.statusCalls).isEqualTo(3);
        assertThat(job.polls).isEqualTo(1);
        assertThat(clock.getAsLong() - start).isEqualTo(Duration.ofMillis(2).toNanos());
    }

    @Test
    void whileFastAnUnreachedSinkIsPolledAtFlinksPaceUntilTheJobMayHaveEnded() {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_000;
        // recent jobs all ran longer than this poll's budget: none of its polls can see an end
        long shortestUsualRunNanos = TimeUnit.SECONDS.toNanos(60);
        CollectLongPoll longPoll =
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        Duration.ofMillis(budgetMillis),
                        () -> true,
                        new RecentJobRuns.PollTimes(0, shortestUsualRunNanos, 0));

        answer(longPoll, "");

        // the first poll, then one per Flink's fetcher's pace; only the tenth asks for the end
        assertThat(job.polls)
                .isEqualTo(1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        assertThat(job.statusCalls).isEqualTo(1);
    }

    @Test
    void whileFastEachCollectPollGoesFlinksPaceAfterThePreviousOne() {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        List<Long> sentAt = new ArrayList<>();
        CollectLongPoll.Job timed =
                job.asLongPolledJob(uid -> sentAt.add(clock.getAsLong()), () -> {});

        answer(
                longPoll(
                        timed,
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        Duration.ofMillis(1_000),
                        () -> true),
                "");

        assertThat(sentAt).hasSize(11);
        for (int i = 1; i < sentAt.size(); i++) {
            assertThat(sentAt.get(i) - sentAt.get(i - 1))
                    .as("collect poll %s after the previous one", i)
                    .isEqualTo(
                            TimeUnit.MILLISECONDS.toNanos(
                                    LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        }
    }

    @Test
    void whileFastTheEndIsAskedForAtTheStrategysPaceButTheSinkIsPolledAtFlinksPace() {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_500;

        answer(
                longPoll(
                        job.asLongPolledJob(),
                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                        Duration.ofMillis(budgetMillis),
                        () -> true),
                "");

        long pollsApart = LongPollPacing.UNREACHED_SINK_POLL_MILLIS;
        assertThat(job.polls).isEqualTo(1 + (int) (budgetMillis / pollsApart));
        // and the end is asked for in between, every ms, and before each poll
        assertThat(job.statusCalls).isEqualTo((job.polls - 1) * (int) (pollsApart - 1) + job.polls);
    }

    @Test
    void whenFastPollsEndMidwayTheEndIsNoLongerAskedForAtTheStrategysPace() {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        AtomicBoolean fast = new AtomicBoolean(true);
        AtomicInteger questionsWhileFast = new AtomicInteger();
        CollectLongPoll.Job counted =
                job.asLongPolledJob(
                        uid -> {},
                        () -> {
                            if (fast.get()) {
                                questionsWhileFast.incrementAndGet();
                            }
                        });
        long budgetMillis = 2_000;
        CompletableFuture<CoordinationResponse> answer =
                longPoll(
                                counted,
                                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                Duration.ofMillis(budgetMillis),
                                fast::get)
                        .answer("uid", new CollectCoordinationRequest("", 0));

        scheduler.advance(Duration.ofMillis(300));
        // another query starts: the JobManager's capacity is shared from now on
        fast.set(false);
        await(answer);

        long pollsApart = LongPollPacing.UNREACHED_SINK_POLL_MILLIS;
        // the polls at 0, 100, 200 and 300 ms went while fast
        int pollsWhileFast = 4;
        assertThat(questionsWhileFast.get())
                .as("questions for the end while fast, every ms between polls and before each")
                .isEqualTo(3 * (int) (pollsApart - 1) + pollsWhileFast);
        assertThat(job.polls).isEqualTo(1 + (int) (budgetMillis / pollsApart));
        // after that, only the question before each poll at Flink's pace
        assertThat(job.statusCalls - questionsWhileFast.get())
                .as("questions for the end once not fast")
                .isEqualTo(job.polls - pollsWhileFast);
    }
}
