package io.flinkinsight.client.collect;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.config.CollectRetryStrategy;
import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.transport.ChannelAcquireTimeoutException;

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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link InstrumentedJobClient} drained by Flink's own collect fetcher, as the SQL Gateway does,
 * and its cached status, shared result and query timeline. What the long poll does with single
 * requests is {@link CollectLongPollTest}'s.
 */
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

    private InstrumentedJobClient client(
            TestingCollectJob job, CollectRetryStrategy strategy, Duration budget) {
        // as the executor makes it: the jar's Flink line adds the collect fetcher's own
        // coordination request method
        return FlinkLine.get()
                .newJobClient(
                        job,
                        record,
                        polledJob ->
                                new CollectLongPoll(
                                        polledJob,
                                        strategy,
                                        scheduler,
                                        metrics,
                                        record,
                                        System::nanoTime,
                                        budget,
                                        () -> false));
    }

    private InstrumentedJobClient client(TestingCollectJob job, Duration budget) {
        return client(job, CollectRetryStrategy.fixed(Duration.ofMillis(1)), budget);
    }

    /** Drains the query with Flink's own fetcher, as the SQL Gateway does. */
    private static List<String> fetchAll(
            InstrumentedJobClient client, AbstractCollectResultBuffer<String> buffer)
            throws IOException {
        CollectResultFetcher<String> fetcher =
                new CollectResultFetcher<>(
                        buffer,
                        "collect-sink-uid",
                        TestingCollectJob.ACCUMULATOR,
                        TimeUnit.SECONDS.toMillis(30));
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
    void everyRowArrivesExactlyOnceInOrderWhileRunningAndFromTheFinalAccumulator()
            throws IOException {
        TestingCollectJob job =
                new TestingCollectJob(9).rowsAt(2, "a", "b").rowsAt(5, "c").rowsAt(8, "d", "e");

        List<String> rows =
                fetchAll(
                        client(job, GENEROUS_BUDGET),
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("a", "b", "c", "d", "e");
        // d and e were left in the accumulator; the one request that showed the job's end also
        // brought its result, which the long poll and the fetcher shared (the other went before the
        // first poll: with no recent runs the job may have ended at once)
        assertThat(job.endCalls).isEqualTo(2);
        assertThat(job.resultCalls).isZero();
        assertThat(job.cancelCalls).isZero();
    }

    @Test
    void everyRequestForTheQueryIsCountedAndRecordedWithItsEnd() throws IOException {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(2, "a").rowsAt(8, "b");

        List<String> rows =
                fetchAll(
                        client(job, GENEROUS_BUDGET),
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("a", "b");
        long asked = job.polls + job.statusCalls + job.endCalls + job.resultCalls + job.cancelCalls;
        assertThat(record.requests()).isEqualTo(asked);
        assertThat(metrics.queryRequests.getCount()).isEqualTo(asked);
        assertThat(metrics.requestsPerQuery.getCount()).isEqualTo(1);
        assertThat(metrics.requestsPerQuery.getStatistics().getMax()).isEqualTo(asked);
    }

    @Test
    void aBusyConnectionPoolMakesTheFetcherWaitNeverAssumeTheEnd() throws IOException {
        TestingCollectJob job =
                new TestingCollectJob(9)
                        .rowsAt(2, "a")
                        .rowsAt(8, "b", "c")
                        .failStatus(
                                3,
                                new CompletionException(
                                        new ChannelAcquireTimeoutException(
                                                "jobmanager:8081",
                                                ChannelPoolSettings.defaults())));

        List<String> rows =
                fetchAll(
                        client(job, GENEROUS_BUDGET),
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        // without waiting, the fetcher would have taken the first failed status for the job's end
        // and read its
        // result before the job had one
        assertThat(rows).containsExactly("a", "b", "c");
        assertThat(job.statusCalls).isEqualTo(4);
        assertThat(job.cancelCalls).isZero();
    }

    @Test
    void aBusyConnectionPoolMakesTheResultWaitNotFailTheQueryAndWhatNeverLeftIsNotCounted()
            throws Exception {
        ChannelAcquireTimeoutException busy =
                new ChannelAcquireTimeoutException(
                        "jobmanager:8081", ChannelPoolSettings.defaults());
        TestingCollectJob job =
                new TestingCollectJob(100)
                        .endsAtStatusCall(1)
                        .failResult(2, new CompletionException(busy));
        job.getJobStatus(); // the job finishes
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        // without asking again, the fetcher's read of the result would fail the query
        assertThat(client.getJobExecutionResult().get(30, TimeUnit.SECONDS)).isNotNull();
        assertThat(job.resultCalls).as("asked until a connection was free").isEqualTo(3);
        assertThat(record.requests()).as("requests that left").isEqualTo(1);
        assertThat(metrics.queryRequests.getCount()).isEqualTo(1);
        assertThat(record.isFinished()).isTrue();
        assertThat(metrics.queriesSucceeded.getCount()).isEqualTo(1);
    }

    @Test
    void aQuestionForTheEndThatFindsThePoolBusyIsAskedAgainAndWhatNeverLeftIsNotCounted()
            throws Exception {
        ChannelAcquireTimeoutException busy =
                new ChannelAcquireTimeoutException(
                        "jobmanager:8081", ChannelPoolSettings.defaults());
        TestingCollectJob job =
                new TestingCollectJob(100).failEnd(2, new CompletionException(busy));
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        assertThat(client.endIfEnded().get(30, TimeUnit.SECONDS)).isEmpty();
        assertThat(job.endCalls).as("asked until a connection was free").isEqualTo(3);
        assertThat(record.requests()).as("requests that left").isEqualTo(1);
    }

    @Test
    void aPoolBusyForLongerThanThePatienceOrACancelledQueryEndsTheWait() throws Exception {
        ChannelAcquireTimeoutException busy =
                new ChannelAcquireTimeoutException(
                        "jobmanager:8081", ChannelPoolSettings.defaults());
        AtomicLong clock = new AtomicLong();
        TestingCollectJob stuck =
                new TestingCollectJob(100).failStatus(1_000_000, new CompletionException(busy));
        InstrumentedJobClient patient =
                new InstrumentedJobClient(
                        stuck,
                        record,
                        polledJob ->
                                new CollectLongPoll(
                                        polledJob,
                                        CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                        scheduler,
                                        metrics,
                                        record,
                                        clock::get,
                                        GENEROUS_BUDGET,
                                        () -> false),
                        () ->
                                clock.addAndGet(
                                        InstrumentedJobClient.BUSY_POOL_PATIENCE.toNanos() / 3));

        assertThatThrownBy(() -> patient.getJobStatus().get(30, TimeUnit.SECONDS))
                .hasRootCauseInstanceOf(ChannelAcquireTimeoutException.class);
        assertThat(stuck.statusCalls).as("asked again until the patience ran out").isBetween(2, 4);

        TestingCollectJob stuckToo =
                new TestingCollectJob(100).failStatus(1_000_000, new CompletionException(busy));
        InstrumentedJobClient cancelled = client(stuckToo, GENEROUS_BUDGET);
        cancelled.cancel();
        assertThatThrownBy(() -> cancelled.getJobStatus().get(30, TimeUnit.SECONDS))
                .hasRootCauseInstanceOf(ChannelAcquireTimeoutException.class);
        assertThat(stuckToo.statusCalls).as("a cancelled query asks once").isEqualTo(1);
    }

    @Test
    void aStatusSeenLessThanAPollIntervalAgoIsAnsweredWithoutAsking() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100);
        AtomicLong clock = new AtomicLong();
        InstrumentedJobClient client =
                new InstrumentedJobClient(
                                job,
                                record,
                                polledJob ->
                                        new CollectLongPoll(
                                                polledJob,
                                                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                                scheduler,
                                                metrics,
                                                record,
                                                clock::get,
                                                GENEROUS_BUDGET,
                                                () -> false),
                                clock::get)
                        .accepted();

        assertThat(client.getJobStatus().get(30, TimeUnit.SECONDS))
                .isEqualTo(JobStatus.INITIALIZING);
        assertThat(job.statusCalls).as("the job was accepted just now").isZero();

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(InstrumentedJobClient.FRESH_STATUS_MILLIS));
        assertThat(client.getJobStatus().get(30, TimeUnit.SECONDS)).isEqualTo(JobStatus.RUNNING);
        assertThat(job.statusCalls).as("the acceptance is no longer fresh").isEqualTo(1);
        assertThat(record.requests()).isEqualTo(1);
    }

    @Test
    void aPollTheJobManagerAnsweredKeepsTheStatusFresh() throws Exception {
        TestingCollectJob job = new TestingCollectJob(100).sinkReachedAt(Integer.MAX_VALUE);
        AtomicLong clock = new AtomicLong();
        InstrumentedJobClient client =
                new InstrumentedJobClient(
                                job,
                                record,
                                polledJob ->
                                        new CollectLongPoll(
                                                polledJob,
                                                CollectRetryStrategy.fixed(Duration.ofMillis(1)),
                                                scheduler,
                                                metrics,
                                                record,
                                                clock::get,
                                                Duration.ZERO,
                                                () -> false),
                                clock::get)
                        .accepted();
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(InstrumentedJobClient.FRESH_STATUS_MILLIS));

        // the sink is not reached, but the JobManager answered for the job: it has not ended
        CoordinationResponse answer =
                client.sendCoordinationRequest(
                                "collect-sink-uid", new CollectCoordinationRequest("", 0))
                        .get(30, TimeUnit.SECONDS);

        assertThat(resultCount(answer)).isZero();
        assertThat(client.getJobStatus().get(30, TimeUnit.SECONDS).isGloballyTerminalState())
                .isFalse();
        assertThat(job.statusCalls).as("answered from the poll").isZero();
        // the poll went after a question (the job may have ended: no recent runs)
        assertThat(record.requests()).isEqualTo(job.polls + job.endCalls);
    }

    @Test
    void prefetchedFirstResultsAnswerTheFetchersFirstRequestAndEveryRowArrivesOnce()
            throws Exception {
        TestingCollectJob job = new TestingCollectJob(9).rowsAt(3, "a", "b").rowsAt(6, "c");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.prefetchFirstResults("collect-sink-uid").get(30, TimeUnit.SECONDS);
        int pollsBeforeHandOver = job.polls;
        List<String> rows =
                fetchAll(
                        client,
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(pollsBeforeHandOver).isEqualTo(3);
        assertThat(rows).containsExactly("a", "b", "c");
        // poll 4 acknowledged a and b; without the prefetched answer the fetcher would have asked
        // twice more first
        assertThat(job.polls).isEqualTo(9);
    }

    @Test
    void aJobThatEndedDuringThePrefetchIsReadFromItsAccumulatorWithoutPollingAgain()
            throws Exception {
        TestingCollectJob job = new TestingCollectJob(2).rowsAt(2, "x", "y");
        InstrumentedJobClient client = client(job, GENEROUS_BUDGET);

        client.prefetchFirstResults("collect-sink-uid").get(30, TimeUnit.SECONDS);
        int pollsBeforeHandOver = job.polls;
        List<String> rows =
                fetchAll(
                        client,
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("x", "y");
        assertThat(job.polls).isEqualTo(pollsBeforeHandOver);
        // before the first poll, and the one that showed the end
        assertThat(job.endCalls).isEqualTo(2);
        assertThat(job.resultCalls).isZero();
    }

    @Test
    void checkpointedBufferAlsoGetsEveryRowExactlyOnce() throws IOException {
        TestingCollectJob job = new TestingCollectJob(6).rowsAt(3, "a").rowsAt(5, "b", "c");

        List<String> rows =
                fetchAll(
                        client(job, GENEROUS_BUDGET),
                        new CheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE));

        assertThat(rows).containsExactly("a", "b", "c");
    }

    @Test
    void aSinkThatStopsAnsweringHasTheStatusAskedAtOnce() throws Exception {
        TestingCollectJob job =
                new TestingCollectJob(Integer.MAX_VALUE).rowsAt(2, "a").sinkGoneAt(4);

        List<String> rows =
                fetchAll(
                        client(job, GENEROUS_BUDGET),
                        new UncheckpointedCollectResultBuffer<>(StringSerializer.INSTANCE, false));

        assertThat(rows).containsExactly("a");
        // poll 3 is empty, poll 4 finds the sink gone: the status is asked then, not after two more
        // empty polls
        assertThat(job.polls).isEqualTo(4);
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
        InstrumentedJobClient client =
                client(
                        job,
                        CollectRetryStrategy.fixed(Duration.ofMillis(20)),
                        Duration.ofMinutes(10));

        CompletableFuture<CoordinationResponse> answer =
                client.sendCoordinationRequest("uid", new CollectCoordinationRequest("", 0));
        client.cancel().get();

        assertThat(resultCount(answer.get(30, TimeUnit.SECONDS))).isZero();
    }
}
