package io.flinkinsight.client;

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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkBoundaryTest {

    private static final String LOGGER = FlinkBoundaryTest.class.getName();

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final FlinkBoundary boundary = new FlinkBoundary(LoggerFactory.getLogger(LOGGER), nanos::get);
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
    void aFailureIsLoggedNamingTheCallAndNeverReachesTheCaller() {
        assertThatNoException().isThrownBy(() -> boundary.run("closing a cluster client", () -> {
            throw new IllegalStateException("boom");
        }));

        assertThat(lines).containsExactly(
                "WARN Flink Insight interactive client: closing a cluster client failed (logged at most once a"
                        + " minute).");
    }

    @Test
    void virtualMachineErrorsAreLoggedAtErrorEveryTimeAndTheThreadGoesOn() {
        for (int i = 0; i < 2; i++) {
            assertThatNoException().isThrownBy(() -> boundary.run("evicting expired cluster clients", () -> {
                throw new OutOfMemoryError("unable to create native thread");
            }));
        }

        assertThat(lines).containsExactly(
                "ERROR Flink Insight interactive client: evicting expired cluster clients failed with a JVM error.",
                "ERROR Flink Insight interactive client: evicting expired cluster clients failed with a JVM error.");
    }

    @Test
    void repeatedFailuresWarnOncePerMinutePerKindOfCallAndAtDebugInBetween() {
        Runnable failing = () -> {
            throw new IllegalStateException("boom");
        };
        for (int i = 0; i < 10; i++) {
            boundary.run("a transport listener", failing);
        }
        boundary.run("closing a cluster client", failing);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(59));
        boundary.run("a transport listener", failing);
        assertThat(lines.stream().filter(l -> l.startsWith("WARN"))).hasSize(2);
        assertThat(lines.stream().filter(l -> l.startsWith("DEBUG"))).hasSize(10);

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        boundary.run("a transport listener", failing);

        assertThat(lines.stream().filter(l -> l.startsWith("WARN"))).containsExactly(
                "WARN Flink Insight interactive client: a transport listener failed (logged at most once a minute).",
                "WARN Flink Insight interactive client: closing a cluster client failed (logged at most once a"
                        + " minute).",
                "WARN Flink Insight interactive client: a transport listener failed (logged at most once a minute).");
    }

    @Test
    void aFailingTaskOfTheClientsSchedulerIsGuardedRatherThanLostInItsFuture() {
        InteractiveClientRuntime.GuardedScheduler scheduler =
                new InteractiveClientRuntime.GuardedScheduler(Executors.defaultThreadFactory());
        Runnable failing = () -> {
            throw new IllegalStateException("a task's bug");
        };
        try {
            assertThatNoException().isThrownBy(
                    () -> scheduler.schedule(failing, 0, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS));
        } finally {
            scheduler.shutdownNow();
        }
    }
}
