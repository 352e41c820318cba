package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.HubRound.NotFound;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/**
 * Reads a job's finished checkpoints from Flink's REST API ({@code /jobs/:jid/checkpoints}) into
 * the checkpoint store, which keeps a span's figures over these: for a Flink whose {@code
 * Checkpoint} spans lack phase detail (before 2.2). The newest few checkpoints not read before are
 * read with their tasks ({@code .../details/:cid}), each once; a job REST answers 404 for does not
 * checkpoint and is not asked again. Runs on the hub's thread only.
 */
final class CheckpointReader {

    /**
     * Checkpoints per job and round whose task details are read ({@code
     * /checkpoints/details/:cid}).
     */
    static final int MAX_CHECKPOINT_DETAILS_PER_JOB = 4;

    /** Checkpoint ids per job remembered as read in full, so a history entry is read once. */
    static final int MAX_READ_CHECKPOINTS_PER_JOB = 64;

    /** Jobs whose read checkpoint ids are remembered, the most recently read kept. */
    static final int MAX_CHECKPOINT_READ_JOBS = 256;

    private final RestSource rest;
    private final CheckpointStore checkpoints;

    /**
     * Jobs whose checkpoints REST answered 404 for: they do not checkpoint; bounded like the
     * overview.
     */
    private final Set<String> notCheckpointing =
            BoundedCollections.newestSet(JobOverviewReader.MAX_OVERVIEW_JOBS);

    /** Per job, the checkpoint ids read in full from REST; bounded in jobs and ids. */
    private final Map<String, Set<Long>> checkpointsRead =
            BoundedCollections.recentlyUsedMap(MAX_CHECKPOINT_READ_JOBS);

    CheckpointReader(RestSource rest, CheckpointStore checkpoints) {
        this.rest = rest;
        this.checkpoints = checkpoints;
    }

    /**
     * Reads the job's checkpoints not read before; false when the request failed (to be tried
     * again).
     */
    boolean read(JobOverview job, HubRound round) throws InterruptedException, BudgetSpent {
        if (notCheckpointing.contains(job.jobId())) {
            return true;
        }
        String base = "/jobs/" + job.jobId() + "/checkpoints";
        JsonNode root = round.get(rest, base, NotFound.ANSWER);
        if (root == null) {
            return false;
        }
        if (root.isMissingNode()) {
            notCheckpointing.add(job.jobId()); // Flink: "Checkpointing was not enabled"
            return true;
        }
        Set<Long> read =
                checkpointsRead.computeIfAbsent(
                        job.jobId(),
                        id -> BoundedCollections.newestSet(MAX_READ_CHECKPOINTS_PER_JOB));
        int details = 0;
        for (CheckpointRecord c : RestPayloads.checkpointHistory(root, job.jobId(), job.name())) {
            if (read.contains(c.checkpointId())) {
                continue;
            }
            CheckpointRecord full = c;
            if (details < MAX_CHECKPOINT_DETAILS_PER_JOB) {
                details++;
                JsonNode d = round.get(rest, base + "/details/" + c.checkpointId());
                CheckpointRecord withTasks =
                        d == null ? null : RestPayloads.checkpoint(d, job.jobId(), job.name());
                if (withTasks != null && withTasks.checkpointId() == c.checkpointId()) {
                    full = withTasks;
                    read.add(c.checkpointId());
                }
            }
            checkpoints.addFromRest(full);
        }
        return true;
    }
}
