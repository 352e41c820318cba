package io.flinkinsight.benchmarks.scrape;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits allocation per scrape between the scraping client (JMH's worker thread) and everything
 * else in the JVM, which is the reporter's HTTP server threads: JMH's {@code gc.alloc.rate.norm}
 * sums all threads without saying whose bytes they are. Also reports the body size the benchmark
 * last read.
 *
 * <p>Use with {@code -prof io.flinkinsight.benchmarks.scrape.ScrapeAllocationProfiler}.
 */
public final class ScrapeAllocationProfiler implements InternalProfiler {

    private static final String WORKER_THREAD_MARKER = "jmh-worker";

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private long totalBefore;
    private Map<Long, Long> workerBefore = Map.of();

    @Override
    public String getDescription() {
        return "Allocation per scrape split into client (JMH worker threads) and server (all other threads)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        totalBefore = threads.getTotalThreadAllocatedBytes();
        workerBefore = workerAllocations();
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams,
            IterationParams iterationParams,
            IterationResult result) {
        long total = threads.getTotalThreadAllocatedBytes() - totalBefore;
        long client = 0;
        for (Map.Entry<Long, Long> worker : workerAllocations().entrySet()) {
            client += worker.getValue() - workerBefore.getOrDefault(worker.getKey(), 0L);
        }
        double operations = Math.max(1, result.getMetadata().getAllOps());
        return List.of(
                new ScalarResult(
                        "alloc.client.norm", client / operations, "B/op", AggregationPolicy.AVG),
                new ScalarResult(
                        "alloc.server.norm",
                        (total - client) / operations,
                        "B/op",
                        AggregationPolicy.AVG),
                new ScalarResult(
                        "body.bytes", ScrapeBenchmark.lastBodyBytes(), "B", AggregationPolicy.MAX));
    }

    private Map<Long, Long> workerAllocations() {
        long[] ids = threads.getAllThreadIds();
        long[] allocated = threads.getThreadAllocatedBytes(ids);
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<Long, Long> workers = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null
                    && infos[i].getThreadName().contains(WORKER_THREAD_MARKER)
                    && allocated[i] >= 0) {
                workers.put(ids[i], allocated[i]);
            }
        }
        return workers;
    }
}
