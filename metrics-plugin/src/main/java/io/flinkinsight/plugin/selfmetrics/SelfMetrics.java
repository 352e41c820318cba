package io.flinkinsight.plugin.selfmetrics;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.durable.DurableStores;
import io.flinkinsight.plugin.exposition.OwnFigure;
import io.flinkinsight.plugin.http.RefusalReason;
import io.flinkinsight.plugin.scrape.ScrapeFigures;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The plugin's figures about itself ({@code flink_insight_*}): what it holds, drops and refuses, on
 * {@code /metrics} and in the overview, for operators to alert on. Each figure is declared here
 * once, with its help text.
 */
public final class SelfMetrics {

    private final InsightStores stores;
    private final Supplier<ScrapeFigures> scrapes;
    private final Supplier<Map<RefusalReason, Long>> refusals;
    private final Supplier<HubFigures> hub;
    private final Supplier<DurableStores.Status> storesDir;

    /**
     * @param scrapes what the scrapes cost, or null while no server runs
     * @param refusals the requests the server did not serve by reason, or null while no server runs
     * @param hub the hub's figures, or null when this process runs no hub
     * @param storesDir the hub's stores on disk, or null when they are in memory only
     */
    public SelfMetrics(
            InsightStores stores,
            Supplier<ScrapeFigures> scrapes,
            Supplier<Map<RefusalReason, Long>> refusals,
            Supplier<HubFigures> hub,
            Supplier<DurableStores.Status> storesDir) {
        this.stores = stores;
        this.scrapes = scrapes;
        this.refusals = refusals;
        this.hub = hub;
        this.storesDir = storesDir;
    }

    /**
     * The figures as they are now; every refusal reason is listed, zeros included, for alerts on
     * their rate.
     */
    public List<OwnFigure> figures() {
        List<OwnFigure> figures = new ArrayList<>(storeFigures());
        figures.addAll(scrapeFigures(scrapes.get()));
        figures.add(
                new OwnFigure(
                        "flink_insight_internal_failures_total",
                        "Calls from Flink and runs of the plugin's own threads that failed inside the plugin and"
                                + " were logged (each kind at most once a minute, JVM errors every time).",
                        true,
                        FlinkBoundary.failuresInProcess()));
        Map<RefusalReason, Long> refused = refusals.get();
        for (RefusalReason reason : RefusalReason.values()) {
            figures.add(
                    new OwnFigure(
                            "flink_insight_requests_refused_total",
                            "Requests this process's HTTP server did not serve (and connections it closed at once), by"
                                    + " reason; Flink's own answers through the dashboard proxy are not counted.",
                            true,
                            refused == null ? 0L : refused.getOrDefault(reason, 0L),
                            Map.of("reason", reason.label())));
        }
        HubFigures h = hub.get();
        if (h != null) {
            figures.addAll(hubFigures(h));
        }
        DurableStores.Status dir = storesDir.get();
        if (dir != null) {
            figures.addAll(storesDirFigures(dir));
        }
        return figures;
    }

    private static List<OwnFigure> storesDirFigures(DurableStores.Status dir) {
        return List.of(
                new OwnFigure(
                        "flink_insight_stores_dir_failures_total",
                        "Reads and writes of stores.dir that failed; while they fail the hub keeps its stores in"
                                + " memory only.",
                        true,
                        dir.failures()),
                new OwnFigure(
                        "flink_insight_stores_dir_written_bytes_total",
                        "Bytes the hub wrote to stores.dir.",
                        true,
                        dir.bytesWritten()),
                new OwnFigure(
                        "flink_insight_stores_dir_bytes",
                        "Bytes of the hub's files in stores.dir after its last write.",
                        false,
                        dir.bytesOnDisk()));
    }

    /** Only in a process that runs the hub (a JobManager), leading or standby. */
    private static List<OwnFigure> hubFigures(HubFigures h) {
        List<OwnFigure> figures = new ArrayList<>();
        figures.add(
                new OwnFigure(
                        "flink_insight_hub_leading",
                        "1 while this JobManager leads its cluster and its hub polls, 0 while it is a standby"
                                + " (or its ResourceManager has not started yet).",
                        false,
                        h.leading() ? 1 : 0));
        figures.add(
                new OwnFigure(
                        "flink_insight_hub_rest_requests_total",
                        "Requests the hub sent to Flink's REST API; a standby JobManager sends none.",
                        true,
                        h.restRequests()));
        figures.add(
                new OwnFigure(
                        "flink_insight_hub_client_requests_total",
                        "Requests the hub sent to the client processes (hub.clients); a standby JobManager sends"
                                + " none.",
                        true,
                        h.clientRequests()));
        h.clientRefusals()
                .forEach(
                        (reason, count) ->
                                figures.add(
                                        new OwnFigure(
                                                "flink_insight_hub_client_refused_total",
                                                "Parts of client processes' answers (hub.clients) the hub did not record, by reason: answers"
                                                        + " over 128 KiB, ports beyond a round's 8 MiB, figures with too many or too long"
                                                        + " labels, series beyond a client's bound.",
                                                true,
                                                count,
                                                Map.of("reason", reason))));
        return figures;
    }

