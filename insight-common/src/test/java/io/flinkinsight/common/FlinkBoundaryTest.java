package io.flinkinsight.common;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkBoundaryTest {

    private static final String LOGGER = FlinkBoundaryTest.class.getName();

    private final ManualClock clock = new ManualClock(1_000_000);
    private final FlinkBoundary boundary =
            new FlinkBoundary(LoggerFactory.getLogger(LOGGER), clock);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AbstractAppender capture =
            new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
                @Override
                public void append(LogEvent event) {
                    lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
                }
            };

    @BeforeEach
    void captureTheLog() {
        capture.start();
        Logger logger = (Logger) LogManager.getLogger(LOGGER);
        logger.addAppender(capture);
        logger.setLevel(Level.DEBUG);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LogManager.getLogger(LOGGER)).removeAppender(capture);
        capture.stop();
    }

    @Test
    void aFailureIsCountedAndLoggedNamingTheCallAndNeverReachesTheCaller() {
        assertThatNoException()
                .isThrownBy(
                        () ->
                                boundary.run(
                                        "indexing an added metric",
                                        () -> {
                                            throw new IllegalStateException("boom");
                                        }));
        assertThatNoException()
                .isThrownBy(
                        () ->
                                boundary.run(
                                        "closing the metric reporter",
                                        () -> {
                                            throw new NoClassDefFoundError(
                                                    "a class of a closed user class loader");
                                        }));

        assertThat(boundary.failures()).isEqualTo(2);
        assertThat(linesAt("WARN"))
                .containsExactly(
                        "WARN Flink Insight: indexing an added metric failed: java.lang.IllegalStateException: boom",
                        "WARN Flink Insight: closing the metric reporter failed: java.lang.NoClassDefFoundError:"
                                + " a class of a closed user class loader");
    }

    @Test
    void theMessagesNameTheComponentTheBoundaryWasMadeFor() {
        FlinkBoundary client =
                new FlinkBoundary(
                        "Flink Insight interactive client", LoggerFactory.getLogger(LOGGER), clock);

        client.runScheduled(
                "closing a cluster client",
                () -> {
                    throw new IllegalStateException("boom");
                });

        assertThat(linesAt("WARN"))
                .containsExactly(
                        "WARN Flink Insight interactive client: closing a cluster client failed:"
                                + " java.lang.IllegalStateException: boom");
    }

    @Test
    void everyBoundarysFailuresAddUpInTheProcessWideFigure() {
        FlinkBoundary other = new FlinkBoundary(LoggerFactory.getLogger(LOGGER), clock);
        long before = FlinkBoundary.failuresInProcess();

        boundary.run(
                "indexing an added metric",
                () -> {
                    throw new IllegalStateException("boom");
                });
        other.runScheduled(
                "sampling metrics",
                () -> {
                    throw new StackOverflowError();
                });
        other.run("indexing an added metric", () -> {});

        assertThat(boundary.failures()).isEqualTo(1);
        assertThat(other.failures()).isEqualTo(1);
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
    void onFlinksThreadsVirtualMachineErrorsReachTheCallerForFlinksFatalErrorHandling() {
        assertThatThrownBy(
                        () ->
                                boundary.run(
                                        "indexing an added metric",
                                        () -> {
                                            throw new OutOfMemoryError("Java heap space");
                                        }))
                .isInstanceOf(OutOfMemoryError.class);
        assertThatThrownBy(
                        () ->
                                boundary.run(
                                        "indexing an added metric",
                                        () -> {
                                            throw new StackOverflowError();
                                        }))
                .isInstanceOf(StackOverflowError.class);
        assertThat(boundary.failures()).isZero();
    }

    @Test
    void onOurOwnThreadsAVirtualMachineErrorIsCountedAndLoggedAtErrorEveryTimeNotThrown() {
        Runnable guarded =
                boundary.guarded(
                        "evicting expired cluster clients",
                        () -> {
                            throw new OutOfMemoryError("unable to create native thread");
                        });

        assertThatNoException().isThrownBy(guarded::run);
        assertThatNoException().isThrownBy(guarded::run);

        assertThat(boundary.failures()).isEqualTo(2);
        assertThat(linesAt("ERROR"))
                .containsExactly(
                        "ERROR Flink Insight: evicting expired cluster clients failed with a JVM error; the thread goes on.",
                        "ERROR Flink Insight: evicting expired cluster clients failed with a JVM error; the thread goes on.");
    }

    @Test
    void
            repeatedFailuresWarnOncePerMinutePerKindOfCallAtDebugInBetweenAndSayHowManyWereSuppressed() {
        Runnable failing =
                () -> {
                    throw new IllegalStateException("boom");
                };
        for (int i = 0; i < 100; i++) {
            boundary.run("processing a span", failing);
            boundary.run("processing an event", failing);
        }
        clock.advance(59_999);
        boundary.run("processing a span", failing);
        assertThat(linesAt("WARN")).hasSize(2);
        assertThat(linesAt("DEBUG")).hasSize(199);

        clock.advance(1);
        boundary.run("processing a span", failing);

        assertThat(boundary.failures()).isEqualTo(202);
        assertThat(linesAt("WARN"))
                .containsExactly(
                        "WARN Flink Insight: processing a span failed: java.lang.IllegalStateException: boom",
                        "WARN Flink Insight: processing an event failed: java.lang.IllegalStateException: boom",
                        "WARN Flink Insight: processing a span failed (100 similar warnings suppressed):"
                                + " java.lang.IllegalStateException: boom");
    }

    private List<String> linesAt(String level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    /** A clock the test moves by hand, so the once-a-minute warning is tested without sleeping. */
    private static final class ManualClock extends Clock {

        private final AtomicLong millis;

        ManualClock(long startMillis) {
            this.millis = new AtomicLong(startMillis);
        }

        void advance(long deltaMillis) {
            millis.addAndGet(deltaMillis);
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
