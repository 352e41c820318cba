package io.flinkinsight.plugin.exposition;

import io.flinkinsight.plugin.index.MetricIndex;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.util.TestHistogram;
import org.apache.flink.metrics.util.TestMeter;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static io.flinkinsight.plugin.index.TestingGroups.taskGroup;
import static org.assertj.core.api.Assertions.assertThat;

class ExpositionWriterTest {

    /** One metric of every kind and value shape, including one whose gauge throws. */
    static MetricIndex fixture() {
        MetricIndex index = new MetricIndex(true);
        SimpleCounter records0 = new SimpleCounter();
        records0.inc(42);
        SimpleCounter records1 = new SimpleCounter();
        records1.inc(7);
        index.add(records0, "numRecordsIn", taskGroup("0"));
        index.add(records1, "numRecordsIn", taskGroup("1"));
        index.add(new TestMeter(100, 2.5), "numRecordsInPerSecond", taskGroup("0"));
        TestHistogram latency = new TestHistogram();
        latency.setCount(3);
        latency.setMean(4.5);
        index.add(latency, "latency", taskGroup("0"));
        Map<String, String> jm = Map.of("<host>", "jm-host");
        index.add((Gauge<Integer>) () -> 2, "numRegisteredTaskManagers", group("jobmanager", jm));
        index.add((Gauge<Double>) () -> 0.25, "Status.JVM.CPU.Load", group("jobmanager", jm));
        index.add((Gauge<Boolean>) () -> true, "isBackPressured", taskGroup("0"));
        index.add((Gauge<String>) () -> "RUNNING", "jobStatus", group("jobmanager", jm));
        index.add((Gauge<Object>) () -> null, "nothingYet", group("jobmanager", jm));
        index.add((Gauge<Double>) () -> Double.NaN, "watermarkLag", group("jobmanager", jm));
        index.add((Gauge<Double>) () -> Double.POSITIVE_INFINITY, "upper", group("jobmanager", jm));
        index.add((Gauge<Double>) () -> Double.NEGATIVE_INFINITY, "lower", group("jobmanager", jm));
        index.add((Gauge<Long>) () -> Long.MAX_VALUE, "bigLong", group("jobmanager", jm));
        index.add(
                (Gauge<Integer>)
                        () -> {
                            throw new IllegalStateException("broken gauge");
                        },
                "broken",
                group("jobmanager", jm));
        return index;
    }

    @Test
    void prometheusTextMatchesGoldenFile() throws IOException {
        assertThat(ScrapeText.scrape(fixture(), ExpositionFormat.PROMETHEUS_TEXT))
                .isEqualTo(golden("golden/prometheus-text-0.0.4.txt"));
    }

    @Test
    void openMetricsMatchesGoldenFile() throws IOException {
        assertThat(ScrapeText.scrape(fixture(), ExpositionFormat.OPENMETRICS))
                .isEqualTo(golden("golden/openmetrics-1.0.0.txt"));
    }

    @Test
    void throwingGaugeIsSkippedAndCountedWhileTheRestIsWritten() {
        LongAdder errors = new LongAdder();
        String text = ScrapeText.scrape(fixture(), ExpositionFormat.PROMETHEUS_TEXT, errors);

        assertThat(errors.sum()).isEqualTo(1);
        assertThat(text).doesNotContain("broken");
        assertThat(text).contains("flink_insight_scrape_errors_total 1\n");
        assertThat(text).contains("flink_jobmanager_upper{host=\"jm_host\"} +Inf\n");
    }

    @Test
    void gaugeThrowingAnErrorIsSkippedAndCountedWhileTheRestIsWritten() {
        MetricIndex index = new MetricIndex(true);
        index.add(
                (Gauge<Integer>)
                        () -> {
                            throw new AssertionError("gauge bug");
                        },
                "broken",
                taskGroup("0"));
        index.add((Gauge<Integer>) () -> 3, "fine", taskGroup("0"));
        LongAdder errors = new LongAdder();

        String text = ScrapeText.scrape(index, ExpositionFormat.PROMETHEUS_TEXT, errors);

        assertThat(errors.sum()).isEqualTo(1);
        assertThat(text)
                .doesNotContain("broken")
                .contains(
                        "flink_taskmanager_job_task_fine{",
                        "} 3\n",
                        "flink_insight_scrape_errors_total 1\n");
    }

    @Test
    void familyHeaderIsWrittenOnceWithSamplesContiguous() {
        String text = ScrapeText.scrape(fixture(), ExpositionFormat.PROMETHEUS_TEXT);
        List<String> lines = text.lines().toList();

        assertThat(
                        lines.stream()
                                .filter(
                                        l ->
                                                l.equals(
                                                        "# TYPE flink_taskmanager_job_task_numRecordsIn counter")))
                .hasSize(1);
        int type = lines.indexOf("# TYPE flink_taskmanager_job_task_numRecordsIn counter");
        assertThat(lines.get(type + 1))
                .startsWith("flink_taskmanager_job_task_numRecordsIn{")
                .endsWith(" 42");
        assertThat(lines.get(type + 2))
                .startsWith("flink_taskmanager_job_task_numRecordsIn{")
                .endsWith(" 7");
    }

