package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.ClientContract.Figure;
import io.flinkinsight.plugin.index.ClientContract.Ratio;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesStore;

import org.apache.flink.annotation.VisibleForTesting;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/client[?from=&to=&step=]}: the interactive client's figures, one section per
 * group of the {@link ClientContract} (pool, channels, collect, queries), read from the newest
 * samples of exactly the contract's series ({@code flink_insight_client_<group>_<name>}); with
 * {@code from}, also their history, so the panel's client view needs this one request.
 *
 * <p>Now: counters and gauges of several series (client processes, or hosts) are summed; a ratio of
 * the contract is computed from its summed parts (null before its whole is above 0); a histogram
 * gives {@code {p50, p99}} from the {@code quantile} label ("0.5", "0.99") the history gives it,
 * the maximum over series, and a histogram with a ratio gives its median, else that ratio, under
 * its name and its quantiles under {@code <name>Quantiles}. Samples older than the freshness bound
 * are left out, so a client process that went away stops counting; until one reports, every figure
 * is 0 or null.
 *
 * <p>History ({@code history}, same sections): per step-aligned bucket, gauges summed, ratios per
 * interval (how much the summed part grew over how much the summed whole grew; null where the whole
 * did not grow or a counter restarted) and histograms' p50 and p99, the maximum over series.
 * Counters are left out (the ratios carry them). At most {@value #MAX_HISTORY_POINTS} points per
 * series, so the answer stays within {@link #maxHistoryBytes()}.
 */
public final class ClientEndpoint implements JsonEndpoint {

    public static final String PATH = "/api/v1/client";
    public static final String PREFIX = ProcessRole.CLIENT_FIGURE_PREFIX;

    static final String HINT =
            "install the interactive-client jar in the SQL Gateway's lib/ and set"
                    + " execution.target: remote-interactive";

    /** Freshness is at least this: a hub round can take a while when Flink's REST API is slow. */
    static final Duration MIN_FRESHNESS = Duration.ofMinutes(1);

    /** Points per history series at most: a too fine step is coarsened. */
    static final int MAX_HISTORY_POINTS = 400;

    /**
     * A history point as JSON at most: {@code [13-digit ms,<double>],} with a double's longest
     * form.
     */
    static final int MAX_POINT_BYTES = 40;

    static final String QUANTILES_SUFFIX = "Quantiles";

    private static final ClientContract CONTRACT = ClientContract.get();

    private final SeriesStore store;
    private final long freshnessMillis;

    /** Reads every sample inside the retention, however old. */
    @VisibleForTesting
    public ClientEndpoint(SeriesStore store) {
        this(store, Duration.ofMillis(Long.MAX_VALUE));
    }

    /** Reads samples no older than {@code freshness}. */
    public ClientEndpoint(SeriesStore store, Duration freshness) {
        this.store = store;
        this.freshnessMillis = freshness.toMillis();
    }

    /**
     * How old a client's newest sample may be and still count: three rounds of whichever writes it
     * less often, the sampler (in the client process) or the hub (which gathers from client
     * processes), and at least a minute.
     */
    public static Duration freshness(Duration resolution, Duration hubPollInterval) {
        Duration slowest =
                resolution.compareTo(hubPollInterval) >= 0 ? resolution : hubPollInterval;
        Duration threeRounds = slowest.multipliedBy(3);
        return threeRounds.compareTo(MIN_FRESHNESS) >= 0 ? threeRounds : MIN_FRESHNESS;
    }

    /** The most bytes the points of a history answer take: every history series full. */
    @VisibleForTesting
    static long maxHistoryBytes() {
        long series = 0;
        for (Figure f : CONTRACT.figures()) {
            boolean ratio = CONTRACT.ratio(f) != null;
            series +=
                    switch (f.kind()) {
                        case COUNTER -> 0;
                        case GAUGE -> 1;
                        case HISTOGRAM -> ratio ? 3 : 2;
                    };
        }
        return series * MAX_HISTORY_POINTS * MAX_POINT_BYTES;
    }

    @Override
    public Map<String, Object> handle(QueryParameters query) throws BadRequestException {
        long now = store.clock().millis();
        long notBefore = freshnessMillis >= now ? Long.MIN_VALUE : now - freshnessMillis;
        ClientSeries series = new ClientSeries(store);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("available", series.any);
        out.put("hint", series.any ? null : HINT);
        Map<String, Map<String, Object>> groups = sections();
        for (Figure f : CONTRACT.figures()) {
            putNow(groups.get(f.group()), f, series, notBefore);
        }
        out.putAll(groups);
        if (query.get("from").isPresent()) {
            long from = TimeParameters.instant(query, "from", now, store.retentionStartMillis());
            long to = TimeParameters.instant(query, "to", now, now);
            if (from > to) {
                throw new BadRequestException("'from' must not be after 'to'");
            }
            // Always a step, so the buckets of several client processes line up and can be summed.
            long requested = TimeParameters.duration(query, "step");
            long step =
                    SeriesEndpoint.effectiveStep(
                            requested > 0 ? requested : store.resolutionMillis(),
                            to - from,
                            store.resolutionMillis(),
                            MAX_HISTORY_POINTS);
            ClientHistory history = new ClientHistory(series, from, to, step);
            Map<String, Map<String, Object>> past = sections();
            for (Figure f : CONTRACT.figures()) {
                history.put(past.get(f.group()), f);
            }
            out.put("history", past);
        }
        return out;
    }

    private static Map<String, Map<String, Object>> sections() {
        Map<String, Map<String, Object>> sections = new LinkedHashMap<>();
        CONTRACT.groups().forEach(g -> sections.put(g, new LinkedHashMap<>()));
        return sections;
    }

    private static void putNow(
            Map<String, Object> section, Figure f, ClientSeries series, long notBefore) {
        Ratio ratio = CONTRACT.ratio(f);
        Object ratioValue =
                ratio == null
                        ? null
                        : quotient(
                                series.sum(ratio.part(), notBefore),
                                series.sum(ratio.whole(), notBefore));
        switch (f.kind()) {
            case COUNTER -> section.put(f.name(), series.sum(List.of(f), notBefore));
            case GAUGE ->
                    section.put(
                            f.name(),
                            ratio != null ? ratioValue : series.sum(List.of(f), notBefore));
            case HISTOGRAM -> {
                Map<String, Object> quantiles = new LinkedHashMap<>();
                quantiles.put("p50", series.quantile(f, RegisteredMetric.HISTORY_P50, notBefore));
                quantiles.put("p99", series.quantile(f, RegisteredMetric.HISTORY_P99, notBefore));
                if (ratio == null) {
                    section.put(f.name(), quantiles);
                } else {
                    // the client's own per-query histogram, else the counters' quotient (which also
                    // counts
                    // queries still running)
                    section.put(
                            f.name(),
                            quantiles.get("p50") != null ? quantiles.get("p50") : ratioValue);
                    section.put(f.name() + QUANTILES_SUFFIX, quantiles);
                }
            }
        }
    }

    private static Object quotient(double part, double whole) {
        return whole > 0 ? part / whole : null;
    }
}
