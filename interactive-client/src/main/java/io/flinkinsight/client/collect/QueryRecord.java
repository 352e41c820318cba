package io.flinkinsight.client.collect;

import io.flinkinsight.client.admission.QueryAdmission;
import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.metrics.QueryTimeline;
import io.flinkinsight.client.metrics.QueryTimeline.Outcome;
import io.flinkinsight.common.StatementText;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;

import javax.annotation.Nullable;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The client-side timeline of one query, recorded into the query metrics exactly once.
 *
 * <p>End-to-end latency starts when the executor's {@code execute()} is entered, i.e. after the SQL
 * Gateway (or any client) has parsed, validated and planned the statement and built the job, and
 * ends when the query's job client has delivered its last result: the collect fetcher saw the job
 * terminated and fetched the final results (its call of {@code getJobExecutionResult()} completed),
 * or the query failed or was cancelled through its job client. The parts: submit = {@code
 * execute()} entered to job accepted by the JobManager; jobStartWait = accepted to the job first
 * seen RUNNING; clusterRun = seen RUNNING to first seen terminal, or accepted to first seen
 * terminal for a job never seen running (a short query's job is often first seen ended: its polls
 * show the end, and no status request asks whether it runs); resultFetch = seen terminal to last
 * result delivered; admissionWait, within submit and for queries only, = {@code execute()} entered
 * to a place under the cap on queries in flight ({@link QueryAdmission}). Parts a query did not
 * reach are not recorded. Queries whose job client nobody asks about the end (e.g. a detached
 * INSERT) count as submitted only. The REST requests sent to the JobManager for the query
 * (submission, status, results, end) are counted as they go and recorded with the query's end. The
 * whole timeline is then reported as one span ({@link QueryTimeline}).
 */
public final class QueryRecord {

    private static final long UNSET = -1;

    /** The statement of a query that failed before its job was built. */
    static final String NOT_BUILT = "statement not known (failed before its job was built)";

    private final ClientMetrics metrics;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final long startEpochMillis;
    private final AtomicLong admittedNanos = new AtomicLong(UNSET);
    private final AtomicLong acceptedNanos = new AtomicLong(UNSET);
    private final AtomicLong runningNanos = new AtomicLong(UNSET);
    private final AtomicLong terminalNanos = new AtomicLong(UNSET);
    private final AtomicLong collectRetries = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong jobRunMillis = new AtomicLong(UNSET);
    private volatile LongConsumer jobRunListener = millis -> {};
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile QueryAdmission.Place place = QueryAdmission.NONE;
    private volatile String statement = NOT_BUILT;
    private volatile boolean literalsKept;
    @Nullable private volatile JobID jobId;

    /** Starts the record now and counts the query as submitted. */
    public QueryRecord(ClientMetrics metrics, LongSupplier nanoClock) {
        this(metrics, nanoClock, System::currentTimeMillis);
    }

    /** As above, with the wall clock that dates the query's span. */
    public QueryRecord(ClientMetrics metrics, LongSupplier nanoClock, LongSupplier epochMillis) {
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.startEpochMillis = epochMillis.getAsLong();
        metrics.queriesSubmitted.inc();
    }

    /**
     * The query's job is named {@code jobName} and has the shape {@code shape}: its statement, as
     * its span reports it ({@link QueryTimeline#statementOf}).
     */
    public void describe(String jobName, long shape) {
        describe(jobName, shape, false);
    }

    /**
     * As {@link #describe(String, long)}, the statement's literals kept as written when {@code
     * keepLiterals} ({@code execution.interactive.statements.keep-literals}).
     */
    public void describe(String jobName, long shape, boolean keepLiterals) {
        try {
            this.statement = QueryTimeline.statementOf(jobName, shape, keepLiterals);
        } catch (RuntimeException e) {
            // a figure's text must not fail the query: the job's shape names it instead
            this.statement = QueryTimeline.statementOf("", shape);
        }
        this.literalsKept = keepLiterals;
    }

    /**
     * The query got its place under the cap on queries in flight; it gives it back when the record
     * ends.
     */
    public void admitted(QueryAdmission.Place place) {
        long now = nanoClock.getAsLong();
        admittedNanos.compareAndSet(UNSET, now);
        metrics.admissionWaitMs.update(millis(now - startNanos));
        this.place = place;
        if (finished.get()) {
            place.release();
        }
    }

    /** One REST request to the JobManager was sent for this query. */
    public void requestSent() {
        requests.incrementAndGet();
        metrics.queryRequests.inc();
    }

