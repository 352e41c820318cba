package io.flinkinsight.benchmarks.scrape;

import io.flinkinsight.benchmarks.fixture.OperatorMetricsFixture;
import io.flinkinsight.benchmarks.fixture.RegisteredMetric;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ScrapeBodyCheckTest {

    private final OperatorMetricsFixture fixture = OperatorMetricsFixture.build(40);

    @Test
    void bodyWithEveryMetricOnceHoldsEveryMetricOnce() {
        ScrapeBodyCheck.Result result = ScrapeBodyCheck.check(body(fixture, ""), fixture);

        assertThat(result.holdsEveryMetricOnce()).isTrue();
        assertThat(result.metricsFound()).isEqualTo(40);
        assertThat(result.otherLines()).isZero();
    }

    @Test
    void histogramQuantileAndCountLinesCountAsOneMetric() {
        // Metric 20 of an operator is its histogram; the fixture's 40 metrics hold two.
        ScrapeBodyCheck.Result result = ScrapeBodyCheck.check(body(fixture, ""), fixture);

        assertThat(result.sampleLines()).isEqualTo(38 + 2 * 2);
        assertThat(result.metricsFound()).isEqualTo(40);
    }

    @Test
    void missingMetricIsReported() {
        OperatorMetricsFixture larger = OperatorMetricsFixture.build(41);

        ScrapeBodyCheck.Result result = ScrapeBodyCheck.check(body(fixture, ""), larger);

        assertThat(result.missing()).isEqualTo(1);
        assertThat(result.holdsEveryMetricOnce()).isFalse();
    }

    @Test
    void repeatedSeriesIsReportedAsDuplicate() {
        RegisteredMetric first = fixture.metrics().get(0);
        String repeated = line(first, "", "") + "\n";

        ScrapeBodyCheck.Result result = ScrapeBodyCheck.check(body(fixture, repeated), fixture);

        assertThat(result.duplicateSeries()).isEqualTo(1);
        assertThat(result.holdsEveryMetricOnce()).isFalse();
    }

    @Test
    void linesOfUnregisteredMetricsAreOnlyCounted() {
        String own =
                "# TYPE flink_insight_scrape_seconds gauge\nflink_insight_scrape_seconds 0.01\n";

        ScrapeBodyCheck.Result result = ScrapeBodyCheck.check(body(fixture, own), fixture);

        assertThat(result.otherLines()).isEqualTo(1);
        assertThat(result.holdsEveryMetricOnce()).isTrue();
    }

    /**
     * A body the way Flink's reporter writes it: histograms as a _count line and one line per
     * quantile.
     */
    private static byte[] body(OperatorMetricsFixture fixture, String extra) {
        StringBuilder body = new StringBuilder();
        for (RegisteredMetric metric : fixture.metrics()) {
            if (metric.name().equals("mailboxLatencyMs")) {
                body.append(line(metric, "_count", "")).append('\n');
                body.append(line(metric, "", ",quantile=\"0.5\"")).append('\n');
            } else {
                body.append(line(metric, "", "")).append('\n');
            }
        }
        return body.append(extra).toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String line(RegisteredMetric metric, String suffix, String extraLabels) {
        return OperatorMetricsFixture.prometheusName(metric.name())
                + suffix
                + "{operator_id=\""
                + metric.operatorId()
                + "\",subtask_index=\""
                + metric.subtaskIndex()
                + "\""
                + extraLabels
                + "} 1.0";
    }
}
