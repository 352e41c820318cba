package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.Attributes;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobStore;

import java.time.Clock;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /api/v1/checkpoints?job=<32 hex>&limit=&from=&tasks=}: per job (all jobs when absent,
 * most recently active first) its checkpoints newest first, with phase figures and per-task details
 * named by vertex when known. {@code from} (epoch ms, {@code now} or relative like {@code -15m})
 * keeps checkpoints triggered at or after it; per-task (and per-subtask) details, the bulk of the
 * answer, come for one job unless {@code tasks=false}, and for the list of all jobs only with
 * {@code tasks=true}.
 */
public final class CheckpointsEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/checkpoints";

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1_000;

    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final Clock clock;

    public CheckpointsEndpoint(CheckpointStore checkpoints, JobStore jobs, Clock clock) {
        this.checkpoints = checkpoints;
        this.jobs = jobs;
        this.clock = clock;
    }

    public record Response(List<JobCheckpoints> jobs) {}

    public record JobCheckpoints(
            String jobId, String jobName, List<CheckpointRecord> checkpoints) {}

    @Override
    public List<String> narrowedBy() {
        return List.of(
                "job (one job)",
                "from (a later start, e.g. -15m)",
                "limit (fewer checkpoints per job)",
                "tasks=false (no per-task details)");
    }

    @Override
    public Response handle(QueryParameters query) throws BadRequestException {
        Optional<String> job = query.get("job");
        int limit = (int) query.getLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        long from = TimeParameters.instant(query, "from", clock.millis(), Long.MIN_VALUE);
        // Per-task details are the bulk of an answer: a list of every job leaves them out unless
        // asked.
        boolean withTasks = query.getBoolean("tasks", job.isPresent());
        List<String> jobIds;
        if (job.isPresent()) {
            if (!Attributes.isJobId(job.get().trim())) {
                throw new BadRequestException(
                        "parameter 'job' must be a job id of 32 hex characters");
            }
            jobIds = List.of(job.get().trim().toLowerCase(Locale.ROOT));
        } else {
            jobIds = checkpoints.jobIds();
            Collections.reverse(jobIds);
        }
        List<JobCheckpoints> out = new ArrayList<>();
        for (String jobId : jobIds) {
            List<CheckpointRecord> list = checkpoints.newestFirst(jobId, limit, from);
            if (list.isEmpty() && job.isEmpty()) {
                continue;
            }
            // The copies (with vertex names, or without tasks) are made as the answer is written,
            // one at a time, so
            // an answer stopped at http.max-answer-bytes never made the rest.
            List<CheckpointRecord> named =
                    new AbstractList<>() {
                        @Override
                        public CheckpointRecord get(int i) {
                            CheckpointRecord r = list.get(i);
                            return withTasks
                                    ? r.withVertexNames(
                                            vertexId -> jobs.vertexName(jobId, vertexId))
                                    : r.withoutTasks();
                        }

                        @Override
                        public int size() {
                            return list.size();
                        }
                    };
            String jobName = null;
            for (CheckpointRecord r : list) {
                if (r.jobName() != null) {
                    jobName = r.jobName();
                    break;
                }
            }
            if (jobName == null) {
                var record = jobs.get(jobId);
                jobName = record == null ? null : record.jobName();
            }
            out.add(new JobCheckpoints(jobId, jobName, named));
        }
        return new Response(out);
    }
}
