package io.flinkinsight.plugin.index;

/**
 * When a job was first registered in this process: the instant of its first metric here, shared by
 * every metric of the job (see {@link JobSeriesRule}).
 */
public final class JobAge {

    private final String jobId;
    private final long firstRegisteredNanos;

    /** The job's metrics registered here now; guarded by the index's lock. */
    int metrics;

    JobAge(String jobId, long firstRegisteredNanos) {
        this.jobId = jobId;
        this.firstRegisteredNanos = firstRegisteredNanos;
    }

    public String jobId() {
        return jobId;
    }

    /** The instant of the job's first metric in this process, on the rule's nano clock. */
    public long firstRegisteredNanos() {
        return firstRegisteredNanos;
    }

    @Override
    public String toString() {
        return jobId + " (first registered at " + firstRegisteredNanos + " ns)";
    }
}
