package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Records the {@code /api/v1/metrics} answers of client processes into the hub's history, within
 * bounds, since anything listening on a listed port may answer: each figure of the {@link
 * ClientContract} under its own name and labels plus {@code client="host:port"}, a histogram as the
 * history keeps it ({@code quantile="0.5"}, {@code quantile="0.99"}, {@code _count}); at most
 * {@value #MAX_LABELS} labels of bounded length a figure, the series the {@link SeriesAdmission}
 * lets in, and no more than {@link #MAX_METRICS_PER_CLIENT} metrics an answer. What is refused is
 * counted by reason. Used on the hub's thread only.
 */
final class ClientAnswerRecorder {

    /**
     * As many as a client process's port answers anyone (the path every access mode leaves open).
     */
    static final int MAX_METRICS_PER_CLIENT = (int) PortAccess.MAX_OPEN_METRICS;

    static final int MAX_LABELS = 16;
    static final int MAX_LABEL_NAME = 128;
    static final int MAX_LABEL_VALUE = 256;
    static final String CLIENT_LABEL = "client";

    private static final ClientContract CONTRACT = ClientContract.get();

    private final SeriesStore series;
    private final ClientRefusal.Counts refusals;
    private final SeriesAdmission admission;

    ClientAnswerRecorder(
            SeriesStore series, ClientRefusal.Counts refusals, SeriesAdmission admission) {
        this.series = series;
        this.refusals = refusals;
        this.admission = admission;
    }

    /**
     * Whether an answer holds a figure of the contract: whether the port that gave it is a
     * client's.
     */
    static boolean holdsAFigure(JsonNode answer) {
        for (JsonNode metric : answer.path("metrics")) {
            if (CONTRACT.isFigure(metric.path("name").asText(""))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records one answer of the client at {@code clientLabel}: the client series among its metrics,
     * with their labels plus {@code client}, within the bounds on labels and series. Returns how
     * many samples were recorded.
     */
    int record(JsonNode answer, String clientLabel, long now) {
        int recorded = 0;
        int seen = 0;
        for (JsonNode metric : answer.path("metrics")) {
            if (++seen > MAX_METRICS_PER_CLIENT) {
                refusals.count(ClientRefusal.TOO_MANY_SERIES);
                break;
            }
            String name = metric.path("name").asText("");
            if (!CONTRACT.isFigure(name)) {
                continue; // not a figure of the contract (a client plugin that ignores 'contains'
                // answers everything)
            }
            List<String> labelNames = new ArrayList<>();
            List<String> labelValues = new ArrayList<>();
            if (!readLabels(metric.path("labels"), labelNames, labelValues)) {
                refusals.count(ClientRefusal.LABELS);
                continue;
            }
            labelNames.add(CLIENT_LABEL);
            labelValues.add(clientLabel);
            SeriesKey summary = new SeriesKey(name, labelNames, labelValues);
            if (!admission.admit(clientLabel, summary)) {
                refusals.count(ClientRefusal.TOO_MANY_SERIES);
                continue;
            }
            JsonNode histogram = metric.get("histogram");
            if (histogram != null && histogram.isObject()) {
                SeriesKey p50 = summary.withQuantile(RegisteredMetric.HISTORY_P50);
                SeriesKey p99 = summary.withQuantile(RegisteredMetric.HISTORY_P99);
                recorded += recordValue(p50, histogram.get("p50"), now);
                recorded += recordValue(p99, histogram.get("p99"), now);
                recorded +=
                        recordValue(
                                new SeriesKey(name + "_count", labelNames, labelValues),
                                histogram.get("count"),
                                now);
            } else {
                recorded += recordValue(summary, metric.get("value"), now);
            }
        }
        return recorded;
    }

    /**
     * Reads a figure's labels but {@code client} and {@code quantile}; false when they break the
     * bounds.
     */
    private static boolean readLabels(JsonNode labels, List<String> names, List<String> values) {
        if (labels.size() > MAX_LABELS) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            String value = label.getValue().asText();
            if (label.getKey().length() > MAX_LABEL_NAME || value.length() > MAX_LABEL_VALUE) {
                return false;
            }
            if (!label.getKey().equals(CLIENT_LABEL)
                    && !label.getKey().equals(SeriesKey.QUANTILE_LABEL)) {
                names.add(label.getKey());
                values.add(value);
            }
        }
        return true;
    }

    /**
     * Numbers as they are, booleans as 1/0 (as the sampler keeps them); strings, "NaN" and nulls
     * are skipped.
     */
    private int recordValue(SeriesKey key, JsonNode value, long now) {
        if (value == null) {
            return 0;
        }
        if (value.isNumber()) {
            series.record(key, now, value.asDouble());
            return 1;
        }
        if (value.isBoolean()) {
            series.record(key, now, value.asBoolean() ? 1 : 0);
            return 1;
        }
        return 0;
    }
}
