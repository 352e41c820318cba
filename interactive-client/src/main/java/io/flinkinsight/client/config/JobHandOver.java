package io.flinkinsight.client.config;

/**
 * When the executor hands a query's job to its caller. The SQL Gateway tells its clients a
 * statement is ready at that moment, and Flink's JDBC driver then fetches results in a tight loop,
 * one REST call after another, until rows come; before that moment it sleeps 100 ms between polls.
 * On a busy machine the tight loops of many queries take CPU from the jobs themselves, so there a
 * query is better handed over once its first results are in. The values of {@link
 * InteractiveClientOptions#JOB_HAND_OVER}.
 */
public enum JobHandOver {
    /** Once the JobManager accepted the job: the lowest latency for a query that runs alone. */
    SUBMITTED,
    /**
     * Once the first results are in, the job has ended, or one long poll's budget (1 s) is spent.
     */
    RESULTS,
    /**
     * {@link #RESULTS} while other queries of this process run on the same cluster, else {@link
     * #SUBMITTED}.
     */
    AUTO;

    /**
     * Whether a query waits for its first results, given how many other queries run on its cluster.
     */
    public boolean awaitsResults(int othersInFlight) {
        return this == RESULTS || (this == AUTO && othersInFlight > 0);
    }
}
