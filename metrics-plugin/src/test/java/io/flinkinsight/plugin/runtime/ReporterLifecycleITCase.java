package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.TestingFlinkWeb;
import io.flinkinsight.plugin.TestingLogCapture;
import io.flinkinsight.plugin.events.InsightEventReporterFactory;
import io.flinkinsight.plugin.index.TestingGroups;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.traces.InsightTraceReporterFactory;

import org.apache.flink.events.Event;
import org.apache.flink.events.reporter.EventReporter;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.util.TestMetricGroup;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import static io.flinkinsight.plugin.TestingHttpClient.freePort;
import static io.flinkinsight.plugin.TestingHttpClient.get;
import static io.flinkinsight.plugin.TestingHttpClient.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The three reporters as Flink drives them: one shared runtime, reference-counted, never throwing
 * into Flink.
 */
class ReporterLifecycleITCase {

    @AfterEach
    void noRuntimeLeftBehind() {
        assertThat(SharedRuntime.current()).isNull();
    }

    private static MetricConfig config(int port) {
        MetricConfig c = new MetricConfig();
        c.setProperty("port", String.valueOf(port));
        c.setProperty("bind-host", "127.0.0.1");
        return c;
    }

    @Test
    void threeReportersShareOneServerUntilTheLastIsClosed() throws Exception {
        int port = freePort();
        MetricReporter metrics =
                new InsightMetricReporterFactory().createMetricReporter(new java.util.Properties());
        TraceReporter traces =
                new InsightTraceReporterFactory().createTraceReporter(new java.util.Properties());
        EventReporter events =
                new InsightEventReporterFactory().createEventReporter(new java.util.Properties());
        metrics.open(config(port));
        traces.open(new MetricConfig());
        events.open(new MetricConfig());
        metrics.notifyOfAddedMetric(
                new SimpleCounter(), "numRecordsIn", TestingGroups.taskGroup("0"));
        traces.notifyOfAddedSpan(Span.builder(ReporterLifecycleITCase.class, "Checkpoint").build());
        events.notifyOfAddedEvent(
                Event.builder(ReporterLifecycleITCase.class, "JobStatusChangeEvent").build());

        assertThat(SharedRuntime.current().port()).isEqualTo(port);
        metrics.close();
        traces.close();
        assertThat(status(get(port, "/metrics"))).isEqualTo(200);
        assertThat(SharedRuntime.current()).isNotNull();

        events.close();
        assertThat(SharedRuntime.current()).isNull();
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName)
                .noneMatch(n -> n.startsWith("flink-insight-sampler"));
    }

    @Test
    void noFreePortStillOpensTheReporterAndLogsAnError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                TestingLogCapture log = new TestingLogCapture()) {
            MetricReporter metrics =
                    new InsightMetricReporterFactory()
                            .createMetricReporter(new java.util.Properties());
            metrics.open(config(taken.getLocalPort()));
            metrics.notifyOfAddedMetric(
                    new SimpleCounter(), "numRecordsIn", TestingGroups.taskGroup("0"));

            assertThat(SharedRuntime.current().port()).isEqualTo(-1);
            assertThat(SharedRuntime.current().index().metricCount()).isEqualTo(1);
            assertThat(log.linesAt("ERROR"))
                    .anyMatch(l -> l.contains("metrics.reporter.insight.port"));
            metrics.close();
        }
    }

    @Test
    void aCallbackThatFailsIsLoggedAndNeverThrownIntoFlinkUnlessTheJvmIsFailing() throws Exception {
        try (TestingLogCapture log = new TestingLogCapture()) {
            MetricReporter metrics =
                    new InsightMetricReporterFactory()
                            .createMetricReporter(new java.util.Properties());
            metrics.open(config(freePort()));
            try {
                metrics.notifyOfAddedMetric(
                        new SimpleCounter(),
                        "numRecordsIn",
                        groupFailingWith(
                                new NoClassDefFoundError("a class of a closed user class loader")));
                assertThatThrownBy(
                                () ->
                                        metrics.notifyOfAddedMetric(
                                                new SimpleCounter(),
                                                "numRecordsIn",
                                                groupFailingWith(new StackOverflowError())))
                        .isInstanceOf(StackOverflowError.class);

                assertThat(log.linesAt("WARN"))
                        .containsExactly(
                                "WARN Flink Insight: indexing an added metric failed:"
                                        + " java.lang.NoClassDefFoundError: a class of a closed user class loader");
                assertThat(SharedRuntime.current().index().metricCount()).isZero();
            } finally {
                metrics.close();
            }
        }
    }

    @Test
    void brokenSpansAndEventsAreLoggedAtTheirReporterNeverThrown() throws Exception {
        Span broken =
                new Span() {
                    public String getScope() {
                        return "x";
                    }

                    public String getName() {
                        return "Checkpoint";
                    }

                    public long getStartTsMillis() {
                        return 0;
                    }

                    public long getEndTsMillis() {
                        return 0;
                    }

                    public Map<String, Object> getAttributes() {
                        throw new IllegalStateException("boom");
                    }

                    public List<Span> getChildren() {
                        return null;
                    }
                };
        Event nullName =
                new Event() {
                    public long getObservedTsMillis() {
                        return 0;
                    }

                    public String getName() {
                        return null;
                    }

                    public String getClassScope() {
                        return null;
                    }

                    public String getBody() {
                        return null;
                    }

                    public String getSeverity() {
                        return null;
                    }

                    public Map<String, Object> getAttributes() {
                        return null;
                    }
                };
        try (TestingLogCapture log = new TestingLogCapture()) {
            TraceReporter traces =
                    new InsightTraceReporterFactory()
                            .createTraceReporter(new java.util.Properties());
            EventReporter events =
                    new InsightEventReporterFactory()
                            .createEventReporter(new java.util.Properties());
            traces.open(config(freePort()));
            events.open(new MetricConfig());
            long failuresBefore = pluginFailures();
            try {
                traces.notifyOfAddedSpan(broken);
                events.notifyOfAddedEvent(nullName);
                traces.notifyOfAddedSpan(null);

                assertThat(pluginFailures() - failuresBefore).isEqualTo(3);
                assertThat(log.linesAt("WARN"))
                        .anyMatch(l -> l.startsWith("WARN Flink Insight: processing a span"))
                        .anyMatch(l -> l.startsWith("WARN Flink Insight: processing an event"));
            } finally {
                traces.close();
                events.close();
            }
        }
    }

    private static MetricGroup groupFailingWith(Error error) {
        return TestMetricGroup.newBuilder()
                .setLogicalScopeFunction(
                        (filter, delimiter) -> {
                            throw error;
                        })
                .build();
    }

    @Test
    void invalidOptionFailsOpenWithTheFullKeyAndStartsNothing() {
        MetricReporter metrics =
                new InsightMetricReporterFactory().createMetricReporter(new java.util.Properties());
        MetricConfig c = new MetricConfig();
        c.setProperty("history.max-series", "-1");

        assertThatThrownBy(() -> metrics.open(c))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics.reporter.insight.history.max-series");
        metrics.close(); // Flink may close a reporter whose open failed: must be harmless
    }

    @Test
    void overviewReportsRoleCountsAndPort() throws Exception {
        int port = freePort();
        MetricReporter metrics =
                new InsightMetricReporterFactory().createMetricReporter(new java.util.Properties());
        metrics.open(config(port));
        try {
            metrics.notifyOfAddedMetric(
                    new SimpleCounter(), "numRecordsIn", TestingGroups.taskGroup("0"));
            String body = get(port, "/api/v1/overview");

            assertThat(status(body)).isEqualTo(200);
            assertThat(body)
                    .contains(
                            "\"role\":\"taskmanager\"",
                            "\"metricCount\":1",
                            "\"port\":" + port,
                            "\"insightVersion\":\"0.1.0-SNAPSHOT\"");
            assertThat(get(port, "/api/v1/metrics?prefix=flink_taskmanager"))
                    .contains(
                            "\"name\":\"flink_taskmanager_job_task_numRecordsIn\"", "\"value\":0");
            assertThat(body).contains("\"flinkWebUrl\":null", "\"flinkDashboardPath\":null");
            String dashboard = get(port, "/flink/");
            assertThat(status(dashboard)).isEqualTo(404);
            assertThat(dashboard).contains("JobManager", "hub");
        } finally {
            metrics.close();
        }
    }

    @Test
    void hubLinksFlinksDashboardThroughItsProxyWithTheTab() throws Exception {
        int port = freePort();
        try (TestingFlinkWeb flink =
                new TestingFlinkWeb()
                        .on(
                                "/",
                                TestingFlinkWeb.Answer.of(
                                        "text/html",
                                        "<html><body><flink-root></flink-root></body></html>"))) {
            MetricConfig c = config(port);
            c.setProperty("role", "jobmanager");
            c.setProperty("hub.flink-rest-url", flink.baseUrl());
            MetricReporter metrics =
                    new InsightMetricReporterFactory()
                            .createMetricReporter(new java.util.Properties());
            metrics.open(c);
            try {
                String overview = get(port, "/api/v1/overview");
                String dashboard = get(port, "/flink/");

                assertThat(overview)
                        .contains(
                                "\"role\":\"jobmanager\"",
                                "\"flinkDashboardPath\":\"/flink/\"",
                                "\"flinkWebUrl\":\"" + flink.baseUrl() + "\"");
                assertThat(status(dashboard)).isEqualTo(200);
                assertThat(dashboard)
                        .contains(
                                "<flink-root></flink-root><script src=\"../insight-tab/tab.js\">"
                                        + "</script></body>");
            } finally {
                metrics.close();
            }
        }
    }

    /**
     * The failures counted by the plugin's own {@code FlinkBoundary}: failsafe runs this test on
     * the plugin's jar, where insight-common is relocated, so the class the test compiles against
     * is not the one the reporters count in.
     */
    private static long pluginFailures() throws ReflectiveOperationException {
        Class<?> boundary = InsightReporterBase.class.getDeclaredField("flinkCalls").getType();
        return (long) boundary.getMethod("failuresInProcess").invoke(null);
    }
}
