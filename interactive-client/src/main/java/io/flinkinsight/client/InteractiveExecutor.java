package io.flinkinsight.client;

import io.flinkinsight.client.admission.QueryAdmission;
import io.flinkinsight.client.collect.CollectLongPoll;
import io.flinkinsight.client.collect.InstrumentedJobClient;
import io.flinkinsight.client.collect.PooledJobClient;
import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.client.collect.RecentJobRuns;
import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.config.JobHandOver;
import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.client.pool.ClusterClientPool;
import io.flinkinsight.client.pool.ClusterIdentity;
import io.flinkinsight.client.transport.ServerErrors;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.RemoteExecutorFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.core.execution.CacheSupportedPipelineExecutor;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobInitializationException;
import org.apache.flink.runtime.jobgraph.IntermediateDataSetID;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.util.AbstractID;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.SerializedThrowable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs a pipeline on a session cluster like Flink's {@code AbstractSessionClusterExecutor}, but on
 * the pooled client of that cluster, waiting for the job's initialization without blocking a thread
 * (only for jobs that do not collect results: a query learns of a failed initialization from its
 * results), and returning an {@link InstrumentedJobClient}. A query (a job that collects results)
 * first takes a place under the cap on queries in flight ({@link QueryAdmission}) and may be handed
 * over only once its first results are in ({@link JobHandOver}). Holds no state: Flink creates an
 * executor per query.
 */
