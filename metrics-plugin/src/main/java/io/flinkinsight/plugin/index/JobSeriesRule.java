package io.flinkinsight.plugin.index;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Which jobs' series {@code /metrics} shows ({@code scrape.job-series.min-age}): a metric whose
 * variables carry a job id (a job, task or operator metric) only once its job has been registered
 * in this process for at least the minimum age; every other metric always. A short query's job (a
 * few hundred milliseconds to seconds) never shows, so the scrapes that catch one make no new
 * series in Prometheus; a streaming job's series show once it is older than that.
 *
 * <p>A scrape asks once for {@link #shownUpTo()} and then tests each metric with {@link #shows}:
 * two field reads and a comparison, no allocation, no lock. A minimum age of 0 shows every series,
 * as Flink's PrometheusReporter does, and the index then tracks no job at all.
 */
public final class JobSeriesRule {

    /** Every series at once, as Flink's PrometheusReporter. */
    public static final JobSeriesRule SHOW_ALL = new JobSeriesRule(Duration.ZERO, System::nanoTime);

    private final long minAgeNanos;
    private final LongSupplier nanoClock;

    /**
     * @param minAge how long a job must have been registered in this process before its series show
     * @param nanoClock {@link System#nanoTime} but in tests
     */
    public JobSeriesRule(Duration minAge, LongSupplier nanoClock) {
        if (minAge.isNegative()) {
            throw new IllegalArgumentException("the minimum age must not be negative: " + minAge);
        }
        this.minAgeNanos = minAge.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Whether every series shows at once (a minimum age of 0). */
    public boolean showsAll() {
        return minAgeNanos == 0;
    }

    /** Now, on this rule's clock: the instant a job registered now is first registered at. */
    long now() {
        return nanoClock.getAsLong();
    }

    /**
     * The latest first registration whose job's series a scrape shows now: this moment less the
     * minimum age.
     */
    public long shownUpTo() {
        return nanoClock.getAsLong() - minAgeNanos;
    }

    /** Whether a scrape whose {@link #shownUpTo()} is {@code shownUpTo} shows {@code metric}. */
    public static boolean shows(RegisteredMetric metric, long shownUpTo) {
        JobAge job = metric.job();
        // A difference of nano times, not a comparison: nanoTime may wrap.
        return job == null || job.firstRegisteredNanos() - shownUpTo <= 0;
    }

    /** Whether {@code job}'s series show now. */
    boolean shown(JobAge job) {
        return job.firstRegisteredNanos() - shownUpTo() <= 0;
    }

    @Override
    public String toString() {
        return showsAll() ? "every job's series at once" : "jobs older than " + minAgeNanos + " ns";
    }
}
