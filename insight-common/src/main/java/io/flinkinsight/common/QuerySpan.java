package io.flinkinsight.common;

/**
 * The interactive client's span of one query, declared once for the client that reports it and the
 * plugin that keeps it: its name, its scope and the names of its attributes. Durations are in
 * milliseconds, instants in epoch milliseconds.
 */
public final class QuerySpan {

    /** The span's name, as Flink names its own spans (Checkpoint, JobInitialization). */
    public static final String NAME = "Query";

    /** The span's scope: the canonical name of the client's class that builds it. */
    public static final String SCOPE = "io.flinkinsight.client.metrics.QueryTimeline";

    public static final String STATEMENT = "statement";
    public static final String STATEMENT_ID = "statementId";

    /**
     * {@code "true"} when the client kept the statement's literals ({@code
     * execution.interactive.statements.keep-literals}); absent when it replaced them. A string, as
     * Flink 1.20 and 2.0 spans have no boolean attributes.
     */
    public static final String LITERALS_KEPT = "literalsKept";

    public static final String JOB_ID = "jobId";
    public static final String OUTCOME = "outcome";
    public static final String E2E_MS = "e2eMs";
    public static final String REQUESTS = "requests";
    public static final String COLLECT_RETRIES = "collectRetries";
    public static final String ADMITTED_TS = "admittedTs";
    public static final String ACCEPTED_TS = "acceptedTs";
    public static final String RUNNING_TS = "runningTs";
    public static final String TERMINAL_TS = "terminalTs";
    public static final String ADMISSION_WAIT_MS = "admissionWaitMs";
    public static final String SUBMIT_MS = "submitMs";
    public static final String JOB_START_WAIT_MS = "jobStartWaitMs";
    public static final String CLUSTER_RUN_MS = "clusterRunMs";
    public static final String RESULT_FETCH_MS = "resultFetchMs";

    private QuerySpan() {}
}