    private List<OwnFigure> storeFigures() {
        SeriesStore history = stores.series();
        return List.of(
                new OwnFigure(
                        "flink_insight_stores_bytes",
                        "Estimated heap bytes the stores hold together (history, checkpoints, jobs).",
                        false,
                        stores.estimatedBytes()),
                new OwnFigure(
                        "flink_insight_stores_max_bytes",
                        "The stores' budget of estimated heap bytes (stores.max-bytes).",
                        false,
                        stores.maxBytes()),
                new OwnFigure(
                        "flink_insight_history_series",
                        "Series in this process's metric history.",
                        false,
                        history.seriesCount()),
                new OwnFigure(
                        "flink_insight_history_bytes",
                        "Estimated heap bytes the metric history holds (samples and keys).",
                        false,
                        history.estimatedBytes()),
                new OwnFigure(
                        "flink_insight_history_series_evicted_total",
                        "Series removed from the history before their retention ended: written longest ago, to make"
                                + " room under history.max-series or stores.max-bytes.",
                        true,
                        history.evictedSeries()),
                new OwnFigure(
                        "flink_insight_history_samples_dropped_total",
                        "Samples not kept: the history was full of series all written in the last resolution.",
                        true,
                        history.droppedForSeriesLimit()),
                new OwnFigure(
                        "flink_insight_checkpoints_bytes",
                        "Estimated heap bytes the remembered checkpoints hold (checkpoints.max-bytes).",
                        false,
                        stores.checkpoints().estimatedBytes()),
                new OwnFigure(
                        "flink_insight_checkpoints_evicted_total",
                        "Checkpoints dropped to keep within checkpoints.max-per-job, jobs.max, checkpoints.max-bytes"
                                + " and stores.max-bytes.",
                        true,
                        stores.checkpoints().evicted()),
                new OwnFigure(
                        "flink_insight_jobs_bytes",
                        "Estimated heap bytes the remembered jobs hold.",
                        false,
                        stores.jobs().estimatedBytes()),
                new OwnFigure(
                        "flink_insight_jobs_evicted_total",
                        "Jobs forgotten to keep within jobs.max and stores.max-bytes.",
                        true,
                        stores.jobs().evicted()));
    }

    private static List<OwnFigure> scrapeFigures(ScrapeFigures scrapes) {
        return List.of(
                new OwnFigure(
                        "flink_insight_scrapes_total",
                        "Scrapes of /metrics rendered by this process.",
                        true,
                        scrapes == null ? 0 : scrapes.served()),
                new OwnFigure(
                        "flink_insight_scrape_render_seconds_total",
                        "Time spent rendering /metrics bodies; over flink_insight_scrapes_total, the mean render time.",
                        true,
                        scrapes == null ? 0 : scrapes.renderSeconds()),
                new OwnFigure(
                        "flink_insight_scrape_bytes_total",
                        "Bytes of the /metrics bodies rendered; over flink_insight_scrapes_total, the mean body size.",
                        true,
                        scrapes == null ? 0 : scrapes.bytes()),
                new OwnFigure(
                        "flink_insight_scrapes_waiting",
                        "Scrapes waiting for a render turn under http.max-concurrent-scrapes right now.",
                        false,
                        scrapes == null ? 0 : scrapes.waiting()),
                new OwnFigure(
                        "flink_insight_scrapes_refused_total",
                        "Scrapes answered 503 because http.max-concurrent-scrapes were already under way.",
                        true,
                        scrapes == null ? 0 : scrapes.refusedCount()),
                new OwnFigure(
                        "flink_insight_scrapes_shared_total",
                        "Scrapes of /metrics answered with the body of a render less than a second old, without a"
                                + " render of their own.",
                        true,
                        scrapes == null ? 0 : scrapes.sharedCount()),
                new OwnFigure(
                        "flink_insight_scrape_writes_aborted_total",
                        "Scrape answers whose connection was closed before they were written, to free their body"
                                + " for a newer render when the bodies of its format held for readers were at their"
                                + " bound (2 x http.max-concurrent-scrapes, at least 4).",
                        true,
                        scrapes == null ? 0 : scrapes.writesAborted()));
    }
}
