package io.flinkinsight.plugin.api;

import io.flinkinsight.common.QueryPhases;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobTransition;
import io.flinkinsight.plugin.store.statement.QuerySample;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One query as {@code /api/v1/queries} answers it: its statement, job and outcome, its instants and
 * parts as the client reported them, and its timeline: the client's phases, which add up to its
 * end-to-end time, and the JobManager's phases of its job when this process knows the job (the hub,
 * from Flink's job events or REST API), null otherwise.
 *
 * @param seq the query's number in this process's log (in a feed answer), null otherwise
 * @param literalsKept whether the statement keeps its literals as written ({@code
 *     statements.keep-literals} here and in the client that ran it); a hub reading this log keeps
 *     them only then
 * @param source where it ran: empty for this process, else the gateway the hub read it from
 * @param partsMs the parts the client reported, as on {@code /api/v1/statements}
 * @param jobStatus the job's last status as the JobManager reported it, null when not known
 */
public record QueryView(
        @Nullable Long seq,
        String statementId,
        String statement,
        boolean literalsKept,
        String source,
        @Nullable String jobId,
        String outcome,
        long start,
        long end,
        long e2eMs,
        @Nullable Long admittedAt,
        @Nullable Long acceptedAt,
        @Nullable Long runningAt,
        @Nullable Long terminalAt,
        Map<String, Long> partsMs,
        long requests,
        long collectRetries,
        List<QueryPhase> phases,
        @Nullable String jobStatus) {

    /** {@code query} numbered {@code seq} (or null), joined with its job's record (or null). */
    static QueryView of(@Nullable Long seq, QuerySample query, @Nullable JobRecord job) {
        Map<String, Long> parts = new LinkedHashMap<>();
        part(parts, "admissionWait", query.admissionWaitMs());
        part(parts, "submit", query.submitMs());
        part(parts, "jobStartWait", query.jobStartWaitMs());
        part(parts, "clusterRun", query.clusterRunMs());
        part(parts, "resultFetch", query.resultFetchMs());
        List<QueryPhase> phases = clientPhases(query);
        if (job != null) {
            phases.addAll(clusterPhases(job));
        }
        return new QueryView(
                seq,
                query.statementId(),
                query.statement(),
                query.literalsKept(),
                query.source(),
                query.jobId(),
                query.outcome(),
                query.startMillis(),
                query.endMillis(),
                query.e2eMs(),
                instant(query.admittedMillis()),
                instant(query.acceptedMillis()),
                instant(query.runningMillis()),
                instant(query.terminalMillis()),
                parts,
                query.requests(),
                query.collectRetries(),
                List.copyOf(phases),
                job == null ? null : job.status());
    }

    /** The client's phases from the query's start to its end ({@link QueryPhases#of}). */
    static List<QueryPhase> clientPhases(QuerySample query) {
        List<QueryPhase> phases = new ArrayList<>(5);
        for (QueryPhases.Phase p :
                QueryPhases.of(
                        query.startMillis(),
                        query.admittedMillis(),
                        query.acceptedMillis(),
                        query.runningMillis(),
                        query.terminalMillis(),
                        query.endMillis())) {
            phases.add(new QueryPhase(QueryPhase.CLIENT, p.name(), p.start(), p.end()));
        }
        return phases;
    }

    /** The JobManager's phases of {@code job}, as far as it reported them. */
    static List<QueryPhase> clusterPhases(JobRecord job) {
        Long running = null;
        for (JobTransition t : job.transitions()) {
            if ("RUNNING".equals(t.status())) {
                running = t.timestamp();
                break;
            }
        }
        Long allRunning = job.allSubtasksRunningAt();
        List<QueryPhase> phases = new ArrayList<>(3);
        cluster(phases, "scheduling", job.createdAt(), running);
        cluster(phases, "deploying", running, allRunning);
        cluster(phases, "running", allRunning != null ? allRunning : running, job.endedAt());
        return phases;
    }

    private static void cluster(List<QueryPhase> phases, String name, Long from, Long to) {
        if (from != null && to != null && to >= from) {
            phases.add(new QueryPhase(QueryPhase.CLUSTER, name, from, to));
        }
    }

    private static void part(Map<String, Long> parts, String name, long millis) {
        if (millis != QuerySample.NOT_REACHED) {
            parts.put(name, millis);
        }
    }

    @Nullable
    private static Long instant(long millis) {
        return millis == QuerySample.NOT_REACHED ? null : millis;
    }
}
