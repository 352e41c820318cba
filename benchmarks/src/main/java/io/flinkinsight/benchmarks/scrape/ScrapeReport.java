package io.flinkinsight.benchmarks.scrape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the JSON result file of {@link ScrapeBenchmark} ({@code -rf json}) into the markdown table
 * of {@code docs/benchmarks.md}: time, allocation and body size per scrape, and Flink's cost over
 * ours.
 */
public final class ScrapeReport {

    private static final double MB = 1_000_000.0;

    /** One JMH result row. */
    private record Row(
            double millis,
            double millisError,
            double allocAll,
            double allocServer,
            double bodyBytes,
            double directPeak) {}

    private ScrapeReport() {}

    public static void main(String[] args) throws IOException {
        JsonNode results = new ObjectMapper().readTree(new File(args[0]));
        // series -> reporter -> row, series in numeric order
        Map<Integer, Map<String, Row>> rows = new TreeMap<>();
        for (JsonNode result : results) {
            JsonNode params = result.path("params");
            JsonNode secondary = result.path("secondaryMetrics");
            rows.computeIfAbsent(params.path("series").asInt(), k -> new TreeMap<>())
                    .put(
                            params.path("reporter").asText(),
                            new Row(
                                    result.path("primaryMetric").path("score").asDouble(),
                                    result.path("primaryMetric").path("scoreError").asDouble(),
                                    score(secondary, "gc.alloc.rate.norm"),
                                    score(secondary, "alloc.server.norm"),
                                    score(secondary, "body.bytes"),
                                    score(secondary, "direct.peak")));
        }

        boolean direct =
                rows.values().stream()
                        .flatMap(r -> r.values().stream())
                        .anyMatch(r -> !Double.isNaN(r.directPeak()));
        System.out.println(
                "| metrics | reporter | ms/scrape | alloc/scrape, all threads (MB) | of which server"
                        + " threads (MB) | body (MB) | body bytes/metric | flink/insight time | flink/insight alloc |"
                        + (direct ? " direct pool peak (MB) |" : ""));
        System.out.println(
                "|---:|---|---:|---:|---:|---:|---:|---:|---:|" + (direct ? "---:|" : ""));
        for (Map.Entry<Integer, Map<String, Row>> bySeries : rows.entrySet()) {
            int series = bySeries.getKey();
            Row insight = bySeries.getValue().get("insight");
            Row flink = bySeries.getValue().get("flink");
            for (Map.Entry<String, Row> byReporter : bySeries.getValue().entrySet()) {
                Row row = byReporter.getValue();
                boolean ratioRow = byReporter.getKey().equals("insight") && flink != null;
                System.out.printf(
                        "| %d | %s | %.2f ± %.2f | %.1f | %.1f | %.2f | %.0f | %s | %s |%s%n",
                        series,
                        byReporter.getKey(),
                        row.millis(),
                        errorOrZero(row.millisError()),
                        row.allocAll() / MB,
                        row.allocServer() / MB,
                        row.bodyBytes() / MB,
                        row.bodyBytes() / series,
                        ratioRow ? String.format("%.1fx", flink.millis() / insight.millis()) : "",
                        ratioRow
                                ? String.format("%.1fx", flink.allocAll() / insight.allocAll())
                                : "",
                        direct ? String.format(" %.1f |", row.directPeak() / MB) : "");
            }
        }
    }

    private static double score(JsonNode secondary, String metric) {
        JsonNode node = secondary.path(metric).path("score");
        return node.isMissingNode() ? Double.NaN : node.asDouble();
    }

    /** JMH reports NaN as the error of fewer than two iterations. */
    private static double errorOrZero(double error) {
        return Double.isNaN(error) ? 0 : error;
    }
}
