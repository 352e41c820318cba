package org.apache.flink.metrics.prometheus;

import org.apache.flink.metrics.MetricConfig;

import io.prometheus.client.exporter.common.TextFormat;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Flink 2.2's own Prometheus reporter logic without its HTTP server (which binds all interfaces),
 * so tests can compare our names and labels with Flink's. Lives in Flink's package to read the
 * reporter's registry.
 */
public final class FlinkPrometheusText extends AbstractPrometheusReporter {

    public FlinkPrometheusText() {
        open(new MetricConfig());
    }

    /** The text 0.0.4 body Flink's PrometheusReporter would serve. */
    public String scrape() {
        StringWriter out = new StringWriter();
        try {
            TextFormat.write004(out, registry.metricFamilySamples());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
