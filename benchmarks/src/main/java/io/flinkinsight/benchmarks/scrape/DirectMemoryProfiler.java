package io.flinkinsight.benchmarks.scrape;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

/**
 * The peak of the JVM's direct buffer pool ({@code BufferPoolMXBean} "direct", what {@code
 * -XX:MaxDirectMemorySize} caps) during each iteration, read every millisecond by a daemon thread.
 * Netty's pooled arenas count there too when Netty allocates through {@code
 * ByteBuffer.allocateDirect}.
 *
 * <p>Use with {@code -prof io.flinkinsight.benchmarks.scrape.DirectMemoryProfiler}.
 */
public final class DirectMemoryProfiler implements InternalProfiler {

    private final BufferPoolMXBean direct =
            ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                    .filter(pool -> pool.getName().equals("direct"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no direct buffer pool MXBean"));
    private volatile boolean sampling;
    private volatile long peak;
    private Thread sampler;

    @Override
    public String getDescription() {
        return "Peak of the direct buffer pool (BufferPoolMXBean \"direct\") per iteration, sampled every 1 ms";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        peak = direct.getMemoryUsed();
        sampling = true;
        sampler =
                new Thread(
                        () -> {
                            while (sampling) {
                                peak = Math.max(peak, direct.getMemoryUsed());
                                try {
                                    Thread.sleep(1);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "direct-memory-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams,
            IterationParams iterationParams,
            IterationResult result) {
        sampling = false;
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of(
                new ScalarResult("direct.peak", peak, "B", AggregationPolicy.MAX),
                new ScalarResult("direct.max", maxDirectMemory(), "B", AggregationPolicy.MAX));
    }

    /**
     * The cap in force: -XX:MaxDirectMemorySize, or the heap's maximum when not set (the JDK's
     * default).
     */
    private static long maxDirectMemory() {
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
                String v = arg.substring(arg.indexOf('=') + 1).toLowerCase(java.util.Locale.ROOT);
                long unit =
                        v.endsWith("g")
                                ? 1L << 30
                                : v.endsWith("m") ? 1L << 20 : v.endsWith("k") ? 1L << 10 : 1;
                return Long.parseLong(unit == 1 ? v : v.substring(0, v.length() - 1)) * unit;
            }
        }
        return Runtime.getRuntime().maxMemory();
    }
}
