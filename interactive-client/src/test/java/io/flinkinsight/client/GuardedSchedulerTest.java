package io.flinkinsight.client;

import org.junit.jupiter.api.Test;

import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThatNoException;

class GuardedSchedulerTest {

    @Test
    void aFailingTaskOfTheClientsSchedulerIsGuardedRatherThanLostInItsFuture() {
        InteractiveClientRuntime.GuardedScheduler scheduler =
                new InteractiveClientRuntime.GuardedScheduler(Executors.defaultThreadFactory());
        Runnable failing =
                () -> {
                    throw new IllegalStateException("a task's bug");
                };
        try {
            assertThatNoException()
                    .isThrownBy(
                            () ->
                                    scheduler
                                            .schedule(failing, 0, TimeUnit.MILLISECONDS)
                                            .get(10, TimeUnit.SECONDS));
        } finally {
            scheduler.shutdownNow();
        }
    }
}
