package io.flinkinsight.client.metrics;

import io.flinkinsight.common.QueryPhases;
import io.flinkinsight.common.QuerySpan;
import io.flinkinsight.common.StatementText;

import org.apache.flink.traces.Span;
import org.apache.flink.traces.SpanBuilder;

import javax.annotation.Nullable;

import java.util.List;

/**
 * One query as the client saw it, reported as one span through Flink's trace reporters when it
 * ends: its statement (normalized, see {@link StatementText}, unless {@code literalsKept}), its
 * job, how it ended and when each phase began, in epoch milliseconds ({@link #NOT_REACHED} for a
 * phase the query never reached).
 *
 * <p>The span ({@value #SPAN_NAME}, scope {@code io.flinkinsight.client.metrics.QueryTimeline})
 * carries the phases twice: as durations ({@code admissionWaitMs}, {@code submitMs}, {@code
 * jobStartWaitMs}, {@code clusterRunMs}, {@code resultFetchMs}; the same parts as the query
 * histograms) for a tracing backend's search, and as instants ({@code admittedTs}, {@code
 * acceptedTs}, {@code runningTs}, {@code terminalTs}) for a timeline.
 *
 * @param literalsKept whether the statement keeps its literals as written ({@code
 *     execution.interactive.statements.keep-literals}); the span then says so in {@code
 *     literalsKept} ({@code "true"})
 */
public record QueryTimeline(
        String statement,
        String statementId,
        @Nullable String jobId,
        Outcome outcome,
        long startMillis,
        long endMillis,
        long admittedMillis,
        long acceptedMillis,
        long runningMillis,
        long terminalMillis,
        long requests,
        long collectRetries,
        boolean literalsKept) {

    /** The span's name ({@link QuerySpan#NAME}). */
    public static final String SPAN_NAME = QuerySpan.NAME;

    /** An instant of a phase the query did not reach. */
    public static final long NOT_REACHED = QueryPhases.NOT_REACHED;

    /** How a query ended. */
    public enum Outcome {
        SUCCEEDED,
        FAILED,
        CANCELED
    }

    /**
     * The statement of a job named {@code jobName}, with literals replaced; a job without SQL in
     * its name (Flink's fallback name {@code collect}) is named by its shape.
     */
    public static String statementOf(String jobName, long shape) {
        return statementOf(jobName, shape, false);
    }

    /**
     * As {@link #statementOf(String, long)}, the literals kept as written ({@link
     * StatementText#collapse}) when {@code keepLiterals}.
     */
    public static String statementOf(String jobName, long shape, boolean keepLiterals) {
        String text =
                keepLiterals ? StatementText.collapse(jobName) : StatementText.normalize(jobName);
        return text.isEmpty() || text.equals("collect")
                ? "job of shape " + Long.toHexString(shape)
                : text;
    }

    /** The span of this query, for {@code MetricGroup.addSpan}. */
    public SpanBuilder toSpan() {
        SpanBuilder span =
                Span.builder(QueryTimeline.class, SPAN_NAME)
                        .setStartTsMillis(startMillis)
                        .setEndTsMillis(endMillis)
                        .setAttribute(QuerySpan.STATEMENT, statement)
                        .setAttribute(QuerySpan.STATEMENT_ID, statementId)
                        .setAttribute(QuerySpan.OUTCOME, outcome.name())
                        .setAttribute(QuerySpan.E2E_MS, endMillis - startMillis)
                        .setAttribute(QuerySpan.REQUESTS, requests)
                        .setAttribute(QuerySpan.COLLECT_RETRIES, collectRetries);
        if (jobId != null) {
            span.setAttribute(QuerySpan.JOB_ID, jobId);
        }
        if (literalsKept) {
            // a string: Flink 1.20 and 2.0 spans have no boolean attributes
            span.setAttribute(QuerySpan.LITERALS_KEPT, "true");
        }
        instant(span, QuerySpan.ADMITTED_TS, admittedMillis);
        instant(span, QuerySpan.ACCEPTED_TS, acceptedMillis);
        instant(span, QuerySpan.RUNNING_TS, runningMillis);
        instant(span, QuerySpan.TERMINAL_TS, terminalMillis);
        part(span, QuerySpan.ADMISSION_WAIT_MS, startMillis, admittedMillis);
        part(span, QuerySpan.SUBMIT_MS, startMillis, acceptedMillis);
        part(span, QuerySpan.JOB_START_WAIT_MS, acceptedMillis, runningMillis);
        part(
                span,
                QuerySpan.CLUSTER_RUN_MS,
                runningMillis != NOT_REACHED ? runningMillis : acceptedMillis,
                terminalMillis);
        part(span, QuerySpan.RESULT_FETCH_MS, terminalMillis, endMillis);
        if (SpanChildren.supported()) {
            for (QueryPhases.Phase phase : phases()) {
                boolean added =
                        SpanChildren.add(
                                span,
                                Span.builder(QueryTimeline.class, phase.name())
                                        .setStartTsMillis(phase.start())
                                        .setEndTsMillis(phase.end()));
                if (!added) {
                    break;
                }
            }
        }
        return span;
    }

    /** The query's phases, one after the other from its start to its end. */
    public List<QueryPhases.Phase> phases() {
        return QueryPhases.of(
                startMillis,
                admittedMillis,
                acceptedMillis,
                runningMillis,
                terminalMillis,
                endMillis);
    }

    /** What the query spans carry on this Flink, for the client's log line at start. */
    public static String describeSpans() {
        return SpanChildren.describe();
    }

    private static void instant(SpanBuilder span, String name, long millis) {
        if (millis != NOT_REACHED) {
            span.setAttribute(name, millis);
        }
    }

    private static void part(SpanBuilder span, String name, long fromMillis, long toMillis) {
        if (fromMillis != NOT_REACHED && toMillis != NOT_REACHED) {
            span.setAttribute(name, Math.max(0, toMillis - fromMillis));
        }
    }
}
