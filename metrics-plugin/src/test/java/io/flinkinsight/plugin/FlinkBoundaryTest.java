package io.flinkinsight.plugin;

import io.flinkinsight.plugin.store.TestingClock;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

class FlinkBoundaryTest {

    private final TestingClock clock = new TestingClock(1_000_000);
    private final FlinkBoundary boundary = new FlinkBoundary(LoggerFactory.getLogger(FlinkBoundaryTest.class), clock);

    @Test
    void aFailureIsCountedAndLoggedNamingTheCallAndNeverReachesTheCaller() {
        try (TestingLogCapture log = new TestingLogCapture()) {
            assertThatNoException().isThrownBy(() -> boundary.run("indexing an added metric", () -> {
                throw new IllegalStateException("boom");
            }));
            assertThatNoException().isThrownBy(() -> boundary.run("closing the metric reporter", () -> {
                throw new NoClassDefFoundError("a class of a closed user class loader");
            }));

            assertThat(boundary.failures()).isEqualTo(2);
            assertThat(log.linesAt("WARN")).containsExactly(
                    "WARN Flink Insight: indexing an added metric failed: java.lang.IllegalStateException: boom",
                    "WARN Flink Insight: closing the metric reporter failed: java.lang.NoClassDefFoundError:"
                            + " a class of a closed user class loader");
        }
    }

    @Test
    void everyBoundarysFailuresAddUpInTheProcessWideFigure() {
        FlinkBoundary other = new FlinkBoundary(LoggerFactory.getLogger(FlinkBoundaryTest.class), clock);
        long before = FlinkBoundary.failuresInProcess();

        boundary.run("indexing an added metric", () -> {
            throw new IllegalStateException("boom");
        });
        other.runScheduled("sampling metrics", () -> {
            throw new StackOverflowError();
        });
        other.run("indexing an added metric", () -> {});

        assertThat(boundary.failures()).isEqualTo(1);
        assertThat(other.failures()).isEqualTo(1);
        // At least: runtimes other test classes left running may fail on their own threads meanwhile.
        assertThat(FlinkBoundary.failuresInProcess() - before).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aCallThatSucceedsRunsOnceAndCountsNothing() {
        int[] runs = {0};

        boundary.run("a sampling round", () -> runs[0]++);

        assertThat(runs[0]).isEqualTo(1);
        assertThat(boundary.failures()).isZero();
    }

    @Test
    void virtualMachineErrorsReachTheCallerForFlinksFatalErrorHandling() {
        assertThatThrownBy(() -> boundary.run("indexing an added metric", () -> {
            throw new OutOfMemoryError("Java heap space");
        })).isInstanceOf(OutOfMemoryError.class);
        assertThatThrownBy(() -> boundary.run("indexing an added metric", () -> {
            throw new StackOverflowError();
        })).isInstanceOf(StackOverflowError.class);
        assertThat(boundary.failures()).isZero();
    }

    @Test
    void onTheSchedulersOwnThreadAVirtualMachineErrorIsCountedNotThrownSoTheNextRunStillHappens() {
        java.util.concurrent.ScheduledExecutorService executor =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        java.util.concurrent.CountDownLatch threeRuns = new java.util.concurrent.CountDownLatch(3);
        try {
            executor.scheduleAtFixedRate(() -> boundary.runScheduled("a sampling round", () -> {
                threeRuns.countDown();
                throw new OutOfMemoryError("Java heap space");
            }), 0, 10, java.util.concurrent.TimeUnit.MILLISECONDS);

            assertThat(threeRuns.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(boundary.failures()).isGreaterThanOrEqualTo(2);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void repeatedFailuresLogOncePerMinutePerKindOfCallAndSayHowManyWereSuppressed() {
        Runnable failing = () -> {
            throw new IllegalStateException("boom");
        };
        try (TestingLogCapture log = new TestingLogCapture()) {
            for (int i = 0; i < 100; i++) {
                boundary.run("processing a span", failing);
                boundary.run("processing an event", failing);
            }
            clock.advance(59_999);
            boundary.run("processing a span", failing);
            assertThat(log.linesAt("WARN")).hasSize(2);

            clock.advance(1);
            boundary.run("processing a span", failing);

            assertThat(boundary.failures()).isEqualTo(202);
            assertThat(log.linesAt("WARN")).containsExactly(
                    "WARN Flink Insight: processing a span failed: java.lang.IllegalStateException: boom",
                    "WARN Flink Insight: processing an event failed: java.lang.IllegalStateException: boom",
                    "WARN Flink Insight: processing a span failed (100 similar warnings suppressed):"
                            + " java.lang.IllegalStateException: boom");
        }
    }
}