    /**
     * A request counted by {@link #requestSent} never left: no pooled connection was free for it.
     */
    public void requestNotSent() {
        requests.decrementAndGet();
        metrics.queryRequests.dec();
    }

    public long requests() {
        return requests.get();
    }

    /**
     * Told, for a query that succeeded, how long its job ran on the cluster (ms, the JobManager's
     * net runtime).
     */
    public void onJobRun(LongConsumer listener) {
        this.jobRunListener = listener;
    }

    /**
     * The job's result came: it ran this long on the cluster (ms, as the JobManager measured it).
     */
    public void jobRan(long netRuntimeMillis) {
        jobRunMillis.compareAndSet(UNSET, netRuntimeMillis);
    }

    /** The JobManager accepted the job. */
    public void accepted() {
        acceptedNanos.compareAndSet(UNSET, nanoClock.getAsLong());
    }

    /** The JobManager accepted the job {@code jobId}. */
    public void accepted(JobID jobId) {
        this.jobId = jobId;
        accepted();
    }

    /** The client learnt the job's status. */
    public void statusSeen(JobStatus status) {
        if (status == JobStatus.RUNNING) {
            runningSeen();
        }
        if (status.isGloballyTerminalState()) {
            terminalNanos.compareAndSet(UNSET, nanoClock.getAsLong());
        }
    }

    /**
     * Results arrived, so the job runs (unless it had ended: the last results come with the end,
     * see finish).
     */
    public void runningSeen() {
        runningNanos.compareAndSet(UNSET, nanoClock.getAsLong());
    }

    /** A poll for results repeated the previous one, because that one came back empty or failed. */
    public void collectRetried() {
        collectRetries.incrementAndGet();
    }

    public long collectRetries() {
        return collectRetries.get();
    }

    public boolean isFinished() {
        return finished.get();
    }

    /** Ends the record and writes it into the metrics; returns false if it had already ended. */
    public boolean finish(boolean succeeded) {
        return finish(succeeded ? Outcome.SUCCEEDED : Outcome.FAILED);
    }

    /**
     * Ends the record as {@code outcome}, writes it into the metrics (a canceled query counts as
     * failed) and reports its span; returns false if it had already ended.
     */
    public boolean finish(Outcome outcome) {
        boolean succeeded = outcome == Outcome.SUCCEEDED;
        if (!finished.compareAndSet(false, true)) {
            return false;
        }
        place.release();
        long end = nanoClock.getAsLong();
        long accepted = acceptedNanos.get();
        long terminal = terminalNanos.get();
        long seenRunning = runningNanos.get();
        // RUNNING seen no sooner than the end (the last results, or a status answer racing the
        // end's) is not a
        // sighting of the job running
        long running = terminal != UNSET && seenRunning >= terminal ? UNSET : seenRunning;
        metrics.e2eLatencyMs.update(millis(end - startNanos));
        if (accepted != UNSET) {
            metrics.submitMs.update(millis(accepted - startNanos));
            if (running != UNSET) {
                metrics.jobStartWaitMs.update(millis(running - accepted));
            }
        }
        long runFrom = running != UNSET ? running : accepted;
        if (runFrom != UNSET && terminal != UNSET) {
            metrics.clusterRunMs.update(millis(terminal - runFrom));
        }
        if (terminal != UNSET) {
            metrics.resultFetchMs.update(millis(end - terminal));
        }
        metrics.retriesPerQuery.update(collectRetries.get());
        metrics.requestsPerQuery.update(requests.get());
        long ran = jobRunMillis.get();
        if (succeeded && ran != UNSET) {
            jobRunListener.accept(ran);
        }
        (succeeded ? metrics.queriesSucceeded : metrics.queriesFailed).inc();
        JobID job = jobId;
        metrics.queryEnded(
                new QueryTimeline(
                        statement,
                        StatementText.fingerprint(statement),
                        job == null ? null : job.toHexString(),
                        outcome,
                        startEpochMillis,
                        epochMillis(end),
                        epochMillis(admittedNanos.get()),
                        epochMillis(accepted),
                        epochMillis(running),
                        epochMillis(terminal),
                        requests.get(),
                        collectRetries.get(),
                        literalsKept));
        return true;
    }

    private long epochMillis(long nanos) {
        return nanos == UNSET
                ? QueryTimeline.NOT_REACHED
                : startEpochMillis + millis(nanos - startNanos);
    }

    private static long millis(long nanos) {
        return Math.max(0, (nanos + 500_000L) / 1_000_000L);
    }
}
