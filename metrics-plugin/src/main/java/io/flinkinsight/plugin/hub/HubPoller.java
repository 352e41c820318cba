package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.JobOverviewReader.Overview;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobStore;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans each {@link HubRound} of the gathering from Flink's REST API into the stores (see {@link
 * HubSeries} for what is written): which jobs and TaskManagers are read within the round's budget
 * of {@value #MAX_REQUESTS_PER_POLL} requests; the readers of the REST areas ({@link
 * JobOverviewReader}, {@link TaskManagerReader}, {@link JobReader} with its {@link LatencyReader}
 * and {@link CheckpointReader}) do the reading. When a round's budget does not reach everything,
 * TaskManagers and jobs each take their turn in a {@link Rotation} kept across rounds: the
 * TaskManagers (one request each) are given half of what the two lists leave of the budget, the
 * jobs the rest, and what the jobs leave goes to more TaskManagers; so with {@code B} requests per
 * round every TaskManager is read within {@code ceil(TaskManagers / ((B - 2) / 2))} rounds, and at
 * least one job per round takes its turn. Runs on the hub's thread only.
 */
final class HubPoller {

    static final int MAX_REQUESTS_PER_POLL = 200;

    private final JobOverviewReader overview;
    private final TaskManagerReader taskManagers;
    private final JobReader jobs;
    private final SeriesStore series;
    private final Clock clock;

    /** Running jobs, and ended ones waiting for their last read, in turn. */
    private final Rotation jobTurns = new Rotation();

    private final Rotation taskManagerTurns = new Rotation();

    /**
     * @param flink what Flink reports by itself: REST fills in checkpoints when its {@code
     *     Checkpoint} spans lack phase detail, and job status times when it has no built-in job
     *     events
     */
    HubPoller(
            RestSource rest,
            SeriesStore series,
            JobStore jobs,
            CheckpointStore checkpoints,
            FlinkCapabilities flink,
            Clock clock) {
        this(
                new JobOverviewReader(rest, jobs, series),
                new TaskManagerReader(rest, series),
                new JobReader(rest, series, jobs, checkpoints, flink),
                series,
                clock);
    }

    HubPoller(
            JobOverviewReader overview,
            TaskManagerReader taskManagers,
            JobReader jobs,
            SeriesStore series,
            Clock clock) {
        this.overview = overview;
        this.taskManagers = taskManagers;
        this.jobs = jobs;
        this.series = series;
        this.clock = clock;
    }

    /**
     * Polls Flink's REST API in {@code round}, spending its request budget, and records the round's
     * outcome (its duration, requests and failures) beside what it gathered; the round keeps its
     * failures for the hub's log.
     */
    void poll(HubRound round) throws InterruptedException {
        long started = round.startedAt();
        try {
            Overview listed = overview.read(round, jobs::awaitsLastRead);
            List<String> tmsInTurn = taskManagerTurns.turnOrder(taskManagers.list(round), id -> id);
            Set<String> runningIds = new HashSet<>();
            listed.running().forEach(job -> runningIds.add(job.jobId()));
            jobs.retainRunning(runningIds);
            List<JobOverview> jobsInTurn = new ArrayList<>(listed.running());
            jobsInTurn.addAll(listed.ended());
            jobsInTurn = jobTurns.turnOrder(jobsInTurn, JobOverview::jobId);
            // One request per TaskManager, so half of what is left reaches them all within a
            // bounded number of
            // rounds, however many requests the jobs need; the jobs take the rest, and what they
            // leave goes to more
            // TaskManagers.
            int taskManagerShare =
                    jobsInTurn.isEmpty() ? round.remaining() : Math.max(1, round.remaining() / 2);
            int nextTaskManager = readTaskManagers(tmsInTurn, 0, taskManagerShare, round);
            for (JobOverview job : jobsInTurn) {
                if (round.remaining() == 0) {
                    break;
                }
                jobTurns.visited(job.jobId()); // its turn, also when the budget runs out within it
                if (runningIds.contains(job.jobId())) {
                    jobs.readRunning(job, round);
                } else {
                    jobs.readEnded(job, round);
                }
            }
            readTaskManagers(tmsInTurn, nextTaskManager, round.remaining(), round);
        } catch (BudgetSpent e) {
            // the rest waits for the next round
        }
        series.record(HubSeries.of(HubSeries.POLL_DURATION), started, clock.millis() - started);
        series.record(HubSeries.of(HubSeries.POLL_REQUESTS), started, round.requests());
        series.record(HubSeries.of(HubSeries.POLL_FAILURES), started, round.failures());
    }

    /**
     * Reads up to {@code count} TaskManagers of {@code inTurn} from index {@code from}, each then
     * going to the back of the line; returns the index after the last one read.
     */
    private int readTaskManagers(List<String> inTurn, int from, int count, HubRound round)
            throws InterruptedException, BudgetSpent {
        int i = from;
        for (int end = Math.min(inTurn.size(), from + count); i < end; i++) {
            taskManagerTurns.visited(inTurn.get(i));
            taskManagers.read(inTurn.get(i), round);
        }
        return i;
    }
}