    @Test
    void scrapeErrorCountEndsTheScrapeInBothFormats() {
        LongAdder errors = new LongAdder();
        errors.add(3);
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream om = new java.io.ByteArrayOutputStream();
        new ExpositionWriter(errors)
                .write(
                        new MetricIndex(true).families(),
                        ExpositionFormat.PROMETHEUS_TEXT,
                        new ExpositionBuffer(text));
        new ExpositionWriter(errors)
                .write(
                        new MetricIndex(true).families(),
                        ExpositionFormat.OPENMETRICS,
                        new ExpositionBuffer(om));

        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains(
                        "# TYPE flink_insight_scrape_errors_total counter\n"
                                + "flink_insight_scrape_errors_total 3\n");
        assertThat(om.toString(StandardCharsets.UTF_8))
                .contains(
                        "# TYPE flink_insight_scrape_errors counter\n"
                                + "flink_insight_scrape_errors_total 3\n")
                .endsWith("# EOF\n");
    }

    @Test
    void ownFiguresFollowFlinksFamiliesSortedByNameAndAFailingSupplierIsCounted() {
        LongAdder errors = new LongAdder();
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        new ExpositionWriter(
                        errors,
                        () ->
                                List.of(
                                        new OwnFigure(
                                                "flink_insight_history_series",
                                                "Series held.",
                                                false,
                                                12),
                                        new OwnFigure(
                                                "flink_insight_scrapes_refused_total",
                                                "Refused.",
                                                true,
                                                3)))
                .write(
                        new MetricIndex(true).families(),
                        ExpositionFormat.PROMETHEUS_TEXT,
                        new ExpositionBuffer(text));
        String out = text.toString(StandardCharsets.UTF_8);

        assertThat(out)
                .contains(
                        "# TYPE flink_insight_history_series gauge\nflink_insight_history_series 12\n",
                        "# TYPE flink_insight_scrapes_refused_total counter\nflink_insight_scrapes_refused_total 3\n");
        assertThat(out.indexOf("flink_insight_history_series"))
                .isLessThan(out.indexOf("flink_insight_scrape_errors_total"));

        java.io.ByteArrayOutputStream failing = new java.io.ByteArrayOutputStream();
        new ExpositionWriter(
                        errors,
                        () -> {
                            throw new IllegalStateException("bug");
                        })
                .write(
                        new MetricIndex(true).families(),
                        ExpositionFormat.PROMETHEUS_TEXT,
                        new ExpositionBuffer(failing));
        assertThat(failing.toString(StandardCharsets.UTF_8))
                .contains("flink_insight_scrape_errors_total 1\n");
    }

    @Test
    void labelledOwnFiguresAreOneFamilyWithASamplePerLabelInBothFormats() {
        for (ExpositionFormat format : ExpositionFormat.values()) {
            java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
            new ExpositionWriter(
                            new LongAdder(),
                            () ->
                                    List.of(
                                            new OwnFigure(
                                                    "flink_insight_requests_refused_total",
                                                    "Refused.",
                                                    true,
                                                    2,
                                                    Map.of("reason", "not_found")),
                                            new OwnFigure(
                                                    "flink_insight_requests_refused_total",
                                                    "Refused.",
                                                    true,
                                                    0,
                                                    Map.of("reason", "busy"))))
                    .write(new MetricIndex(true).families(), format, new ExpositionBuffer(text));
            String out = text.toString(StandardCharsets.UTF_8);
            String family =
                    format == ExpositionFormat.OPENMETRICS
                            ? "flink_insight_requests_refused"
                            : "flink_insight_requests_refused_total";

            assertThat(out)
                    .as(format.name())
                    .contains(
                            "# TYPE "
                                    + family
                                    + " counter\n"
                                    + "flink_insight_requests_refused_total{reason=\"not_found\"} 2\n"
                                    + "flink_insight_requests_refused_total{reason=\"busy\"} 0\n");
            assertThat(out.split("# TYPE " + family + " ", -1)).as("one TYPE line").hasSize(2);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                new OwnFigure(
                                        "flink_insight_x_total",
                                        "x",
                                        true,
                                        1,
                                        Map.of("reason", "a\"b")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ownFiguresAreNamedLikeThePluginsAndCountersEndInTotal() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OwnFigure("up", "x", false, 1))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new OwnFigure("flink_insight_x", "x", true, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summariesHaveQuantilesAndCountButNoSumThatCouldGoDown() throws Exception {
        String text = ScrapeText.scrape(fixture(), ExpositionFormat.PROMETHEUS_TEXT);

        assertThat(text).contains("flink_taskmanager_job_task_latency_count{");
        assertThat(text).doesNotContain("_sum{");
    }

    @Test
    void openMetricsIsChosenOnlyWhenAccepted() {
        assertThat(
                        ExpositionFormat.negotiate(
                                "application/openmetrics-text;version=1.0.0,text/plain;q=0.5"))
                .isEqualTo(ExpositionFormat.OPENMETRICS);
        assertThat(ExpositionFormat.negotiate("text/plain"))
                .isEqualTo(ExpositionFormat.PROMETHEUS_TEXT);
        assertThat(ExpositionFormat.negotiate(null)).isEqualTo(ExpositionFormat.PROMETHEUS_TEXT);
    }

    static String golden(String resource) throws IOException {
        try (InputStream in =
                ExpositionWriterTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
