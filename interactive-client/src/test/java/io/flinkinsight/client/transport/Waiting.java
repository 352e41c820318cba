package io.flinkinsight.client.transport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.fail;

/** Bounded waits for the tests. */
final class Waiting {

    static final Duration LIMIT = Duration.ofSeconds(20);

    private Waiting() {}

    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("Gave up after " + LIMIT.toSeconds() + " s waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }
}
