package io.flinkinsight.client.collect;

import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.metrics.Histogram;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class QueryRecordTest {

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final ClientMetrics metrics = new ClientMetrics();

    private void advanceMillis(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private static long onlyValue(Histogram histogram) {
        assertThat(histogram.getCount()).isEqualTo(1);
        return histogram.getStatistics().getMax();
    }

    @Test
    void breakdownAddsUpToTheEndToEndLatency() {
        QueryRecord record = new QueryRecord(metrics, clock::get);
        advanceMillis(12);
        record.accepted();
        advanceMillis(30);
        record.statusSeen(JobStatus.CREATED);
        advanceMillis(8);
        record.statusSeen(JobStatus.RUNNING);
        advanceMillis(100);
        record.statusSeen(JobStatus.RUNNING);
        record.statusSeen(JobStatus.FINISHED);
        advanceMillis(5);
        record.collectRetried();
        record.collectRetried();

        assertThat(record.finish(true)).isTrue();

        assertThat(onlyValue(metrics.submitMs)).isEqualTo(12);
        assertThat(onlyValue(metrics.jobStartWaitMs)).isEqualTo(38);
        assertThat(onlyValue(metrics.clusterRunMs)).isEqualTo(100);
        assertThat(onlyValue(metrics.resultFetchMs)).isEqualTo(5);
        assertThat(onlyValue(metrics.e2eLatencyMs)).isEqualTo(155);
        assertThat(onlyValue(metrics.retriesPerQuery)).isEqualTo(2);
        assertThat(metrics.queriesSubmitted.getCount()).isEqualTo(1);
        assertThat(metrics.queriesSucceeded.getCount()).isEqualTo(1);
    }

    @Test
    void
            aJobFirstSeenEndedSpentItsTimeSinceAcceptanceOnTheClusterAndWaitedForNoStartTheClientSaw() {
        QueryRecord record = new QueryRecord(metrics, clock::get);
        advanceMillis(10);
        record.accepted();
        advanceMillis(40);
        record.statusSeen(JobStatus.FINISHED);
        record.runningSeen(); // the last results, which come with the end
        advanceMillis(2);
        record.finish(true);

        assertThat(metrics.jobStartWaitMs.getCount()).isZero();
        assertThat(onlyValue(metrics.clusterRunMs)).isEqualTo(40);
        assertThat(onlyValue(metrics.resultFetchMs)).isEqualTo(2);
        assertThat(
                        onlyValue(metrics.submitMs)
                                + onlyValue(metrics.clusterRunMs)
                                + onlyValue(metrics.resultFetchMs))
                .isEqualTo(onlyValue(metrics.e2eLatencyMs));
    }

    @Test
    void failedSubmissionRecordsOnlyTheEndToEndLatencyAndCountsOnce() {
        QueryRecord record = new QueryRecord(metrics, clock::get);
        advanceMillis(7);

        assertThat(record.finish(false)).isTrue();
        assertThat(record.finish(true)).isFalse();

        assertThat(onlyValue(metrics.e2eLatencyMs)).isEqualTo(7);
        assertThat(metrics.submitMs.getCount()).isZero();
        assertThat(metrics.clusterRunMs.getCount()).isZero();
        assertThat(metrics.queriesFailed.getCount()).isEqualTo(1);
        assertThat(metrics.queriesSucceeded.getCount()).isZero();
    }
}
