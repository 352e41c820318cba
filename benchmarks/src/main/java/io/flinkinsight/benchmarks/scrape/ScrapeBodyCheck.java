package io.flinkinsight.benchmarks.scrape;

import io.flinkinsight.benchmarks.fixture.OperatorMetricsFixture;
import io.flinkinsight.benchmarks.fixture.RegisteredMetric;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a Prometheus text body holds every registered metric, each series once: a metric is
 * identified by its base name (histogram suffixes stripped), {@code operator_id} and {@code
 * subtask_index}; a series by its full name and label set. Lines from metrics the fixture did not
 * register (a reporter's own figures) are only counted.
 */
final class ScrapeBodyCheck {

    private static final List<String> SUFFIXES =
            List.of("_count", "_sum", "_bucket", "_total", "_created");

    /** What one body held. */
    record Result(
            long bodyBytes,
            int sampleLines,
            int metricsFound,
            int missing,
            int duplicateSeries,
            int otherLines) {

        boolean holdsEveryMetricOnce() {
            return missing == 0 && duplicateSeries == 0;
        }

        @Override
        public String toString() {
            return String.format(
                    "%d bytes, %d sample lines, %d registered metrics found, %d missing, %d duplicate series,"
                            + " %d lines from other metrics",
                    bodyBytes, sampleLines, metricsFound, missing, duplicateSeries, otherLines);
        }
    }

    private ScrapeBodyCheck() {}

    static Result check(byte[] bodyBytes, OperatorMetricsFixture fixture) {
        String body = new String(bodyBytes, StandardCharsets.UTF_8);
        Set<String> names = fixture.prometheusNames();
        Set<String> seriesSeen = new HashSet<>();
        Set<String> metricsSeen = new HashSet<>();
        int sampleLines = 0;
        int duplicates = 0;
        int other = 0;
        for (String line : body.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            sampleLines++;
            int labelsEnd = line.lastIndexOf('}');
            String series =
                    labelsEnd < 0
                            ? line.substring(0, line.indexOf(' '))
                            : line.substring(0, labelsEnd + 1);
            if (!seriesSeen.add(series)) {
                duplicates++;
            }
            int braces = line.indexOf('{');
            String baseName = baseName(braces < 0 ? series : line.substring(0, braces), names);
            String operatorId = labelValue(line, "operator_id");
            String subtaskIndex = labelValue(line, "subtask_index");
            if (baseName == null || operatorId == null || subtaskIndex == null) {
                other++;
                continue;
            }
            metricsSeen.add(baseName + '|' + operatorId + '|' + subtaskIndex);
        }
        int missing = 0;
        for (RegisteredMetric registered : fixture.metrics()) {
            String key =
                    OperatorMetricsFixture.prometheusName(registered.name())
                            + '|'
                            + registered.operatorId()
                            + '|'
                            + registered.subtaskIndex();
            if (!metricsSeen.contains(key)) {
                missing++;
            }
        }
        return new Result(
                bodyBytes.length, sampleLines, metricsSeen.size(), missing, duplicates, other);
    }

    private static String baseName(String name, Set<String> names) {
        if (names.contains(name)) {
            return name;
        }
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix)) {
                String stripped = name.substring(0, name.length() - suffix.length());
                if (names.contains(stripped)) {
                    return stripped;
                }
            }
        }
        return null;
    }

    private static String labelValue(String line, String label) {
        String marker = label + "=\"";
        int start = line.indexOf(marker);
        if (start < 0) {
            return null;
        }
        start += marker.length();
        int end = line.indexOf('"', start);
        return end < 0 ? null : line.substring(start, end);
    }
}
