package io.flinkinsight.client.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkinsight.client.QueryRecord;
import io.flinkinsight.client.metrics.ClientMetrics;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.AbstractCollectResultBuffer;
import org.apache.flink.streaming.api.operators.collect.CheckpointedCollectResultBuffer;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationRequest;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectResultFetcher;
import org.apache.flink.streaming.api.operators.collect.UncheckpointedCollectResultBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InstrumentedJobClientTest {

    private static final Duration GENEROUS_BUDGET = Duration.ofMinutes(1);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ClientMetrics metrics = new ClientMetrics();
    private final QueryRecord record = new QueryRecord(metrics, System::nanoTime);

    @AfterEach
    void stopScheduler() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private InstrumentedJobClient client(TestingCollectJob job, Duration budget) {
        return new InstrumentedJobClient(job, CollectRetryStrategy.fixed(Duration.ofMillis(1)), scheduler, metrics,
                record, System::nanoTime, budget, () -> false);
    }

    /** Drains the query with Flink's own fetcher, as the SQL Gateway does. */
    private static List<String> fetchAll(InstrumentedJobClient client, AbstractCollectResultBuffer<String> buffer)
            throws IOException {
        CollectResultFetcher<String> fetcher = new CollectResultFetcher<>(
                buffer, "collect-sink-uid", TestingCollectJob.ACCUMULATOR, TimeUnit.SECONDS.toMillis(30));
        fetcher.setJobClient(client);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String row = fetcher.next();
            if (row == null) {
                fetcher.close();
                return rows;
            }
            rows.add(row);
        }
        throw new AssertionError("the fetcher did not end after 1000 rows: " + rows);
    }

    private static int resultCount(CoordinationResponse response) throws IOException {
        return CollectResponses.resultCount((CollectCoordinationResponse) response);
    }

    @Test
    void everyRowArrivesExactlyOnceInOrderWhileRunningAndFromTheFinalAccumulator() throws IOException {
        TestingCollectJob job = new TestingCollectJob(9)
                .rowsAt(2, "a", "b")
                .rowsAt(5, "c")
                .rowsAt(8, "d", "e");

        List<String> rows = fetchAll(client(job, GENEROUS_BUDGET), new UncheckpointedCollectResultBuffer<>(
                StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("a", "b", "c", "d", "e");
        // d and e were left in the accumulator; the long poll and the fetcher shared one request for the result
        assertThat(job.resultCalls).isEqualTo(1);
        assertThat(job.cancelCalls).isZero();
    }

    @Test
    void prefetchedFirstResultsAnswerTheFetchersFirstRequestAndEveryRowArrivesOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(3, "a", "b").rowsAt(6, "c");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.prefetchFirstResults("collect-sink-uid").get(30, TimeUnit.SECONDS);
        int pollsBeforeHandOver = job.polls;
        List<String> rows = fetchAll(client, new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(pollsBeforeHandOver).isEqualTo(3);
        assertThat(rows).containsExactly("a", "b", "c");
        // poll 4 acknowledged a and b; without the prefetched answer the fetcher would have asked twice more first
        assertThat(job.polls).isEqualTo(9);
    }

    @Test
    void aJobThatEndedDuringThePrefetchIsReadFromItsAccumulatorWithoutPollingAgain() throws Exception {
        TestingCollectJob job = new TestingCollectJob(2).rowsAt(2, "x", "y");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.prefetchFirstResults("collect-sink-uid").get(30, TimeUnit.SECONDS);
        int pollsBeforeHandOver = job.polls;
        List<String> rows = fetchAll(client, new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("x", "y");
        assertThat(job.polls).isEqualTo(pollsBeforeHandOver);
        assertThat(job.resultCalls).isEqualTo(1);
    }

    @Test
    void aPrefetchForAnotherSinkIsNotUsed() throws Exception {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(3, "a");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.prefetchFirstResults("another-sink").get(30, TimeUnit.SECONDS);
        CoordinationResponse answer = client.sendCoordinationRequest(
                "collect-sink-uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(job.polls).isGreaterThan(3);
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void checkpointedBufferAlsoGetsEveryRowExactlyOnce() throws IOException {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(3, "a").rowsAt(5, "b", "c");

        List<String> rows = fetchAll(
                client(job, GENEROUS_BUDGET), new CheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE));

        assertThat(rows).containsExactly("a", "b", "c");
    }

    @Test
    void rowsThatOnlyExistInTheAccumulatorAreHandedOverByTheLongPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(4).rowsAt(3, "only-at-the-end");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        // poll 1 learns the version, poll 2 and 3 are empty, the job ends before poll 4
        CoordinationResponse answer = client.sendCoordinationRequest(
                "uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isEqualTo(1);
        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE))
                .containsExactly("only-at-the-end");
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
    }

    @Test
    void emptyPollsAreRepeatedInsideOneCallAndCountedAsRetries() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(4, "x");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        CoordinationResponse answer = client.sendCoordinationRequest(
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
    void longRunOfEmptyPollsAlsoAsksForTheStatusNowAndThen() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).rowsAt(10, "x");

        client(job, GENEROUS_BUDGET).sendCoordinationRequest("uid", new CollectCoordinationRequest("", 0))
                .get(30, TimeUnit.SECONDS);

        // polls 2 to 9 are empty: the status is asked after the 4th and the 8th
        assertThat(job.polls).isEqualTo(10);
        assertThat(job.statusCalls).isEqualTo(2);
    }

    @Test
    void aSinkThatStopsAnsweringHasTheStatusAskedAtOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE).rowsAt(2, "a").sinkGoneAt(4);

        List<String> rows = fetchAll(client(job, GENEROUS_BUDGET), new UncheckpointedCollectResultBuffer<>(
                StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("a");
        // poll 3 is empty, poll 4 finds the sink gone: the status is asked then, not after two more empty polls
        assertThat(job.polls).isEqualTo(4);
    }

    @Test
    void aQueryRunningAloneKeepsTheFirstDelayAndAsksTheStatusAfterEveryEmptyPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(6, "x");

        CoordinationResponse answer = firstAnswerSlowAfterTheFirstPoll(job, true);

        assertThat(((CollectCoordinationResponse) answer).getResults(StringSerializer.INSTANCE)).containsExactly("x");
        // polls 2 to 5 were empty and poll 6 failed: a status check after each
        assertThat(job.statusCalls).isEqualTo(5);
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
     * only a client that keeps the first delay gets far.
     */
    private CoordinationResponse firstAnswerSlowAfterTheFirstPoll(TestingCollectJob job, boolean fastPolls)
            throws Exception {
        CollectRetryStrategy slowAfterTheFirstPoll = CollectRetryStrategy.incremental(
                Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofMinutes(1), Integer.MAX_VALUE);
        InstrumentedJobClient client = new InstrumentedJobClient(job, slowAfterTheFirstPoll, scheduler, metrics,
                record, System::nanoTime, Duration.ofSeconds(30), () -> fastPolls);
        return client.sendCoordinationRequest("uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void fetcherRepeatingItsRequestCountsAsRetry() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        InstrumentedJobClient client = client(job, Duration.ZERO);
        CollectCoordinationRequest request = new CollectCoordinationRequest(TestingCollectJob.SINK_VERSION, 0);

        client.sendCoordinationRequest("uid", request).get(30, TimeUnit.SECONDS);
        client.sendCoordinationRequest("uid", request).get(30, TimeUnit.SECONDS);

        assertThat(metrics.collectRequests.getCount()).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isEqualTo(1);
    }

    @Test
    void spentBudgetHandsTheEmptyAnswerBackToTheFetcher() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        InstrumentedJobClient client = client(job, Duration.ZERO);

        CoordinationResponse answer = client.sendCoordinationRequest(
                "uid", new CollectCoordinationRequest("", 0)).get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isZero();
        assertThat(((CollectCoordinationResponse) answer).getVersion()).isEqualTo(TestingCollectJob.SINK_VERSION);
        assertThat(job.polls).isEqualTo(2);
        assertThat(metrics.collectRetries.getCount()).isZero();
    }

    @Test
    void terminalStatusIsCachedAndEndsTheQueryOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(2).rowsAt(1, "r");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);
        fetchAll(client, new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));
        int statusCalls = job.statusCalls;

        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        client.getJobExecutionResult().get();

        assertThat(job.statusCalls).isEqualTo(statusCalls);
        assertThat(metrics.queriesSucceeded.getCount()).isEqualTo(1);
        assertThat(metrics.queriesFailed.getCount()).isZero();
        assertThat(metrics.e2eLatencyMs.getCount()).isEqualTo(1);
        assertThat(metrics.retriesPerQuery.getCount()).isEqualTo(1);
        assertThat(metrics.clusterRunMs.getCount()).isEqualTo(1);
        assertThat(metrics.resultFetchMs.getCount()).isEqualTo(1);
    }

    @Test
    void cancelledQueryCountsAsFailedOnce() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.cancel().get();
        CompletableFuture<?> result = client.getJobExecutionResult();

        assertThat(result).isCompletedExceptionally();
        assertThat(metrics.queriesFailed.getCount()).isEqualTo(1);
        assertThat(metrics.queriesSucceeded.getCount()).isZero();
        assertThat(metrics.e2eLatencyMs.getCount()).isEqualTo(1);
    }

    @Test
    void cancelStopsARunningLongPoll() throws Exception {
        TestingCollectJob job = new TestingCollectJob(Integer.MAX_VALUE);
        InstrumentedJobClient client = new InstrumentedJobClient(job,
                CollectRetryStrategy.fixed(Duration.ofMillis(20)), scheduler, metrics, record, System::nanoTime,
                Duration.ofMinutes(10), () -> false);

        CompletableFuture<CoordinationResponse> answer =
                client.sendCoordinationRequest("uid", new CollectCoordinationRequest("", 0));
        client.cancel().get();

        assertThat(resultCount(answer.get(30, TimeUnit.SECONDS))).isZero();
    }
}