public final class InteractiveExecutor implements CacheSupportedPipelineExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(InteractiveExecutor.class);

    /** Waits between status polls while the job initializes: 5 ms, doubling, at most this. */
    private static final long MAX_INITIALIZATION_POLL_MILLIS = 200;

    private final FlinkLine line;

    /**
     * @param line this jar's Flink line, looked up once by the factory Flink loads
     */
    InteractiveExecutor(FlinkLine line) {
        this.line = line;
    }

    /**
     * Runs the pipeline on the pooled client; if this Flink unexpectedly cannot link a call of the
     * interactive client (version differences are probed up front, see {@link FlinkLine}) before
     * the job was submitted, runs it with Flink's own session executor instead, which the log says
     * once.
     */
    @Override
    public CompletableFuture<JobClient> execute(
            Pipeline pipeline, Configuration configuration, ClassLoader userCodeClassloader)
            throws Exception {
        if (!line.runsOnThisFlink()) {
            FlinkClientFallback.wrongJarOnce(line);
            return flinkExecutor(pipeline, configuration, userCodeClassloader);
        }
        try {
            return executePooled(pipeline, configuration, userCodeClassloader);
        } catch (Exception | LinkageError e) {
            Optional<LinkageError> linkage = ExceptionUtils.findThrowable(e, LinkageError.class);
            if (linkage.isEmpty()) {
                throw e;
            }
            FlinkClientFallback.warnOnce(linkage.get());
            return flinkExecutor(pipeline, configuration, userCodeClassloader);
        }
    }

    /** Flink's own session executor (target remote), as if the query had not asked for this one. */
    private static CompletableFuture<JobClient> flinkExecutor(
            Pipeline pipeline, Configuration configuration, ClassLoader userCodeClassloader)
            throws Exception {
        return new RemoteExecutorFactory()
                .getExecutor(configuration)
                .execute(pipeline, configuration, userCodeClassloader);
    }

    private CompletableFuture<JobClient> executePooled(
            Pipeline pipeline, Configuration configuration, ClassLoader userCodeClassloader)
            throws Exception {
        // Options are checked before the runtime exists, so a bad value never leaves half-built
        // state behind.
        InteractiveClientSettings settings =
                InteractiveClientSettings.fromConfiguration(configuration);
        InteractiveClientRuntime runtime =
                InteractiveClientRuntime.get(configuration, settings, line);
        QueryRecord record = new QueryRecord(runtime.metrics(), System::nanoTime);
        try {
            return submit(runtime, pipeline, configuration, userCodeClassloader, settings, record);
        } catch (Throwable t) {
            // a query that failed before its job was submitted still ends in the figures and gives
            // back its
            // admission place, whatever failed; the failure goes to Flink as it was
            record.finish(false);
            throw t;
        }
    }

    /**
     * What the Dispatcher answers a second submission of a job (or, since 2.3, of its application)
     * it has.
     */
    private static final List<String> DUPLICATE_SUBMISSION =
            List.of("DuplicateJobSubmissionException", "DuplicateApplicationSubmissionException");

    /**
     * Whether a submission failed only because the cluster already has the job: the submission is
     * retried when its connection fails (a JobManager lost during failover), and the first attempt
     * may have reached the leader, which stored the job in its HA store before it went away; the
     * new leader recovers the job and refuses the retry. The job is then the query's own (its id
     * was made for this submission) and runs: the query reads its results.
     */
    static boolean acceptedByAnEarlierAttempt(Throwable failure) {
        return ServerErrors.mentionsAny(failure, DUPLICATE_SUBMISSION)
                || ExceptionUtils.findThrowable(
                                failure,
                                t -> DUPLICATE_SUBMISSION.contains(t.getClass().getSimpleName()))
                        .isPresent();
    }

    private CompletableFuture<JobClient> submit(
            InteractiveClientRuntime runtime,
            Pipeline pipeline,
            Configuration configuration,
            ClassLoader userCodeClassloader,
            InteractiveClientSettings settings,
            QueryRecord record)
            throws Exception {
        FlinkApi.PreparedJob prepared =
                line.prepare(pipeline, configuration, userCodeClassloader, runtime.background());
        record.describe(prepared.jobName(), prepared.shape(), settings.keepLiterals());
        ClusterIdentity cluster = ClusterIdentity.of(configuration, settings);
        ClusterClientPool pool = runtime.pool();

        String collectSinkUid = prepared.collectSinkKey();
        boolean collectsResults = collectSinkUid != null;
        // only queries take a place under the cap (and so only they have an admission wait)
        QueryAdmission.Place place =
                collectsResults
                        ? runtime.admission().enter(cluster, settings.admission())
                        : QueryAdmission.NONE;
        if (collectsResults) {
            record.admitted(place);
        }
        long fastUntilNanos = System.nanoTime() + settings.fastStart().toNanos();
        BooleanSupplier fastPolls =
                () -> place.othersInFlight() == 0 && System.nanoTime() - fastUntilNanos < 0;
        long shape = prepared.shape();
        if (collectsResults) {
            record.onJobRun(millis -> runtime.recentJobRuns().add(shape, millis));
        }
        ClusterClientPool.Lease lease = pool.lease(cluster);
        CompletableFuture<JobID> submitted;
        try {
            record.requestSent();
            boolean ownJobId =
                    configuration
                            .getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID)
                            .isEmpty();
            submitted =
                    prepared.submit(lease.client())
                            .exceptionallyCompose(
                                    failure -> {
                                        JobID jobId = prepared.jobId();
                                        return ownJobId
                                                        && jobId != null
                                                        && acceptedByAnEarlierAttempt(failure)
                                                ? CompletableFuture.completedFuture(jobId)
                                                : CompletableFuture.failedFuture(failure);
                                    });
        } catch (Throwable t) {
            // the lease goes back, whatever failed, before the failure goes to Flink
            lease.failed(t);
            lease.close();
            throw t;
        }
        CompletableFuture<JobID> initialized =
                submitted.thenCompose(
                        jobId -> {
                            record.accepted(jobId);
                            if (collectsResults) {
                                // A query: its caller reads results next, and a failed
                                // initialization reaches it there as the job's
                                // failure. Not waiting lets the SQL Gateway answer sooner; its JDBC
                                // clients poll it every 100 ms.
                                return CompletableFuture.completedFuture(jobId);
                            }
                            CompletableFuture<JobID> done = new CompletableFuture<>();
                            awaitInitialization(
                                    runtime, lease, jobId, userCodeClassloader, record, 0, done);
                            return done;
                        });
        return lease.track(initialized)
                .thenCompose(
                        jobId -> {
                            RecentJobRuns.PollTimes pollTimes =
                                    runtime.recentJobRuns().pollTimes(shape);
                            InstrumentedJobClient jobClient =
                                    line.newJobClient(
                                            new PooledJobClient(
                                                    pool,
                                                    cluster,
                                                    jobId,
                                                    userCodeClassloader,
                                                    line),
                                            record,
                                            job ->
                                                    new CollectLongPoll(
                                                            job,
                                                            settings.collectStrategy(),
                                                            runtime.scheduler(),
                                                            runtime.metrics(),
                                                            record,
                                                            System::nanoTime,
                                                            CollectLongPoll.BUDGET,
                                                            fastPolls,
                                                            pollTimes));
                            if (collectSinkUid != null) {
                                // a query's job was accepted just now; another job's client was
                                // told its status above
                                jobClient.accepted();
                            }
                            if (collectSinkUid != null
                                    && settings.jobHandOver()
                                            .awaitsResults(place.othersInFlight())) {
                                return jobClient
                                        .prefetchFirstResults(collectSinkUid)
                                        .thenApply(ignored -> jobClient);
                            }
                            return CompletableFuture.completedFuture(jobClient);
                        })
                .thenApply(jobClient -> (JobClient) jobClient)
                .whenComplete(
                        (jobClient, failure) -> {
                            if (failure == null) {
                                prepared.submitted();
                            } else {
                                record.finish(false);
                                LOG.error("Failed to submit job to the session cluster.", failure);
                            }
                        });
    }

    /**
     * Polls the job status until it is past INITIALIZING, like Flink's {@code
     * ClientUtils.waitUntilJobInitializationFinished}, but with short waits on the shared scheduler
     * instead of sleeping on the common pool: 5 ms, doubling, at most {@value
     * #MAX_INITIALIZATION_POLL_MILLIS} ms.
     */
    private static void awaitInitialization(
            InteractiveClientRuntime runtime,
            ClusterClientPool.Lease lease,
            JobID jobId,
            ClassLoader userCodeClassloader,
            QueryRecord record,
            int attempt,
            CompletableFuture<JobID> done) {
        record.requestSent();
        CompletableFuture<JobStatus> statusRequest;
        try {
            statusRequest = lease.client().getJobStatus(jobId);
        } catch (Throwable t) {
            // a request that fails at once fails the submission like any other, rather than leaving
            // it waiting
            statusRequest = CompletableFuture.failedFuture(t);
        }
        statusRequest.whenComplete(
                (status, failure) -> {
                    if (failure != null) {
                        lease.failed(failure);
                        done.completeExceptionally(
                                new RuntimeException(
                                        "Error while waiting for job to be initialized", failure));
                        return;
                    }
                    record.statusSeen(status);
                    if (status == JobStatus.INITIALIZING) {
                        long delay =
                                Math.min(
                                        MAX_INITIALIZATION_POLL_MILLIS,
                                        5L << Math.min(attempt, 10));
                        try {
                            runtime.scheduler()
                                    .schedule(
                                            () ->
                                                    awaitInitialization(
                                                            runtime,
                                                            lease,
                                                            jobId,
                                                            userCodeClassloader,
                                                            record,
                                                            attempt + 1,
                                                            done),
                                            delay,
                                            TimeUnit.MILLISECONDS);
                        } catch (Throwable t) {
                            // e.g. shutting down: the submission fails rather than waiting for ever
                            done.completeExceptionally(t);
                        }
                    } else if (status == JobStatus.FAILED) {
                        record.requestSent();
                        lease.client()
                                .requestJobResult(jobId)
                                .whenComplete(
                                        (result, resultFailure) -> {
                                            Throwable initFailure =
                                                    resultFailure == null
                                                            ? initializationFailure(
                                                                    result, userCodeClassloader)
                                                            : null;
                                            if (initFailure != null) {
                                                done.completeExceptionally(
                                                        new CompletionException(initFailure));
                                            } else {
                                                done.complete(jobId);
                                            }
                                        });
                    } else {
                        done.complete(jobId);
                    }
                });
    }

    private static Throwable initializationFailure(
            JobResult result, ClassLoader userCodeClassloader) {
        Optional<SerializedThrowable> serialized = result.getSerializedThrowable();
        if (serialized.isEmpty()) {
            return null;
        }
        Throwable t = serialized.get().deserializeError(userCodeClassloader);
        return t instanceof JobInitializationException ? t : null;
    }

    @Override
    public CompletableFuture<Set<AbstractID>> listCompletedClusterDatasetIds(
            Configuration configuration, ClassLoader userCodeClassloader) {
        InteractiveClientSettings settings =
                InteractiveClientSettings.fromConfiguration(configuration);
        return InteractiveClientRuntime.get(configuration, settings, line)
                .pool()
                .call(
                        ClusterIdentity.of(configuration, settings),
                        client -> client.listCompletedClusterDatasetIds());
    }

    @Override
    public CompletableFuture<Void> invalidateClusterDataset(
            AbstractID clusterDatasetId,
            Configuration configuration,
            ClassLoader userCodeClassloader) {
        InteractiveClientSettings settings =
                InteractiveClientSettings.fromConfiguration(configuration);
        return InteractiveClientRuntime.get(configuration, settings, line)
                .pool()
                .call(
                        ClusterIdentity.of(configuration, settings),
                        client ->
                                client.invalidateClusterDataset(
                                                new IntermediateDataSetID(clusterDatasetId))
                                        .thenApply(ignored -> null));
    }
}
