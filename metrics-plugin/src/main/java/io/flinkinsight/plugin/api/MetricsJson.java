package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.exposition.ExpositionWriter;
import io.flinkinsight.plugin.index.MetricFamily;
import io.flinkinsight.plugin.index.MetricReading;
import io.flinkinsight.plugin.index.RegisteredMetric;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Current metric values as JSON-ready records, for {@code GET
 * /api/v1/metrics?prefix=...&contains=...&limit=...}. Same names and labels as the scrape; values
 * that fail to read are skipped and counted, like in the scrape.
 */
public final class MetricsJson {

    /** The exposition's quantiles, so the JSON names the same ones as the scrape. */
    private static final double[] QUANTILES = ExpositionWriter.quantiles();

    /**
     * Longest string gauge value returned; longer ones are cut, so one odd gauge cannot bloat the
     * answer.
     */
    static final int MAX_STRING_VALUE = 1024;

    /**
     * The answer: {@code count} metrics listed, {@code truncated} when {@code limit} cut the list.
     */
    public record Answer(int count, boolean truncated, List<MetricValue> metrics) {}

    /**
     * One metric. {@code value} is set for counters, gauges (number, boolean or string) and meters
     * (rate per second); {@code histogram} for histograms.
     */
    public record MetricValue(
            String name,
            Map<String, String> labels,
            String type,
            Object value,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> histogram) {}

    private MetricsJson() {}

    /**
     * The metrics whose name starts with {@code prefix} and contains {@code contains} (both may be
     * empty).
     */
    public static Answer read(
            MetricFamily[] families, String prefix, String contains, int limit, LongAdder errors) {
        List<MetricValue> out = new ArrayList<>(Math.min(limit, 1024));
        MetricReading reading = MetricReading.described(QUANTILES);
        boolean truncated = false;
        outer:
        for (MetricFamily family : families) {
            if (!family.name().startsWith(prefix) || !family.name().contains(contains)) {
                continue;
            }
            for (RegisteredMetric m : family.members()) {
                if (out.size() >= limit) {
                    truncated = true;
                    break outer;
                }
                if (reading.read(m)) {
                    out.add(value(m, reading));
                } else {
                    errors.increment(); // one metric failing must not fail the answer
                }
            }
        }
        return new Answer(out.size(), truncated, out);
    }

    private static MetricValue value(RegisteredMetric m, MetricReading reading) {
        String name = m.family().name();
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < m.labels().names().size(); i++) {
            labels.put(m.labels().names().get(i), m.labels().values().get(i));
        }
        String type = m.kind().name().toLowerCase(Locale.ROOT);
        switch (m.kind()) {
            case COUNTER -> {
                return new MetricValue(name, labels, type, reading.longValue(), null);
            }
            case METER -> {
                return new MetricValue(name, labels, type, reading.doubleValue(), null);
            }
            case GAUGE -> {
                Object v = reading.gaugeValue();
                return new MetricValue(
                        name, labels, type, v instanceof String text ? truncate(text) : v, null);
            }
            default -> {
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("count", reading.count());
                h.put("min", reading.min());
                h.put("max", reading.max());
                h.put("mean", reading.mean());
                h.put("stddev", reading.stdDev());
                for (int i = 0; i < QUANTILES.length; i++) {
                    double q = QUANTILES[i];
                    String digits = Double.toString(q).substring(2); // 0.5 -> p50, 0.999 -> p999
                    h.put(
                            "p" + (digits.length() == 1 ? digits + "0" : digits),
                            reading.quantile(i));
                }
                return new MetricValue(name, labels, type, null, h);
            }
        }
    }

    private static String truncate(String s) {
        return s.length() <= MAX_STRING_VALUE ? s : s.substring(0, MAX_STRING_VALUE);
    }
}
