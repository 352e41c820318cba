package io.flinkinsight.client.metrics;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.common.QuerySpan;
import io.flinkinsight.common.StatementText;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.traces.Span;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class QuerySpanTest {

    private static final long EPOCH = 1_790_000_000_000L;

    private final AtomicLong nanos = new AtomicLong(7_000_000_000L);

    @BeforeEach
    void forgetSpans() {
        CapturingTraceReporterFactory.SPANS.clear();
    }

    @Test
    void anEndedQueryReachesEveryConfiguredTraceReporterAsOneSpanWithItsPhases() {
        Configuration conf = new Configuration();
        conf.setString(
                "traces.reporter.capture.factory.class",
                CapturingTraceReporterFactory.class.getName());
        JobID job = new JobID();

        try (ClientMetricRegistry registry = ClientMetricRegistry.create(conf, FlinkLine.get())) {
            QueryRecord record = new QueryRecord(registry.metrics(), nanos::get, () -> EPOCH);
            record.describe("SELECT name FROM users WHERE id = 42", 0x5eL);
            advance(12);
            record.accepted(job);
            advance(30);
            record.statusSeen(JobStatus.RUNNING);
            advance(100);
            record.statusSeen(JobStatus.FINISHED);
            advance(5);
            record.requestSent();
            record.finish(true);
        }

        assertThat(CapturingTraceReporterFactory.SPANS).hasSize(1);
        Span span = CapturingTraceReporterFactory.SPANS.get(0);
        assertThat(span.getName()).isEqualTo(QueryTimeline.SPAN_NAME);
        assertThat(span.getScope())
                .isEqualTo(QueryTimeline.class.getCanonicalName())
                .isEqualTo(QuerySpan.SCOPE);
        assertThat(span.getStartTsMillis()).isEqualTo(EPOCH);
        assertThat(span.getEndTsMillis()).isEqualTo(EPOCH + 147);
        Map<String, Object> attributes = span.getAttributes();
        assertThat(attributes)
                .containsEntry("statement", "SELECT name FROM users WHERE id = ?")
                .containsEntry(
                        "statementId",
                        StatementText.fingerprint("SELECT name FROM users WHERE id = ?"))
                .containsEntry("jobId", job.toHexString())
                .containsEntry("outcome", "SUCCEEDED")
                .containsEntry("e2eMs", 147L)
                .containsEntry("submitMs", 12L)
                .containsEntry("jobStartWaitMs", 30L)
                .containsEntry("clusterRunMs", 100L)
                .containsEntry("resultFetchMs", 5L)
                .containsEntry("acceptedTs", EPOCH + 12)
                .containsEntry("runningTs", EPOCH + 42)
                .containsEntry("terminalTs", EPOCH + 142)
                .containsEntry("requests", 1L)
                .doesNotContainKey("admissionWaitMs")
                .doesNotContainKey(QuerySpan.LITERALS_KEPT);
        assertThat(attributes.values().toString()).doesNotContain("42 ");
        // Flink 2.2+ (this test's Flink) takes child spans: the phases, adding up to the query
        assertThat(SpanChildren.supported()).isTrue();
        assertThat(span.getChildren())
                .extracting(Span::getName)
                .containsExactly("submit", "jobStartWait", "clusterRun", "resultFetch");
        assertThat(span.getChildren())
                .extracting(c -> c.getEndTsMillis() - c.getStartTsMillis())
                .containsExactly(12L, 30L, 100L, 5L);
    }

    @Test
    void keepingLiteralsReportsTheCollapsedJobNameMarkedLiteralsKept() {
        ClientMetrics metrics = new ClientMetrics();
        TestingMetricGroupForSpans group = new TestingMetricGroupForSpans();
        metrics.registerOn(group);
        String jobName = "SELECT name  FROM users -- who\nWHERE id = 42 AND mail = 'a@b.c'";
        String kept = "SELECT name FROM users WHERE id = 42 AND mail = 'a@b.c'";
        assertThat(StatementText.collapse(jobName)).isEqualTo(kept);

        QueryRecord record = new QueryRecord(metrics, nanos::get, () -> EPOCH);
        record.describe(jobName, 0x5eL, true);
        advance(3);
        record.finish(true);

        assertThat(group.spans).hasSize(1);
        assertThat(group.spans.get(0).build().getAttributes())
                .containsEntry(QuerySpan.STATEMENT, kept)
                .containsEntry(QuerySpan.STATEMENT_ID, StatementText.fingerprint(kept))
                .containsEntry(QuerySpan.LITERALS_KEPT, "true");
    }

    @Test
    void withoutKeepingLiteralsTheSpanIsNormalizedAndNotMarked() {
        ClientMetrics metrics = new ClientMetrics();
        TestingMetricGroupForSpans group = new TestingMetricGroupForSpans();
        metrics.registerOn(group);

        QueryRecord record = new QueryRecord(metrics, nanos::get, () -> EPOCH);
        record.describe("SELECT name FROM users WHERE mail = 'a@b.c'", 0x5eL, false);
        record.finish(true);

        assertThat(group.spans.get(0).build().getAttributes())
                .containsEntry(QuerySpan.STATEMENT, "SELECT name FROM users WHERE mail = ?")
                .doesNotContainKey(QuerySpan.LITERALS_KEPT);
    }

    @Test
    void aCanceledQueryIsReportedAsCanceledAndAQueryWithoutSqlByItsShape() {
        ClientMetrics metrics = new ClientMetrics();
        TestingMetricGroupForSpans group = new TestingMetricGroupForSpans();
        metrics.registerOn(group);

        QueryRecord record = new QueryRecord(metrics, nanos::get, () -> EPOCH);
        record.describe("collect", 0xabcL);
        advance(3);
        record.finish(QueryTimeline.Outcome.CANCELED);

        assertThat(group.spans).hasSize(1);
        Map<String, Object> attributes = group.spans.get(0).build().getAttributes();
        assertThat(attributes)
                .containsEntry("outcome", "CANCELED")
                .containsEntry("statement", "job of shape abc")
                .doesNotContainKey("jobId")
                .doesNotContainKey("submitMs");
        assertThat(metrics.queriesFailed.getCount()).isEqualTo(1);
    }

    @Test
    void aFailingTraceReporterNeverReachesTheQuery() {
        ClientMetrics metrics = new ClientMetrics();
        TestingMetricGroupForSpans group = new TestingMetricGroupForSpans();
        group.failWith = new IllegalStateException("reporter down");
        metrics.registerOn(group);

        QueryRecord record = new QueryRecord(metrics, nanos::get, () -> EPOCH);

        assertThat(record.finish(true)).isTrue();
        assertThat(metrics.queriesSucceeded.getCount()).isEqualTo(1);
    }

    private void advance(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
