package io.flinkinsight.harness.bench;

/**
 * One measured run of the chained-maps job.
 *
 * @param taskMillis how long the job's single (fully chained) task ran: the time the records took
 * @param jobMillis the job's duration as Flink reports it, scheduling included
 * @param scraped whether a scraper fetched {@code /metrics} at 1 Hz during the run
 * @param scrapes successful {@code /metrics} scrapes during the run (0 without the plugin)
 * @param loadAverage the machine's 1-minute load average when the run ended (negative if unknown):
 *     on a shared machine it tells a slow run from a noisy neighbour
 */
record BenchRun(
        int round,
        boolean withPlugin,
        boolean scraped,
        long records,
        long taskMillis,
        long jobMillis,
        long scrapes,
        long scrapeFailures,
        double loadAverage) {

    /** Records per second of task time. */
    double throughput() {
        return records * 1000.0 / taskMillis;
    }

    String condition() {
        return conditionName(withPlugin, scraped);
    }

    static String conditionName(boolean withPlugin, boolean scraped) {
        return !withPlugin
                ? "without plugin"
                : scraped ? "with plugin + 1 Hz scrape" : "with plugin, no scrape";
    }
}
