package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.store.InsightStores;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** The JSON API of one process: which path answers with which endpoint. */
public final class ApiEndpoints {

    public static final String METRICS_PATH = "/api/v1/metrics";

    private ApiEndpoints() {}

    /**
     * The endpoints, keyed by path.
     *
     * @param overview the process's facts for the overview, read afresh for each request
     * @param scrapeErrors the metrics that failed to read in scrapes so far, which the metrics
     *     endpoint adds to
     * @param historyResolution how often samples are taken, and hubPollInterval how often the hub
     *     gathers clients: together how old a client's figures may be and still be fresh
     */
    public static Map<String, JsonEndpoint> of(
            Supplier<OverviewEndpoint.Facts> overview,
            MetricIndex index,
            LongAdder scrapeErrors,
            InsightStores stores,
            Clock clock,
            Duration historyResolution,
            Duration hubPollInterval) {
        Map<String, JsonEndpoint> all = new LinkedHashMap<>();
        all.put(OverviewEndpoint.PATH, new OverviewEndpoint(overview));
        all.put(
                METRICS_PATH,
                JsonEndpoint.narrowedBy(
                        query ->
                                MetricsJson.read(
                                        index.families(),
                                        query.get("prefix").orElse(""),
                                        query.get("contains").orElse(""),
                                        (int) query.getLong("limit", 1000, 1, 100_000),
                                        scrapeErrors),
                        "prefix",
                        "contains",
                        "limit (fewer metrics)"));
        all.put(SeriesEndpoint.PATH, new SeriesEndpoint(stores.series()));
        all.put(SeriesNamesEndpoint.PATH, new SeriesNamesEndpoint(stores.series()));
        all.put(
                CheckpointsEndpoint.PATH,
                new CheckpointsEndpoint(stores.checkpoints(), stores.jobs(), clock));
        all.put(JobsEndpoint.PATH, new JobsEndpoint(stores.jobs(), stores.checkpoints()));
        all.put(
                CompareEndpoint.PATH,
                new CompareEndpoint(stores.checkpoints(), stores.jobs(), stores.series(), clock));
        all.put(
                ClientEndpoint.PATH,
                new ClientEndpoint(
                        stores.series(),
                        ClientEndpoint.freshness(historyResolution, hubPollInterval)));
        all.put(StatementsEndpoint.PATH, new StatementsEndpoint(stores.statements(), clock));
        all.put(QueriesEndpoint.PATH, new QueriesEndpoint(stores.statements(), stores.jobs()));
        return all;
    }
}
