package io.flinkinsight.it.ecosystem;

import io.flinkinsight.client.metrics.ClientMetrics;
import io.flinkinsight.client.metrics.InsightClientMetricGroup;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.runtime.InsightRuntime;
import io.flinkinsight.plugin.runtime.SharedRuntime;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.checkpoint.DefaultCheckpointStatsTracker;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.MetricRegistryConfiguration;
import org.apache.flink.runtime.metrics.MetricRegistryImpl;
import org.apache.flink.runtime.metrics.ReporterSetupBuilder;
import org.apache.flink.runtime.metrics.filter.DefaultReporterFilters;
import org.apache.flink.runtime.metrics.groups.JobManagerJobMetricGroup;
import org.apache.flink.runtime.metrics.groups.JobManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskManagerJobMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.util.LatencyStats;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The metric names the plugin exports for what the ecosystem files use, learnt from a real scrape:
 * one Flink metric registry in this JVM with the plugin as its configured reporter (as in a Flink
 * process), on which Flink's own code registers its metrics — a JobManager job's checkpoint
 * statistics ({@link DefaultCheckpointStatsTracker}), a TaskManager job's latency tracking ({@link
 * LatencyStats}, granularity operator, Flink's default) — and the interactive client registers its
 * figures ({@link ClientMetrics} under {@link InsightClientMetricGroup}). Then the plugin's own
 * {@code /metrics} is read over HTTP and every sample name in it kept (so summaries' {@code _count}
 * and the plugin's {@code flink_insight_*} figures are in, and what the plugin does not export is
 * not).
 */
final class ExportedNames {

    /** Series Prometheus itself adds to every target; the dashboard may use them. */
    static final Set<String> MADE_BY_PROMETHEUS =
            Set.of(
                    "up",
                    "scrape_duration_seconds",
                    "scrape_samples_scraped",
                    "scrape_samples_post_metric_relabeling",
                    "scrape_series_added");

    private static Set<String> names;

    private ExportedNames() {}

    static synchronized Set<String> fromARealScrape() throws Exception {
        if (names == null) {
            names = Collections.unmodifiableSet(scrape());
        }
        return names;
    }

    private static Set<String> scrape() throws Exception {
        Configuration conf = new Configuration();
        String prefix = "metrics.reporter.insight.";
        conf.setString(prefix + "factory.class", InsightMetricReporterFactory.class.getName());
        conf.setString(prefix + "port", "0");
        conf.setString(prefix + "bind-host", "127.0.0.1");
        conf.setString(prefix + "hub.enabled", "false");
        // The job registered below is seconds old when it is scraped: every series at once, so the
        // names the ecosystem files use are all in the scrape.
        conf.setString(prefix + "scrape.job-series.min-age", "0");
        MetricRegistryImpl registry =
                new MetricRegistryImpl(
                        MetricRegistryConfiguration.fromConfiguration(conf, Long.MAX_VALUE),
                        ReporterSetupBuilder.METRIC_SETUP_BUILDER.fromConfiguration(
                                conf,
                                DefaultReporterFilters::metricsFromConfiguration,
                                PluginUtils.createPluginManagerFromRootFolder(conf)));
        try {
            JobID jobId = new JobID();
            JobManagerJobMetricGroup jmJob =
                    JobManagerMetricGroup.createJobManagerMetricGroup(registry, "jm-host")
                            .addJob(jobId, "orders");
            new DefaultCheckpointStatsTracker(10, jmJob);

            TaskManagerJobMetricGroup tmJob =
                    TaskManagerMetricGroup.createTaskManagerMetricGroup(
                                    registry, "tm-host", ResourceID.generate())
                            .addJob(jobId, "orders");
            // As AbstractStreamOperator does: a "latency" group under the task's group.
            new LatencyStats(
                            tmJob.addTask(ExecutionAttemptID.randomId(), "keyed-aggregation")
                                    .addGroup("latency"),
                            128,
                            0,
                            new OperatorID(),
                            LatencyStats.Granularity.OPERATOR)
                    .reportLatency(
                            new LatencyMarker(System.currentTimeMillis() - 5, new OperatorID(), 0));

            ClientMetrics client =
                    new ClientMetrics()
                            .registerOn(new InsightClientMetricGroup(registry, "gw-host"));
            for (var h :
                    new org.apache.flink.metrics.Histogram[] {
                        client.requestLatencyMs,
                        client.retriesPerQuery,
                        client.e2eLatencyMs,
                        client.submitMs,
                        client.admissionWaitMs,
                        client.jobStartWaitMs,
                        client.clusterRunMs,
                        client.resultFetchMs
                    }) {
                h.update(1);
            }

            InsightRuntime runtime = SharedRuntime.current();
            if (runtime == null || runtime.port() <= 0) {
                throw new AssertionError("the plugin did not start its HTTP server in this JVM");
            }
            HttpResponse<String> response =
                    HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(5))
                            .build()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:"
                                                                    + runtime.port()
                                                                    + "/metrics"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        "/metrics answered " + response.statusCode() + ": " + response.body());
            }
            Set<String> out = new TreeSet<>();
            for (String line : response.body().split("\n")) {
                if (!line.isEmpty() && !line.startsWith("#")) {
                    int end = 0;
                    while (end < line.length()
                            && line.charAt(end) != '{'
                            && line.charAt(end) != ' ') {
                        end++;
                    }
                    out.add(line.substring(0, end));
                }
            }
            return out;
        } finally {
            registry.closeAsync().get();
        }
    }
}
