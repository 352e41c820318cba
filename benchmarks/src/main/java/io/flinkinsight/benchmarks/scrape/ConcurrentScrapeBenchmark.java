package io.flinkinsight.benchmarks.scrape;

import io.flinkinsight.benchmarks.fixture.OperatorMetricsFixture;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Eight scrapers at once against one reporter holding many metrics, in a JVM whose direct memory is
 * capped as a TaskManager's is: every {@code GET /metrics} must answer 200 with the whole body (any
 * other status or a cut body fails the run). Time is per scrape as each scraper sees it (waiting
 * for a render turn included); use with {@link DirectMemoryProfiler} for the direct buffer pool's
 * peak.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(8)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:MaxDirectMemorySize=64m"})
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
public class ConcurrentScrapeBenchmark {

    @Param({"200000"})
    public int series;

    @Param({"insight", "flink"})
    public String reporter;

    private ScrapeTarget target;
    private long expectedBodyBytes;

    /** One kept-alive connection per scraper thread. */
    @State(Scope.Thread)
    public static class Scraper {
        KeepAliveHttpClient client;

        @Setup(Level.Trial)
        public void connect(ConcurrentScrapeBenchmark benchmark) {
            client =
                    new KeepAliveHttpClient(
                            ScrapeTarget.LOOPBACK, benchmark.target.port(), "/metrics");
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            client.close();
        }
    }

    @Setup
    public void setUp() throws IOException, InterruptedException {
        OperatorMetricsFixture fixture = OperatorMetricsFixture.build(series);
        target = ScrapeTarget.start(ScrapeTarget.Kind.valueOf(reporter.toUpperCase(Locale.ROOT)));
        fixture.registerWith(target.reporter());
        target.reportOnceIfScheduled();
        KeepAliveHttpClient first =
                new KeepAliveHttpClient(ScrapeTarget.LOOPBACK, target.port(), "/metrics");
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            first.firstGet(body);
            ScrapeBodyCheck.Result check = ScrapeBodyCheck.check(body.toByteArray(), fixture);
            System.out.println("[" + reporter + ", " + series + " metrics] first scrape: " + check);
            if (!check.holdsEveryMetricOnce()) {
                throw new IllegalStateException(
                        reporter + " does not expose every registered metric once: " + check);
            }
            expectedBodyBytes = check.bodyBytes();
            ScrapeBenchmark.recordBodyBytes(expectedBodyBytes);
        } finally {
            first.close();
        }
    }

    @Benchmark
    public long scrape(Scraper scraper) throws IOException {
        long bytes = scraper.client.get(null);
        // Values change between scrapes, so the size may too, but never by a tenth: a cut body
        // fails the run.
        if (Math.abs(bytes - expectedBodyBytes) > expectedBodyBytes / 10) {
            throw new IOException(
                    "scrape of " + bytes + " bytes, expected about " + expectedBodyBytes);
        }
        return bytes;
    }

    @TearDown
    public void tearDown() {
        if (target != null) {
            target.close();
        }
    }
}
