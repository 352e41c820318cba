package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.job.JobStore;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Reads the jobs overview from Flink's REST API ({@code /jobs/overview}) into the job store and
 * {@link HubSeries#CLUSTER_JOBS}, and tells the {@link HubPoller} which jobs to read in the round:
 * those running, and a few ended ones awaiting their last read. Runs on the hub's thread only.
 */
final class JobOverviewReader {

    static final int MAX_OVERVIEW_JOBS = 1_000;

    /**
     * Ended jobs waiting for a last read at a time, newest first; the rest wait for later rounds.
     */
    static final int MAX_ENDED_JOBS_PER_POLL = 8;

    private static final Set<String> ENDED = Set.of("FINISHED", "FAILED", "CANCELED");

    /**
     * The jobs of one overview: those running, newest first, and ended ones to read a last time.
     */
    record Overview(List<JobOverview> running, List<JobOverview> ended) {
        static final Overview NONE = new Overview(List.of(), List.of());
    }

    private final RestSource rest;
    private final JobStore jobs;
    private final SeriesStore series;

    JobOverviewReader(RestSource rest, JobStore jobs, SeriesStore series) {
        this.rest = rest;
        this.jobs = jobs;
        this.series = series;
    }

    /**
     * Reads the overview; none when the request failed.
     *
     * @param awaitsLastRead whether an ended job (by id) is still to be read a last time
     */
    Overview read(HubRound round, Predicate<String> awaitsLastRead)
            throws InterruptedException, BudgetSpent {
        JsonNode root = round.get(rest, "/jobs/overview");
        if (root == null) {
            return Overview.NONE;
        }
        List<JobOverview> all = new ArrayList<>(RestPayloads.jobsOverview(root));
        Set<String> listed = new HashSet<>();
        for (JobOverview job : all) {
            listed.add(job.jobId());
        }
        // Newest first, and no more than the job store keeps, so old jobs do not evict each other
        // every round.
        all.sort(Comparator.comparingLong(JobOverview::startTime).reversed());
        int keep = Math.min(MAX_OVERVIEW_JOBS, jobs.capacity());
        Map<String, Integer> perState = new TreeMap<>();
        List<JobOverview> running = new ArrayList<>();
        List<JobOverview> ended = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            JobOverview job = all.get(i);
            if (i < keep) {
                jobs.onRestOverview(
                        job.jobId(), job.name(), job.state(), job.startTime(), job.endTime());
            }
            if (job.state() != null) {
                perState.merge(job.state(), 1, Integer::sum);
            }
            if ("RUNNING".equals(job.state())) {
                if (running.size() < MAX_OVERVIEW_JOBS) {
                    running.add(job);
                }
            } else if (i < keep
                    && ENDED.contains(job.state())
                    && ended.size() < MAX_ENDED_JOBS_PER_POLL
                    && awaitsLastRead.test(job.jobId())) {
                ended.add(job);
            }
        }
        long now = round.startedAt();
        jobs.onRestJobsListed(listed, now);
        perState.forEach(
                (state, n) ->
                        series.record(
                                HubSeries.of(HubSeries.CLUSTER_JOBS, "state", state), now, n));
        return new Overview(running, ended);
    }
}
