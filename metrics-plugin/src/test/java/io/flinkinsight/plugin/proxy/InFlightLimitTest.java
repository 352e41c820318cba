package io.flinkinsight.plugin.proxy;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightLimitTest {

    private final List<CompletableFuture<Void>> started = new ArrayList<>();

    private boolean submit(InFlightLimit limit) {
        return limit.submit(
                () -> {
                    CompletableFuture<Void> f = new CompletableFuture<>();
                    started.add(f);
                    return f;
                });
    }

    @Test
    void operationsBeyondTheLimitWaitAndStartInOrderAsOthersComplete() {
        InFlightLimit limit = new InFlightLimit(2, 10);
        for (int i = 0; i < 4; i++) {
            assertThat(submit(limit)).isTrue();
        }
        assertThat(started).hasSize(2);
        assertThat(limit.waiting()).isEqualTo(2);

        started.get(0).complete(null);
        assertThat(started).hasSize(3);
        started.get(1)
                .completeExceptionally(
                        new RuntimeException("failed operations free their slot too"));
        assertThat(started).hasSize(4);

        started.get(2).complete(null);
        started.get(3).complete(null);
        assertThat(limit.running()).isZero();
        assertThat(limit.waiting()).isZero();
    }

    @Test
    void fullWaitingLineRefusesWithoutStarting() {
        InFlightLimit limit = new InFlightLimit(1, 1);

        assertThat(submit(limit)).isTrue();
        assertThat(submit(limit)).isTrue();
        assertThat(submit(limit)).isFalse();
        assertThat(started).hasSize(1);
    }

    @Test
    void operationThatThrowsGivesItsSlotBack() {
        InFlightLimit limit = new InFlightLimit(1, 0);

        assertThat(
                        limit.submit(
                                () -> {
                                    throw new IllegalStateException("boom");
                                }))
                .isTrue();

        assertThat(limit.running()).isZero();
        assertThat(submit(limit)).isTrue();
    }
}
