package io.flinkinsight.plugin.store.statement;

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

    /** The client's span: {@code io.flinkinsight.client.metrics.QueryTimeline}, {@code Query}. */
    static final String SPAN_NAME = "Query";

    static final String SPAN_SCOPE = "io.flinkinsight.client.metrics.QueryTimeline";

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
        String text = Attributes.asString(attributes, "statement");
        String outcome = Attributes.asString(attributes, "outcome");
        Long e2e = Attributes.asLong(attributes, "e2eMs");
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
                millis(Attributes.asLong(attributes, "admissionWaitMs")),
                millis(Attributes.asLong(attributes, "submitMs")),
                millis(Attributes.asLong(attributes, "jobStartWaitMs")),
                millis(Attributes.asLong(attributes, "clusterRunMs")),
                millis(Attributes.asLong(attributes, "resultFetchMs")));
    }

    private static long millis(@Nullable Long value) {
        return value == null || value < 0 ? -1 : Math.min(value, MAX_MILLIS);
    }
}
