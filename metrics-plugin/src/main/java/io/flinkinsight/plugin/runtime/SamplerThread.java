package io.flinkinsight.plugin.runtime;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.OwnThreads;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The plugin's one scheduled thread: every {@code history.resolution}, a sampling round into the
 * history (while the process keeps one), then a pass keeping the stores within their budget, each
 * guarded on its own so that a failed sampling never skips the budget.
 */
final class SamplerThread implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SamplerThread.class);

    private final Runnable sample;
    private final Runnable keepWithinBudget;
    private final BooleanSupplier keepsHistory;
    private final FlinkBoundary rounds;
    private final ScheduledThreadPoolExecutor executor;

    /**
     * Starts at the next multiple of {@code resolutionMillis} on {@code clock}, so all processes
     * sample at the same instants.
     */
    SamplerThread(
            Runnable sample,
            Runnable keepWithinBudget,
            BooleanSupplier keepsHistory,
            Clock clock,
            long resolutionMillis) {
        this.sample = sample;
        this.keepWithinBudget = keepWithinBudget;
        this.keepsHistory = keepsHistory;
        this.rounds = new FlinkBoundary(LOG, clock);
        this.executor = OwnThreads.scheduler("flink-insight-sampler");
        long delay = resolutionMillis - Math.floorMod(clock.millis(), resolutionMillis);
        executor.scheduleAtFixedRate(this::round, delay, resolutionMillis, TimeUnit.MILLISECONDS);
    }

    private void round() {
        if (keepsHistory.getAsBoolean()) {
            rounds.runScheduled("a sampling round", sample);
        }
        rounds.runScheduled("a pass keeping the stores within their budget", keepWithinBudget);
    }

    /**
     * Stops the thread and waits for a round in progress, which finishes within milliseconds: no
     * thread of the plugin's class loader outlives close (a restart in the same JVM would otherwise
     * find two samplers).
     */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn(
                        "Flink Insight: the sampler did not stop within 2 s; leaving it as a daemon thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
