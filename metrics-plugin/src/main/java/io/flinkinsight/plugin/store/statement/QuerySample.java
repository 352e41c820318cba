package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.common.QueryPhases;
import io.flinkinsight.common.QuerySpan;
import io.flinkinsight.common.StatementText;
import io.flinkinsight.plugin.store.Attributes;
import io.flinkinsight.plugin.store.HeapSizes;

import org.apache.flink.traces.Span;

import javax.annotation.Nullable;

import java.util.Map;

/**
 * One query as the interactive client reported it in its {@code Query} span, or as the hub read it
 * from a gateway's feed: its statement, job, how it ended, the instants of its phases in epoch
 * milliseconds and how long its parts took in milliseconds ({@value #NOT_REACHED} for an instant or
 * a part it did not reach).
 *
 * @param source where the query ran: empty for this process, else the gateway the hub read it from
 * @param literalsKept whether the statement keeps its literals as written (both the sender and this
 *     process's {@code statements.keep-literals} said so), else they are replaced
 */
public record QuerySample(
        String statementId,
        String statement,
        String source,
        @Nullable String jobId,
        String outcome,
        long startMillis,
        long endMillis,
        long e2eMs,
        long admittedMillis,
        long acceptedMillis,
        long runningMillis,
        long terminalMillis,
        long admissionWaitMs,
        long submitMs,
        long jobStartWaitMs,
        long clusterRunMs,
        long resultFetchMs,
        long requests,
        long collectRetries,
        boolean literalsKept) {

    static final String SPAN_NAME = QuerySpan.NAME;

    static final String SPAN_SCOPE = QuerySpan.SCOPE;

    /** An instant or part the query did not reach. */
    public static final long NOT_REACHED = QueryPhases.NOT_REACHED;

    /** A year: any longer time is a clock's or a sender's error, and is cut to it. */
    static final long MAX_MILLIS = 366L * 24 * 3600 * 1000;

    /** The longest source label kept. */
    static final int MAX_SOURCE_CHARS = 128;

    /**
     * The query of a client's span, or null when the span is not one or does not parse; its
     * statement normalized.
     */
    @Nullable
    static QuerySample fromSpan(Span span) {
        return fromSpan(span, false);
    }

    /**
     * As {@link #fromSpan(Span)}, the statement's literals kept when {@code keepLiterals} (this
     * process's {@code statements.keep-literals}) and the span says the client kept them ({@code
     * literalsKept}).
     */
    @Nullable
    static QuerySample fromSpan(Span span, boolean keepLiterals) {
        if (!SPAN_NAME.equals(span.getName()) || !SPAN_SCOPE.equals(span.getScope())) {
            return null;
        }
        Map<String, Object> attributes = span.getAttributes();
        if (attributes == null) {
            return null;
        }
        return of(
                Attributes.asString(attributes, QuerySpan.STATEMENT),
                "",
                Attributes.jobId(attributes),
                Attributes.asString(attributes, QuerySpan.OUTCOME),
                span.getStartTsMillis(),
                span.getEndTsMillis(),
                Attributes.asLong(attributes, QuerySpan.E2E_MS),
                Attributes.asLong(attributes, QuerySpan.ADMITTED_TS),
                Attributes.asLong(attributes, QuerySpan.ACCEPTED_TS),
                Attributes.asLong(attributes, QuerySpan.RUNNING_TS),
                Attributes.asLong(attributes, QuerySpan.TERMINAL_TS),
                Attributes.asLong(attributes, QuerySpan.ADMISSION_WAIT_MS),
                Attributes.asLong(attributes, QuerySpan.SUBMIT_MS),
                Attributes.asLong(attributes, QuerySpan.JOB_START_WAIT_MS),
                Attributes.asLong(attributes, QuerySpan.CLUSTER_RUN_MS),
                Attributes.asLong(attributes, QuerySpan.RESULT_FETCH_MS),
                Attributes.asLong(attributes, QuerySpan.REQUESTS),
                Attributes.asLong(attributes, QuerySpan.COLLECT_RETRIES),
                keepLiterals
                        && Boolean.TRUE.equals(
                                Attributes.asBoolean(attributes, QuerySpan.LITERALS_KEPT)));
    }

    /**
     * A query from values whoever sent them: null without a statement or with a negative or missing
     * end-to-end time. The text is normalized again (whatever sent it, no literal and no unbounded
     * text is kept, and the id is this text's) unless {@code keepLiterals} (this process's {@code
     * statements.keep-literals} and the sender's word that it kept them): then it keeps its
     * literals as written ({@link StatementText#collapse}). The outcome is one of SUCCEEDED,
     * FAILED, CANCELED, an instant outside the query's start and end is dropped, and times are cut
     * to a year.
     */
    @Nullable
    public static QuerySample of(
            @Nullable String text,
            String source,
            @Nullable String jobId,
            @Nullable String outcome,
            long startMillis,
            long endMillis,
            @Nullable Long e2eMs,
            @Nullable Long admitted,
            @Nullable Long accepted,
            @Nullable Long running,
            @Nullable Long terminal,
            @Nullable Long admissionWaitMs,
            @Nullable Long submitMs,
            @Nullable Long jobStartWaitMs,
            @Nullable Long clusterRunMs,
            @Nullable Long resultFetchMs,
            @Nullable Long requests,
            @Nullable Long collectRetries,
            boolean keepLiterals) {
        long took = endMillis - startMillis; // negative also when it overflows
        if (text == null || e2eMs == null || e2eMs < 0 || took < 0) {
            return null;
        }
        // the query's time is its end less its start, whatever the sender says it was, and no
        // part is longer
        long e2e = Math.min(took, MAX_MILLIS);
        String statement =
                keepLiterals ? StatementText.collapse(text) : StatementText.normalize(text);
        return new QuerySample(
                StatementText.fingerprint(statement),
                statement,
                label(source),
                jobId != null && Attributes.isJobId(jobId) ? jobId : null,
                "SUCCEEDED".equals(outcome) || "CANCELED".equals(outcome) ? outcome : "FAILED",
                startMillis,
                endMillis,
                e2e,
                instant(admitted, startMillis, endMillis),
                instant(accepted, startMillis, endMillis),
                instant(running, startMillis, endMillis),
                instant(terminal, startMillis, endMillis),
                part(admissionWaitMs, e2e),
                part(submitMs, e2e),
                part(jobStartWaitMs, e2e),
                part(clusterRunMs, e2e),
                part(resultFetchMs, e2e),
                Math.max(0, requests == null ? 0 : requests),
                Math.max(0, collectRetries == null ? 0 : collectRetries),
                keepLiterals);
    }

    /** This query, its statement's text the given (equal) instance, so kept queries share it. */
    QuerySample sharing(String sameStatement) {
        return new QuerySample(
                statementId,
                sameStatement,
                source,
                jobId,
                outcome,
                startMillis,
                endMillis,
                e2eMs,
                admittedMillis,
                acceptedMillis,
                runningMillis,
                terminalMillis,
                admissionWaitMs,
                submitMs,
                jobStartWaitMs,
                clusterRunMs,
                resultFetchMs,
                requests,
                collectRetries,
                literalsKept);
    }

    /** Heap bytes, estimated, of this query less its statement's text (shared with its row). */
    long estimatedBytesWithoutText() {
        return HeapSizes.object(5 * HeapSizes.REFERENCE + 14 * 8)
                + HeapSizes.string(source)
                + (jobId == null ? 0 : HeapSizes.string(jobId));
    }

    /** The source as a short label of printable characters. */
    private static String label(String source) {
        String label = StatementText.collapse(source);
        return label.length() > MAX_SOURCE_CHARS ? label.substring(0, MAX_SOURCE_CHARS) : label;
    }

    private static long part(@Nullable Long value, long e2e) {
        long millis = millis(value);
        return millis == NOT_REACHED ? NOT_REACHED : Math.min(millis, e2e);
    }

    private static long millis(@Nullable Long value) {
        return value == null || value < 0 ? NOT_REACHED : Math.min(value, MAX_MILLIS);
    }

    private static long instant(@Nullable Long value, long startMillis, long endMillis) {
        return value == null || value < startMillis || value > endMillis ? NOT_REACHED : value;
    }
}
