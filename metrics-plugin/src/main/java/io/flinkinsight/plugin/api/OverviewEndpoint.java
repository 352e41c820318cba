package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.durable.DurableStores;
import io.flinkinsight.plugin.durable.StoreRestorer;
import io.flinkinsight.plugin.exposition.OwnFigure;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/overview}: what this process is (its role, versions and what this Flink
 * gives), what it holds, drops and refuses (the plugin's own figures, as on {@code /metrics}), and
 * where the panel finds Flink.
 */
public final class OverviewEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/overview";

    /** The process as the overview tells it, read afresh for each request. */
    public record Facts(
            String role, // null until the process's role is known
            String flinkVersion,
            List<FlinkCapabilities.Capability> capabilities,
            String insightVersion,
            long startedAtMillis,
            long uptimeMs,
            long metricCount,
            long seriesCount,
            long rejectedMetrics,
            long scrapeErrors,
            long samplerErrors,
            List<OwnFigure> ownFigures,
            boolean keepsHistory,
            int port,
            long historyResolutionMs,
            long historyRetentionMs,
            String flinkWebUrl, // null unless this process runs the hub
            String flinkDashboardPath, // null unless it also proxies Flink's dashboard
            HubFacts hub, // null unless this process runs the hub
            DurableStores.Status storesDir) {} // null unless the hub writes its stores to a dir

    /**
     * The hub's leadership: whether this JobManager leads (and polls), and the leading JobManager's
     * REST URL (this one's when leading; null while unknown, e.g. on a standby whose Flink's HA
     * services could not be reached).
     */
    public record HubFacts(boolean leading, String leader) {}

    private final Supplier<Facts> facts;

    public OverviewEndpoint(Supplier<Facts> facts) {
        this.facts = facts;
    }

    @Override
    public Object handle(QueryParameters query) {
        return answer(facts.get());
    }

    /** The answer for {@code f}: one JSON object, its keys in this order. */
    public static Map<String, Object> answer(Facts f) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("role", f.role());
        o.put("flinkVersion", f.flinkVersion());
        o.put("javaVersion", Runtime.version().feature());
        o.put("capabilities", f.capabilities());
        o.put("insightVersion", f.insightVersion());
        o.put("startedAt", Instant.ofEpochMilli(f.startedAtMillis()).toString());
        o.put("uptimeMs", f.uptimeMs());
        o.put("metricCount", f.metricCount());
        o.put("seriesCount", f.seriesCount());
        o.put("rejectedMetrics", f.rejectedMetrics());
        o.put("scrapeErrors", f.scrapeErrors());
        o.put("samplerErrors", f.samplerErrors());
        for (OwnFigure figure : f.ownFigures()) {
            if (figure.labels().isEmpty()) {
                o.put(figure.name(), figure.value());
            } else {
                // One object per labelled family, keyed by its one label's value: {"not_found": 3,
                // ...}.
                @SuppressWarnings("unchecked")
                Map<String, Object> samples =
                        (Map<String, Object>)
                                o.computeIfAbsent(
                                        figure.name(), k -> new LinkedHashMap<String, Object>());
                samples.put(String.join(",", figure.labels().values()), figure.value());
            }
        }
        o.put("keepsHistory", f.keepsHistory());
        o.put("port", f.port());
        o.put("historyResolutionMs", f.historyResolutionMs());
        o.put("historyRetentionMs", f.historyRetentionMs());
        o.put("flinkWebUrl", f.flinkWebUrl());
        o.put("flinkDashboardPath", f.flinkDashboardPath());
        if (f.hub() == null) {
            o.put("hub", null);
        } else {
            Map<String, Object> hub = new LinkedHashMap<>();
            hub.put("leading", f.hub().leading());
            hub.put("leader", f.hub().leader());
            o.put("hub", hub);
        }
        o.put("storesDir", f.storesDir() == null ? null : storesDir(f.storesDir()));
        return o;
    }

    /**
     * Where the hub's stores are on disk, whether writes succeed, and up to when the history was
     * read back: the panel's gap starts there.
     */
    private static Map<String, Object> storesDir(DurableStores.Status s) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("dir", withoutUserInfo(s.dir()));
        o.put("writing", s.writing() && s.lastFailure() == null);
        o.put(
                "lastWriteAt",
                s.lastWriteMillis() > 0
                        ? Instant.ofEpochMilli(s.lastWriteMillis()).toString()
                        : null);
        o.put("lastFailure", s.lastFailure());
        o.put("bytesOnDisk", s.bytesOnDisk());
        StoreRestorer.Restored r = s.restored();
        if (r != null) {
            o.put("restoredFiles", r.files());
            o.put("restoredSeries", r.series());
            o.put("restoredSamples", r.samples());
            o.put("restoredJobs", r.jobs());
            o.put("restoredCheckpoints", r.checkpoints());
            o.put("restoredStatements", r.statements());
            o.put(
                    "restoredFrom",
                    r.oldestMillis() == Long.MIN_VALUE
                            ? null
                            : Instant.ofEpochMilli(r.oldestMillis()).toString());
            o.put(
                    "restoredUntil",
                    r.newestMillis() == Long.MIN_VALUE
                            ? null
                            : Instant.ofEpochMilli(r.newestMillis()).toString());
        }
        return o;
    }

    /**
     * {@code url} without a {@code user:password@} part, which an answer must not show; null stays
     * null. Cut at the authority's last '@', whatever the URL parser makes of the host (a host name
     * with '_' leaves it registry-based, without user info).
     */
    public static String withoutUserInfo(String url) {
        if (url == null) {
            return null;
        }
        int schemeEnd = url.indexOf("://");
        if (schemeEnd < 0) {
            return url.indexOf('@') < 0 ? url : null;
        }
        int authorityStart = schemeEnd + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        int at = url.lastIndexOf('@', authorityEnd - 1);
        return at < authorityStart ? url : url.substring(0, authorityStart) + url.substring(at + 1);
    }
}
