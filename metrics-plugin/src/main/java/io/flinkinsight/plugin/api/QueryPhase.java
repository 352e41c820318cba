package io.flinkinsight.plugin.api;

/**
 * One phase of a query's timeline, in epoch milliseconds.
 *
 * @param side {@code client} (as the gateway's interactive client saw it; the client's phases
 *     follow each other from the query's start to its end) or {@code cluster} (as the JobManager
 *     reported the query's job, on the JobManager's clock)
 * @param name client: admissionWait, submit, jobStartWait, clusterRun, resultFetch; cluster:
 *     scheduling (job created until RUNNING), deploying (RUNNING until all subtasks run), running
 *     (until the job ended)
 */
public record QueryPhase(String side, String name, long start, long end) {

    public static final String CLIENT = "client";
    public static final String CLUSTER = "cluster";
}
