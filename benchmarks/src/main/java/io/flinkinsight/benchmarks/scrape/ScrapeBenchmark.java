package io.flinkinsight.benchmarks.scrape;

import io.flinkinsight.benchmarks.fixture.OperatorMetricsFixture;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Time and allocation of one full {@code GET /metrics} over a keep-alive connection, for the same
 * operator metrics registered into Flink's PrometheusReporter (of the primary version) or into
 * Flink Insight's metric reporter. Each parameter pair runs in its own forked JVM, so the two HTTP
 * servers never share a process.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 8, time = 5)
public class ScrapeBenchmark {

    private static volatile long lastBodyBytes;

    /** Registered metrics (one histogram in twenty prints several series). */
    @Param({"10000", "100000"})
    public int series;

    @Param({"insight", "flink"})
    public String reporter;

    private ScrapeTarget target;
    private KeepAliveHttpClient client;

    @Setup
    public void setUp() throws IOException, InterruptedException {
        OperatorMetricsFixture fixture = OperatorMetricsFixture.build(series);
        target = ScrapeTarget.start(ScrapeTarget.Kind.valueOf(reporter.toUpperCase(Locale.ROOT)));
        fixture.registerWith(target.reporter());
        target.reportOnceIfScheduled();
        client = new KeepAliveHttpClient(ScrapeTarget.LOOPBACK, target.port(), "/metrics");

        ByteArrayOutputStream body = new ByteArrayOutputStream();
        client.firstGet(body);
        ScrapeBodyCheck.Result check = ScrapeBodyCheck.check(body.toByteArray(), fixture);
        System.out.println("[" + reporter + ", " + series + " metrics] first scrape: " + check);
        if (!check.holdsEveryMetricOnce()) {
            throw new IllegalStateException(
                    reporter + " does not expose every registered metric once: " + check);
        }
        lastBodyBytes = check.bodyBytes();
    }

    @Benchmark
    public long scrape() throws IOException {
        long bytes = client.get(null);
        lastBodyBytes = bytes;
        return bytes;
    }

    @TearDown
    public void tearDown() throws IOException {
        if (client != null) {
            client.close();
        }
        if (target != null) {
            target.close();
        }
    }

    static long lastBodyBytes() {
        return lastBodyBytes;
    }

    /** For the other scrape benchmarks, whose body size the allocation profiler reports too. */
    static void recordBodyBytes(long bytes) {
        lastBodyBytes = bytes;
    }
}
