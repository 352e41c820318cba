package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.common.QuerySpan;
import io.flinkinsight.common.StatementText;
import io.flinkinsight.plugin.store.Attributes;

import org.apache.flink.traces.Span;

import javax.annotation.Nullable;

import java.util.Map;

/**
 * One query as the interactive client reported it in its {@code Query} span: its statement, how it
 * ended and how long its parts took, in milliseconds ({@code -1} for a part it did not reach).
 */
record QuerySample(
        String statementId,
        String statement,
        String outcome,
        long endMillis,
        long e2eMs,
        long admissionWaitMs,
        long submitMs,
        long jobStartWaitMs,
        long clusterRunMs,
        long resultFetchMs) {

    static final String SPAN_NAME = QuerySpan.NAME;

    static final String SPAN_SCOPE = QuerySpan.SCOPE;

    private static final long MAX_MILLIS = 366L * 24 * 3600 * 1000;

    /** The query of a client's span, or null when the span is not one or does not parse. */
    @Nullable
    static QuerySample fromSpan(Span span) {
        if (!SPAN_NAME.equals(span.getName()) || !SPAN_SCOPE.equals(span.getScope())) {
            return null;
        }
        Map<String, Object> attributes = span.getAttributes();
        if (attributes == null) {
            return null;
        }
        String text = Attributes.asString(attributes, QuerySpan.STATEMENT);
        String outcome = Attributes.asString(attributes, QuerySpan.OUTCOME);
        Long e2e = Attributes.asLong(attributes, QuerySpan.E2E_MS);
        if (text == null || e2e == null || e2e < 0) {
            return null;
        }
        // normalized by the client already; again here, so that whatever sent the span, no
        // literal and no unbounded text is kept, and the id is this text's
        String statement = StatementText.normalize(text);
        return new QuerySample(
                StatementText.fingerprint(statement),
                statement,
                "SUCCEEDED".equals(outcome) || "CANCELED".equals(outcome) ? outcome : "FAILED",
                span.getEndTsMillis(),
                millis(e2e),
                millis(Attributes.asLong(attributes, QuerySpan.ADMISSION_WAIT_MS)),
                millis(Attributes.asLong(attributes, QuerySpan.SUBMIT_MS)),
                millis(Attributes.asLong(attributes, QuerySpan.JOB_START_WAIT_MS)),
                millis(Attributes.asLong(attributes, QuerySpan.CLUSTER_RUN_MS)),
                millis(Attributes.asLong(attributes, QuerySpan.RESULT_FETCH_MS)));
    }

    private static long millis(@Nullable Long value) {
        return value == null || value < 0 ? -1 : Math.min(value, MAX_MILLIS);
    }
}
