package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.hub.RestPayloads.JobOverview;
import io.flinkinsight.plugin.hub.RestPayloads.Vertex;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesStore;

import org.apache.flink.annotation.VisibleForTesting;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a vertex's latency-marker histograms from Flink's REST API into {@link HubSeries#LATENCY}:
 * the highest median and p99 over its sources and subtasks. Their ids come and go with the sources,
 * so they are listed ({@code /jobs/:jid/vertices/:vid/metrics}) in a vertex's first round and every
 * {@value #LATENCY_DISCOVERY_EVERY} rounds after, and remembered in between. Runs on the hub's
 * thread only.
 */
final class LatencyReader {

    static final int MAX_LATENCY_IDS_PER_VERTEX = 64;

    /**
     * Latency histograms come and go with sources; their ids are re-listed every this many rounds.
     */
    static final int LATENCY_DISCOVERY_EVERY = 6;

    /**
     * Vertices whose latency ids are remembered, the most recently polled kept (about 10 KB each at
     * most).
     */
    static final int MAX_LATENCY_VERTICES = 512;

    /** Flink's REST server refuses request lines over 4096 bytes; stay well below. */
    static final int MAX_QUERY_CHARS = 2_000;

    /**
     * Latency-marker histograms in a vertex's metric list (Flink 2.2 registers them on the task
     * group as {@code
     * latency[.source_id.<id>[.source_subtask_index.<n>]].operator_id.<id>.operator_subtask_index.<n>.latency};
     * the REST listing prefixes the subtask index and suffixes the statistic: {@code _median},
     * {@code _p99}, ...).
     */
    static final Pattern LATENCY_ID = Pattern.compile("\\d+\\.latency\\..+\\.latency_(median|p99)");

    private record LatencyIds(long discoveredInRound, List<String> ids) {}

    private final RestSource rest;
    private final SeriesStore series;

    /** Per {@code jobId/vertexId} of a running job, its latency ids; bounded in vertices. */
    private final Map<String, LatencyIds> latencyIds =
            BoundedCollections.recentlyUsedMap(MAX_LATENCY_VERTICES);

    LatencyReader(RestSource rest, SeriesStore series) {
        this.rest = rest;
        this.series = series;
    }

    /** Forgets the latency ids of the jobs no longer running. */
    void retainJobs(Set<String> runningJobIds) {
        latencyIds
                .keySet()
                .removeIf(key -> !runningJobIds.contains(key.substring(0, key.indexOf('/'))));
    }

    /** Records the latency of {@code v} of {@code job}, when it has latency histograms. */
    void read(JobOverview job, Vertex v, HubRound round) throws InterruptedException, BudgetSpent {
        String base = "/jobs/" + job.jobId() + "/vertices/" + v.id();
        String cacheKey = job.jobId() + "/" + v.id();
        LatencyIds known = latencyIds.get(cacheKey);
        if (known == null
                || round.roundsSince(known.discoveredInRound()) >= LATENCY_DISCOVERY_EVERY) {
            JsonNode list = round.get(rest, base + "/metrics");
            if (list == null) {
                return;
            }
            List<String> ids = new ArrayList<>();
            for (String id : RestPayloads.metricIds(list)) {
                if (ids.size() < MAX_LATENCY_IDS_PER_VERTEX && LATENCY_ID.matcher(id).matches()) {
                    ids.add(id);
                }
            }
            known = new LatencyIds(round.number(), ids);
            latencyIds.put(cacheKey, known);
        }
        if (known.ids().isEmpty()) {
            return;
        }
        Double median = null;
        Double p99 = null;
        for (String batch : batches(known.ids())) {
            JsonNode values = round.get(rest, base + "/metrics?get=" + batch);
            if (values == null) {
                continue;
            }
            for (Map.Entry<String, Double> e : RestPayloads.values(values).entrySet()) {
                double value = e.getValue();
                if (!Double.isFinite(value)) {
                    continue;
                }
                if (e.getKey().endsWith("_median")) {
                    median = median == null ? value : Math.max(median, value);
                } else {
                    p99 = p99 == null ? value : Math.max(p99, value);
                }
            }
        }
        long now = round.startedAt();
        if (median != null) {
            series.record(
                    HubSeries.latency(
                            job.jobId(),
                            job.name(),
                            v.id(),
                            v.name(),
                            RegisteredMetric.HISTORY_P50),
                    now,
                    median);
        }
        if (p99 != null) {
            series.record(
                    HubSeries.latency(
                            job.jobId(),
                            job.name(),
                            v.id(),
                            v.name(),
                            RegisteredMetric.HISTORY_P99),
                    now,
                    p99);
        }
    }

    /** Comma-joined ids, cut so no request line grows past {@link #MAX_QUERY_CHARS}. */
    @VisibleForTesting
    static List<String> batches(List<String> ids) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String id : ids) {
            if (current.length() > 0 && current.length() + 1 + id.length() > MAX_QUERY_CHARS) {
                out.add(current.toString());
                current.setLength(0);
            }
            if (current.length() > 0) {
                current.append(',');
            }
            current.append(id);
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }
}
