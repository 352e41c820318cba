package io.flinkinsight.common;

import java.util.ArrayList;
import java.util.List;

/**
 * A query's phases as the interactive client saw them, one after the other from its start to its
 * end, so they add up to its end-to-end time: admissionWait (until it got its place), submit (until
 * the JobManager accepted its job), jobStartWait (until the client saw the job run), clusterRun
 * (until the job ended) and resultFetch (until the last rows were handed back). Declared once for
 * the client's child spans and the plugin's timelines.
 */
public final class QueryPhases {

    /** An instant the query did not reach. */
    public static final long NOT_REACHED = -1;

    public static final String ADMISSION_WAIT = "admissionWait";
    public static final String SUBMIT = "submit";
    public static final String JOB_START_WAIT = "jobStartWait";
    public static final String CLUSTER_RUN = "clusterRun";
    public static final String RESULT_FETCH = "resultFetch";

    private static final String[] ENDED_BY = {ADMISSION_WAIT, SUBMIT, JOB_START_WAIT, CLUSTER_RUN};

    /** One phase, in epoch milliseconds. */
    public record Phase(String name, long start, long end) {}

    private QueryPhases() {}

    /**
     * The phases of a query from {@code start} to {@code end}: each of the first four ends at its
     * instant ({@link #NOT_REACHED} when the query did not reach it, or an instant out of order:
     * its time then goes to the next phase reached); after the last instant reached, the rest is
     * the phase that did not end (resultFetch after the job's end).
     */
    public static List<Phase> of(
            long start, long admitted, long accepted, long running, long terminal, long end) {
        long[] ends = {admitted, accepted, running, terminal};
        List<Phase> phases = new ArrayList<>(5);
        long from = start;
        int next = 0;
        for (int i = 0; i < ends.length; i++) {
            if (ends[i] != NOT_REACHED && ends[i] >= from && ends[i] <= end) {
                phases.add(new Phase(ENDED_BY[i], from, ends[i]));
                from = ends[i];
                next = i + 1;
            }
        }
        phases.add(new Phase(next < ENDED_BY.length ? ENDED_BY[next] : RESULT_FETCH, from, end));
        return phases;
    }
}
