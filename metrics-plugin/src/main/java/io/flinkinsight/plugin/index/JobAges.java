package io.flinkinsight.plugin.index;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The age of every job with metrics in this process, for {@link JobSeriesRule}: one {@link JobAge}
 * per job id, made with the job's first metric and dropped with its last. Guarded by the index's
 * lock; O(1) per metric added or removed.
 *
 * <p>A job whose series were already shown when its last metric here went is remembered a while
 * ({@link #RETIRED_CAPACITY} such jobs, the oldest forgotten first): a streaming job that fails
 * over has all its tasks on a TaskManager cancelled and deployed again, and its series must not
 * then vanish for another minimum age. A job never shown (a short query) is forgotten at once.
 */
final class JobAges {

    /** Flink's variable of the job id, carried by every job, task and operator group. */
    static final String JOB_ID = "<job_id>";

    /**
     * Jobs shown and now without metrics here that are remembered; a few hundred bytes each. More
     * than the streaming jobs that fail over in a process at once.
     */
    static final int RETIRED_CAPACITY = 256;

    private final JobSeriesRule rule;
    private final Map<String, JobAge> live = new HashMap<>();
    private final LinkedHashMap<String, JobAge> retired =
            new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, JobAge> eldest) {
                    return size() > RETIRED_CAPACITY;
                }
            };

    JobAges(JobSeriesRule rule) {
        this.rule = rule;
    }

    /**
     * Counts a metric of a group with these variables; returns its job's age, or null for a metric
     * of no job (or when the rule shows every series, so nothing is tracked).
     */
    JobAge added(Map<String, String> variables) {
        String jobId = jobId(variables);
        if (jobId == null) {
            return null;
        }
        JobAge age = live.get(jobId);
        if (age == null) {
            age = retired.remove(jobId);
            if (age == null) {
                age = new JobAge(jobId, rule.now());
            }
            live.put(jobId, age);
        }
        age.metrics++;
        return age;
    }

    /** Uncounts a metric {@link #added} counted, of a group with these variables. */
    void removed(Map<String, String> variables) {
        String jobId = jobId(variables);
        JobAge age = jobId == null ? null : live.get(jobId);
        if (age == null || --age.metrics > 0) {
            return;
        }
        live.remove(jobId);
        if (rule.shown(age)) {
            retired.put(jobId, age);
        }
    }

    /** Jobs with metrics here now. */
    int liveJobs() {
        return live.size();
    }

    /** Jobs without metrics here now whose age is remembered. */
    int retiredJobs() {
        return retired.size();
    }

    private String jobId(Map<String, String> variables) {
        return rule.showsAll() ? null : variables.get(JOB_ID);
    }
}
