package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.Attributes;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.job.LastCheckpoint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/jobs?status=RUNNING,FINISHED&limit=&job=}: jobs newest first with status
 * transitions, cluster-side latency (created to terminal, or so far) and the last checkpoint.
 * {@code job=<32 hex>} narrows the answer to that one job (an empty list when it is not known).
 */
public final class JobsEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/jobs";

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 10_000;

    private static final Pattern STATUS_LIST = Pattern.compile("[A-Za-z_]+(,[A-Za-z_]+)*");

    private final JobStore jobs;
    private final CheckpointStore checkpoints;

    public JobsEndpoint(JobStore jobs, CheckpointStore checkpoints) {
        this.jobs = jobs;
        this.checkpoints = checkpoints;
    }

    public record Response(int total, int matched, List<JobRecord> jobs) {}

    @Override
    public List<String> narrowedBy() {
        return List.of("job (one job)", "status (e.g. RUNNING)", "limit (fewer jobs)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        Optional<String> statusParam = query.get("status");
        Set<String> statuses = null;
        if (statusParam.isPresent()) {
            String s = statusParam.get().trim();
            if (!STATUS_LIST.matcher(s).matches()) {
                throw new BadRequestException(
                        "parameter 'status' must be job status names separated by commas");
            }
            statuses = new HashSet<>(Arrays.asList(s.toUpperCase(Locale.ROOT).split(",")));
        }
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        String onlyJob = jobParameter(query);
        List<JobRecord> all = jobs.newestFirst();
        List<JobRecord> out = new ArrayList<>();
        int matched = 0;
        for (JobRecord job : all) {
            if (onlyJob != null && !onlyJob.equals(job.jobId())) {
                continue;
            }
            if (statuses != null && (job.status() == null || !statuses.contains(job.status()))) {
                continue;
            }
            matched++;
            if (out.size() < limit) {
                CheckpointRecord last = checkpoints.latest(job.jobId());
                out.add(
                        last == null
                                ? job
                                : job.withLastCheckpoint(
                                        new LastCheckpoint(
                                                last.checkpointId(),
                                                last.status(),
                                                last.type(),
                                                last.endTime(),
                                                last.durationMs(),
                                                last.checkpointedSize(),
                                                last.fullSize())));
            }
        }
        return new Response(all.size(), matched, out);
    }

    /** The job id asked for, lower case, or null when the parameter is absent. */
    private static String jobParameter(QueryParameters query) throws BadRequestException {
        Optional<String> job = query.get("job");
        if (job.isEmpty()) {
            return null;
        }
        String id = job.get().trim();
        if (!Attributes.isJobId(id)) {
            throw new BadRequestException("parameter 'job' must be a job id of 32 hex characters");
        }
        return id.toLowerCase(Locale.ROOT);
    }
}
