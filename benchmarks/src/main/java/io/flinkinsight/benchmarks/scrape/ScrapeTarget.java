package io.flinkinsight.benchmarks.scrape;

import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.metrics.reporter.Scheduled;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ServiceLoader;

/**
 * One reporter under test, started the way Flink starts a reporter: its factory found through
 * {@code META-INF/services} by class name, {@code createMetricReporter(options)}, then {@code
 * open(options)}.
 */
final class ScrapeTarget implements AutoCloseable {

    static final String LOOPBACK = "127.0.0.1";

    /** Benchmark parameter value to factory class name. */
    enum Kind {
        INSIGHT("io.flinkinsight.plugin.metrics.InsightMetricReporterFactory"),
        FLINK("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");

        private final String factoryClassName;

        Kind(String factoryClassName) {
            this.factoryClassName = factoryClassName;
        }
    }

    private final MetricReporter reporter;
    private final int port;

    private ScrapeTarget(MetricReporter reporter, int port) {
        this.reporter = reporter;
        this.port = port;
    }

    static ScrapeTarget start(Kind kind) throws IOException {
        int port = freeLoopbackPort();
        MetricConfig options = new MetricConfig();
        options.setProperty("port", Integer.toString(port));
        if (kind == Kind.INSIGHT) {
            options.setProperty("bind-host", LOOPBACK);
        }
        // Flink's PrometheusReporter ignores a bind host and listens on every interface; acceptable
        // for a
        // benchmark run, and the reason the comparison's client always goes to 127.0.0.1.
        MetricReporter reporter = factory(kind).createMetricReporter(options);
        reporter.open(options);
        return new ScrapeTarget(reporter, port);
    }

    MetricReporter reporter() {
        return reporter;
    }

    int port() {
        return port;
    }

    /**
     * Lets a scheduled reporter take the snapshot Flink's registry would trigger every reporting
     * interval.
     */
    void reportOnceIfScheduled() {
        if (reporter instanceof Scheduled scheduled) {
            scheduled.report();
        }
    }

    @Override
    public void close() {
        reporter.close();
    }

    private static MetricReporterFactory factory(Kind kind) {
        for (MetricReporterFactory factory : ServiceLoader.load(MetricReporterFactory.class)) {
            if (factory.getClass().getName().equals(kind.factoryClassName)) {
                return factory;
            }
        }
        throw new IllegalStateException(
                kind.factoryClassName + " is not on the class path as a MetricReporterFactory");
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }
}
