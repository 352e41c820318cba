package io.flinkinsight.client.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkinsight.client.QueryRecord;
import io.flinkinsight.client.metrics.ClientMetrics;
import java.io.IOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectResultFetcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectLongPoll} on its own: single collect requests as the fetcher sends them, against a job that speaks
 * the collect sink's protocol. How the fetcher drains a whole query through the job client is {@link
 * InstrumentedJobClientTest}'s.
 */
class CollectLongPollTest {

    private static final Duration GENEROUS_BUDGET = Duration.ofMinutes(1);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ClientMetrics metrics = new ClientMetrics();
    private final QueryRecord record = new QueryRecord(metrics, System::nanoTime);

    @AfterEach
    void stopScheduler() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private CollectLongPoll longPoll(TestingCollectJob job, Duration budget) {
        return new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)), scheduler, metrics,
                record, System::nanoTime, budget, () -> false);
    }

    /** The job as it is: every status is asked of it, none is known in advance. */
    private static CollectLongPoll.Job asJob(TestingCollectJob job) {
        return asJob(job, uid -> {}, () -> {});
    }

    /**
     * {@link #asJob(TestingCollectJob)}, telling {@code beforeCollectRequest} the sink of each collect request and
     * running {@code beforeStatus} at each status request, as they go out.
     */
    private static CollectLongPoll.Job asJob(
            TestingCollectJob job, Consumer<String> beforeCollectRequest, Runnable beforeStatus) {
        return new CollectLongPoll.Job() {
            @Override
            public CompletableFuture<CoordinationResponse> sendCollectRequest(
                    String operatorUid, CollectCoordinationRequest request) {
                beforeCollectRequest.accept(operatorUid);
                return job.sendCoordinationRequest(operatorUid, request);
            }

            @Override
            public CompletableFuture<JobStatus> status() {
                beforeStatus.run();
                return job.getJobStatus();
            }

            @Override
            public JobStatus knownTerminalStatus() {
                return null;
            }

            @Override
            public CompletableFuture<JobExecutionResult> result() {
                return job.getJobExecutionResult();
            }
        };
    }

    private static int resultCount(CoordinationResponse response) throws IOException {
        return CollectResponses.resultCount((CollectCoordinationResponse) response);
    }

    @Test
    void aPrefetchForAnotherSinkIsNotUsed() throws Exception {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(3, "a");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        longPoll.prefetchFirstResults("another-sink").get(30, TimeUnit.SECONDS);
        CoordinationResponse answer = longPoll.answer(
                "collect-sink-uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(job.polls).isGreaterThan(3);
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void aBackOffLongerThanTheBudgetHoldsAcrossTheFetchersRequests() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).rowsAt(3, "x");
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofSeconds(2)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(200), () -> false);

        // poll 1 learns the version, poll 2 is empty: the 2 s back-off does not fit the 200 ms budget
        CoordinationResponse first =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);
        assertThat(resultCount(first)).isZero();
        assertThat(job.polls).isEqualTo(2);
        long start = System.nanoTime();

        // the fetcher repeats its request at once, as it does after an empty answer (after its 100 ms sleep)
        CollectCoordinationRequest again = new CollectCoordinationRequest(TestingCollectJob.SINK_VERSION, 0);
        CoordinationResponse second = longPoll.answer("uid", again).get(30, TimeUnit.SECONDS);
        if (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2)) {
            // still inside the back-off: the same empty answer, no request (before, poll 3 went out at once)
            assertThat(resultCount(second)).isZero();
            assertThat(job.polls).isEqualTo(2);
        }

        CoordinationResponse rows = null;
        for (int i = 0; i < 100 && (rows == null || resultCount(rows) == 0); i++) {
            rows = longPoll.answer("uid", again).get(30, TimeUnit.SECONDS);
        }
        assertThat(((CollectCoordinationResponse) rows).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        assertThat(System.nanoTime() - start).as("the third poll waited for the back-off")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1_700));
    }

    @Test
    void aDroppedPrefetchStopsPollingAtOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        AtomicInteger prefetchPolls = new AtomicInteger();
        CollectLongPoll.Job counted = asJob(job, uid -> {
            if (uid.equals("another-sink")) {
                prefetchPolls.incrementAndGet();
            }
        }, () -> {});
        CollectLongPoll longPoll = new CollectLongPoll(counted, CollectRetryStrategy.fixed(Duration.ofMillis(20)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMinutes(10), () -> false);
        CompletableFuture<Void> prefetched = longPoll.prefetchFirstResults("another-sink");
        Thread.sleep(100);

        // the fetcher asks another sink: nobody will read what the prefetch finds
        longPoll.answer("collect-sink-uid", new CollectCoordinationRequest(TestingCollectJob.SINK_VERSION, 0));

        // without stopping, the prefetch would poll on for its whole 10 min budget
        prefetched.get(30, TimeUnit.SECONDS);
        int atDrop = prefetchPolls.get();
        assertThat(atDrop).as("the prefetch polled before it was dropped").isPositive();
        Thread.sleep(300);
        // one poll may have been on its way when it was dropped; at its 20 ms pace 300 ms would bring ~15 more
        assertThat(prefetchPolls.get()).as("polls of the dropped prefetch").isLessThanOrEqualTo(atDrop + 1);
    }

    @Test
    void cancellingTheJobStopsAPrefetchAtOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(20)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMinutes(10), () -> false);
        CompletableFuture<Void> prefetched = longPoll.prefetchFirstResults("collect-sink-uid");

        longPoll.cancel();

        prefetched.get(30, TimeUnit.SECONDS);
        Thread.sleep(50); // a poll already on its way when the prefetch stopped may still land
        int polls;
        synchronized (job) {
            polls = job.polls;
        }
        // nothing is scheduled any more: one more poll interval passes without a poll (a lower bound on time only)
        Thread.sleep(100);
        synchronized (job) {
            assertThat(job.polls).isEqualTo(polls);
        }
    }

    @Test
    void rowsThatOnlyExistInTheAccumulatorAreHandedOverByTheLongPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(4).rowsAt(4, "only-at-the-end");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        // poll 1 learns the version, poll 2 and 3 are empty, the job ends before poll 4
        CoordinationResponse answer = longPoll.answer(
                "uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isEqualTo(1);
        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("only-at-the-end");
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void emptyPollsAreRepeatedInsideOneCallAndCountedAsRetries() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(4, "x");
        CollectLongPoll longPoll = longPoll(job, GENEROUS_BUDGET);

        CoordinationResponse answer = longPoll.answer(
                "uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isEqualTo(1);
        // ("", 0) learns the version, (v, 0) is empty twice, the fourth poll carries the row
        assertThat(job.polls).isEqualTo(4);
        assertThat(metrics.collectRequests.getCount()).isEqualTo(4);
        assertThat(metrics.collectRetries.getCount()).isEqualTo(2);
        assertThat(record.collectRetries()).isEqualTo(2);
        assertThat(job.statusCalls).as("a running job answers, so no status check is needed").isZero();
    }

    @Test
    void aSinkThatAnswersNeedsNoQuestionAboutTheEnd() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(10, "x");

        longPoll(job, GENEROUS_BUDGET).answer("uid", new CollectCoordinationRequest("", 0))
                .get(30, TimeUnit.SECONDS);

        // polls 2 to 9 are empty, but the sink answered each: the job runs
        assertThat(job.polls).isEqualTo(10);
        assertThat(job.statusCalls).isZero();
    }

    @Test
    void theEndIsAskedForOnceAPollFailsEvenForAQueryRunningAlone() throws Exception {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(6, "x");
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, GENEROUS_BUDGET, () -> true);

        CoordinationResponse answer =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        // polls 2 to 5 were empty while the sink answered; poll 6 failed (the job had ended): one question then
        assertThat(job.statusCalls).isEqualTo(1);
    }

    @Test
    void theFirstPollWaitsForTheGivenDelay() throws Exception {
        TestingCollectJob job = new TestingCollectJob(2).rowsAt(2, "x");
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(200);
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, GENEROUS_BUDGET, () -> true, delayNanos, delayNanos);
        long start = System.nanoTime();

        CompletableFuture<CoordinationResponse> answer =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0));

        answer.get(30, TimeUnit.SECONDS);
        // a lower bound only: the poll cannot have gone out before its delay, however slow the machine
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(delayNanos);
        assertThat(job.polls).isPositive();
    }

    @Test
    void withoutFastPollsTheStrategyBacksOff() throws Exception {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(6, "x");

        CoordinationResponse answer = firstAnswerSlowAfterTheFirstPoll(job, false);

        // the second wait (1 ms + 1 min) does not fit the budget: the empty answer goes back to the fetcher
        assertThat(resultCount(answer)).isZero();
        assertThat(job.polls).isEqualTo(3);
        assertThat(job.statusCalls).isZero();
    }

    /**
     * The answer to the fetcher's first request, with a strategy that waits 1 ms and then 1 min, and a 30 s budget:
     * only a long poll that keeps the first delay gets far.
     */
    private CoordinationResponse firstAnswerSlowAfterTheFirstPoll(TestingCollectJob job, boolean fastPolls)
            throws Exception {
        CollectRetryStrategy slowAfterTheFirstPoll = CollectRetryStrategy.incremental(
                Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofMinutes(1), Integer.MAX_VALUE);
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), slowAfterTheFirstPoll, scheduler, metrics,
                record, System::nanoTime, Duration.ofSeconds(30), () -> fastPolls);
        return longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void fetcherRepeatingItsRequestCountsAsRetry() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        CollectLongPoll longPoll = longPoll(job, Duration.ZERO);
        CollectCoordinationRequest request = new CollectCoordinationRequest(TestingCollectJob.SINK_VERSION, 0);

        longPoll.answer("uid", request).get(30, TimeUnit.SECONDS);
        Thread.sleep(10); // past the 1 ms back-off, as the fetcher's own 100 ms sleep is
        longPoll.answer("uid", request).get(30, TimeUnit.SECONDS);

        assertThat(metrics.collectRequests.getCount()).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isEqualTo(1);
    }

    @Test
    void spentBudgetHandsTheEmptyAnswerBackToTheFetcher() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        CollectLongPoll longPoll = longPoll(job, Duration.ZERO);

        CoordinationResponse answer = longPoll.answer(
                "uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isZero();
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
        assertThat(job.polls).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isZero();
    }

    @Test
    void anUnreachedSinkIsPolledAtFlinksPaceAndTheEndIsSeenFromThePolls() throws Exception {
        // polls 1 to 4 find no sink yet (the job starts), the job ended before poll 5, which fails
        TestingCollectJob job = new TestingCollectJob(5).sinkReachedAt(Integer.MAX_VALUE).rowsAt(5, "x");
        long start = System.nanoTime();

        CoordinationResponse answer = longPoll(job, GENEROUS_BUDGET)
                .answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        assertThat(job.polls).isEqualTo(5);
        assertThat(job.statusCalls).as("the end is asked once, after the poll that failed").isEqualTo(1);
        // a lower bound only: 4 waits of Flink's fetcher's pace, though the strategy waits 1 ms
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(
                TimeUnit.MILLISECONDS.toNanos(4 * LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
    }

    @Test
    void aSinkNotDeployedYetShowsNoEnd() throws Exception {
        // polls 1 to 5 fail as they do while the sink's vertex is not initialized; the job ended before poll 6
        TestingCollectJob job = new TestingCollectJob(6).sinkNotDeployedUntil(Integer.MAX_VALUE).rowsAt(6, "x");

        CoordinationResponse answer = longPoll(job, GENEROUS_BUDGET)
                .answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        assertThat(job.polls).isEqualTo(6);
        assertThat(job.statusCalls).as("only the poll that failed because the job had ended").isEqualTo(1);
    }

    @Test
    void aSinkNeverReachedHasTheEndAskedEveryTenthPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_500;
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(budgetMillis), () -> false);

        CoordinationResponse answer =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isZero();
        synchronized (job) {
            assertThat(job.statusCalls).isEqualTo(job.polls / LongPollPacing.STATUS_CHECK_EVERY_EMPTY_POLLS);
            // however fast the machine, polls are Flink's fetcher's pace apart: the first, then one per 100 ms
            assertThat(job.polls).isLessThanOrEqualTo(
                    1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        }
    }

    @Test
    void whileFastTheEndOfAJobWhoseSinkWasNotReachedIsAskedForAndComesWithItsRowsInOneAnswer() throws Exception {
        // the sink is never reached (the job's rows come with its end); the job ends at the third question
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE)
                .rowsAt(1, "x").endsAtStatusCall(3);
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, GENEROUS_BUDGET, () -> true);

        CoordinationResponse answer =
                longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        synchronized (job) {
            // one poll found no sink; then questions 1 ms apart, the third of which found the end: no poll failed
            // on the ended job first (unless this machine took 100 ms between two of them)
            assertThat(job.statusCalls).isEqualTo(3);
            assertThat(job.polls).isBetween(1, 3);
        }
    }

    @Test
    void whileFastAnUnreachedSinkIsPolledAtFlinksPaceUntilTheJobMayHaveEnded() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_000;
        // recent jobs all ran longer than this poll's budget: none of its polls can see an end
        long shortestUsualRunNanos = TimeUnit.SECONDS.toNanos(60);
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(budgetMillis), () -> true, 0,
                shortestUsualRunNanos);

        longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        synchronized (job) {
            // however fast the machine, polls are Flink's fetcher's pace apart: the first, then one per 100 ms
            assertThat(job.polls).isPositive().isLessThanOrEqualTo(
                    1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        }
    }

    @Test
    void whileFastEachCollectPollGoesAtLeastFlinksPaceAfterThePreviousOne() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        List<Long> sentAt = new CopyOnWriteArrayList<>();
        CollectLongPoll.Job timed = asJob(job, uid -> sentAt.add(System.nanoTime()), () -> {});
        CollectLongPoll longPoll = new CollectLongPoll(timed, CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(1_000), () -> true);

        longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(sentAt).hasSizeGreaterThanOrEqualTo(2);
        for (int i = 1; i < sentAt.size(); i++) {
            assertThat(sentAt.get(i) - sentAt.get(i - 1)).as("collect poll %s after the previous one", i)
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        }
    }

    @Test
    void whileFastTheEndIsAskedForAtTheStrategysPaceButTheSinkIsPolledAtFlinksPace() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        long budgetMillis = 1_500;
        CollectLongPoll longPoll = new CollectLongPoll(asJob(job), CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(budgetMillis), () -> true);

        longPoll.answer("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        synchronized (job) {
            // however fast the machine, polls are Flink's fetcher's pace apart: the first, then one per 100 ms
            assertThat(job.polls).isPositive().isLessThanOrEqualTo(
                    1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
            // and the end is asked for in between, about every ms
            assertThat(job.statusCalls).isGreaterThan(3 * job.polls);
        }
    }
    @Test
    void whenFastPollsEndMidwayTheEndIsNoLongerAskedForAtTheStrategysPace() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).sinkReachedAt(Integer.MAX_VALUE);
        AtomicBoolean fast = new AtomicBoolean(true);
        AtomicInteger questionsWhileFast = new AtomicInteger();
        CollectLongPoll.Job counted = asJob(job, uid -> {}, () -> {
            if (fast.get()) {
                questionsWhileFast.incrementAndGet();
            }
        });
        long budgetMillis = 2_000;
        CollectLongPoll longPoll = new CollectLongPoll(counted, CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                scheduler, metrics, record, System::nanoTime, Duration.ofMillis(budgetMillis), fast::get);

        CompletableFuture<CoordinationResponse> answer = longPoll.answer("uid", new CollectCoordinationRequest("", 0));
        Thread.sleep(300);
        // another query starts: the JobManager's capacity is shared from now on
        fast.set(false);
        answer.get(30, TimeUnit.SECONDS);

        synchronized (job) {
            int questionsAfter = job.statusCalls - questionsWhileFast.get();
            assertThat(questionsWhileFast.get()).as("questions for the end while fast").isGreaterThan(3);
            // after that, an unreached sink has the end asked every tenth poll, and polls go at Flink's pace: at most
            // two in the rest of the budget (one more if a question was on its way at the switch)
            assertThat(questionsAfter).as("questions for the end once not fast")
                    .isLessThanOrEqualTo(1 + 1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS)
                            / LongPollPacing.STATUS_CHECK_EVERY_EMPTY_POLLS);
            assertThat(job.polls).isPositive().isLessThanOrEqualTo(
                    1 + (int) (budgetMillis / LongPollPacing.UNREACHED_SINK_POLL_MILLIS));
        }
    }

    @Test
    void noPollWaitsLongerThanFlinksOwnFetcherWaitsBetweenItsPolls() throws Exception {
        // Flink's collect fetcher sleeps this long after an empty poll (a private constant of the Flink on the class
        // path, read here so that this test follows it): the long poll must never show rows later than that fetcher
        Field retry = CollectResultFetcher.class.getDeclaredField("DEFAULT_RETRY_MILLIS");
        retry.setAccessible(true);
        long flinksRetryMillis = retry.getInt(null);

        assertThat(LongPollPacing.UNREACHED_SINK_POLL_MILLIS).isLessThanOrEqualTo(flinksRetryMillis);
        assertThat(RecentJobRuns.MAX_FIRST_POLL_DELAY.toMillis()).isLessThanOrEqualTo(flinksRetryMillis);
    }

    @Test
    void onlyAFailureThatSaysTheSinkIsNotDeployedShowsNoEnd() {
        assertThat(CollectResponses.sinkNotStarted(new RuntimeException(
                "org.apache.flink.runtime.rest.util.RestClientException: [Internal server error., <Exception on server"
                        + " side:\norg.apache.flink.util.FlinkException: Coordinator of operator 1234 does not exist"
                        + " or the job vertex this operator belongs to is not initialized.\n>]"))).isTrue();
        assertThat(CollectResponses.sinkNotStarted(new RuntimeException(new IllegalStateException(
                "org.apache.flink.runtime.dispatcher.UnavailableDispatcherOperationException: Unable to get"
                        + " JobMasterGateway for initializing job.")))).isTrue();
        assertThat(CollectResponses.sinkNotStarted(new RuntimeException(
                "org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (42)"))).isFalse();
        assertThat(CollectResponses.sinkNotStarted(new java.net.ConnectException("Connection refused"))).isFalse();
    }
}
