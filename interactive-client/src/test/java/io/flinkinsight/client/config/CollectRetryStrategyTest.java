package io.flinkinsight.client.config;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CollectRetryStrategyTest {

    private static List<Long> delays(CollectRetryStrategy strategy, int count) {
        List<Long> delays = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            delays.add(strategy.delayMillis(i));
        }
        return delays;
    }

    /**
     * The strategy the {@code collect-strategy.*} options of {@code conf} select, as the client
     * reads them.
     */
    private static CollectRetryStrategy fromConfiguration(Configuration conf) {
        return InteractiveClientSettings.fromConfiguration(conf).collectStrategy();
    }

    private static Configuration conf(String... keyValues) {
        Configuration conf = new Configuration();
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.setString(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    @Test
    void defaultIsIncrementalFromFiveUpToFiftyMilliseconds() {
        CollectRetryStrategy strategy = fromConfiguration(new Configuration());

        assertThat(strategy.type()).isEqualTo(CollectRetryStrategy.Type.INCREMENTAL);
        assertThat(delays(strategy, 12))
                .containsExactly(5L, 10L, 15L, 20L, 25L, 30L, 35L, 40L, 45L, 50L, 50L, 50L);
    }

    @Test
    void fixedAloneIsFlinksOwnHundredMilliseconds() {
        CollectRetryStrategy strategy = fromConfiguration(conf("collect-strategy.type", "fixed"));

        assertThat(strategy.type()).isEqualTo(CollectRetryStrategy.Type.FIXED);
        assertThat(delays(strategy, 4)).containsExactly(100L, 100L, 100L, 100L);
    }

    @Test
    void fixedDelayIsConfigurable() {
        CollectRetryStrategy strategy =
                fromConfiguration(
                        conf(
                                "collect-strategy.type",
                                "fixed",
                                "collect-strategy.fixed-delay.delay",
                                "25 ms"));

        assertThat(delays(strategy, 3)).containsExactly(25L, 25L, 25L);
    }

    @Test
    void exponentialDelaysGrowByTheMultiplierUpToTheMaximum() {
        CollectRetryStrategy strategy =
                fromConfiguration(
                        conf(
                                "collect-strategy.type", "exponential",
                                "collect-strategy.exponential-delay.initial-backoff", "100 ms",
                                "collect-strategy.exponential-delay.max-backoff", "1 s",
                                "collect-strategy.exponential-delay.backoff-multiplier", "2.0"));

        assertThat(delays(strategy, 7))
                .containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L, 1000L);
    }

    @Test
    void exponentialDefaultsWaitAFixedHundredMilliseconds() {
        CollectRetryStrategy strategy =
                fromConfiguration(conf("collect-strategy.type", "exponential"));

        // initial 100 ms, multiplier 1.0, max 1 s: choosing exponential alone keeps Flink's fixed
        // 100 ms
        assertThat(delays(strategy, 3)).containsExactly(100L, 100L, 100L);
    }

    @Test
    void incrementalDelaysGrowByTheIncrementUpToTheMaximum() {
        CollectRetryStrategy strategy =
                fromConfiguration(
                        conf(
                                "collect-strategy.type", "INCREMENTAL",
                                "collect-strategy.incremental-delay.initial-delay", "200 ms",
                                "collect-strategy.incremental-delay.increment", "100 ms",
                                "collect-strategy.incremental-delay.max-delay", "700 ms"));

        assertThat(delays(strategy, 8))
                .containsExactly(200L, 300L, 400L, 500L, 600L, 700L, 700L, 700L);
    }

    @Test
    void delaysStartOverAfterTheConfiguredAttempts() {
        CollectRetryStrategy strategy =
                fromConfiguration(
                        conf(
                                "collect-strategy.type", "incremental",
                                "collect-strategy.incremental-delay.initial-delay", "10 ms",
                                "collect-strategy.incremental-delay.increment", "10 ms",
                                "collect-strategy.incremental-delay.max-delay", "100 ms",
                                "collect-strategy.incremental-delay.attempts", "3"));

        assertThat(delays(strategy, 7)).containsExactly(10L, 20L, 30L, 10L, 20L, 30L, 10L);
    }

    @Test
    void hugeRetryCountsStayAtTheMaximum() {
        CollectRetryStrategy exponential =
                CollectRetryStrategy.exponential(
                        Duration.ofMillis(1), Duration.ofMinutes(10), 100.0, Integer.MAX_VALUE);
        CollectRetryStrategy incremental =
                CollectRetryStrategy.incremental(
                        Duration.ofMillis(1),
                        Duration.ofMinutes(1),
                        Duration.ofMinutes(10),
                        Integer.MAX_VALUE);

        assertThat(exponential.delayMillis(Integer.MAX_VALUE)).isEqualTo(600_000L);
        assertThat(incremental.delayMillis(1_000_000_000L)).isEqualTo(600_000L);
    }

    @Test
    void unknownTypeNamesTheKeyAndTheAcceptedValues() {
        assertThatThrownBy(() -> fromConfiguration(conf("collect-strategy.type", "linear")))
                .hasMessageContaining("collect-strategy.type")
                .hasMessageContaining("'linear'")
                .hasMessageContaining("fixed, exponential, incremental");
    }

    @Test
    void zeroFixedDelayIsRejected() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type",
                                                "fixed",
                                                "collect-strategy.fixed-delay.delay",
                                                "0 ms")))
                .hasMessageContaining("collect-strategy.fixed-delay.delay")
                .hasMessageContaining("between 1 ms and 1 min");
    }

    @Test
    void unparsableDelayIsRejectedWithTheAcceptedRange() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type",
                                                "fixed",
                                                "collect-strategy.fixed-delay.delay",
                                                "soon")))
                .hasMessageContaining("'soon'")
                .hasMessageContaining("collect-strategy.fixed-delay.delay")
                .hasMessageContaining("a duration between 1 ms and 1 min");
    }

    @Test
    void exponentialMaximumBelowTheInitialBackoffIsRejected() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type", "exponential",
                                                "collect-strategy.exponential-delay.initial-backoff",
                                                        "500 ms",
                                                "collect-strategy.exponential-delay.max-backoff",
                                                        "100 ms")))
                .hasMessageContaining("collect-strategy.exponential-delay.max-backoff")
                .hasMessageContaining("between 500 ms and 10 min");
    }

    @Test
    void shrinkingExponentialMultiplierIsRejected() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type", "exponential",
                                                "collect-strategy.exponential-delay.backoff-multiplier",
                                                        "0.5")))
                .hasMessageContaining("collect-strategy.exponential-delay.backoff-multiplier")
                .hasMessageContaining("between 1.0 and 100.0");
    }

    @Test
    void zeroAttemptsAreRejected() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type", "exponential",
                                                "collect-strategy.exponential-delay.attempts",
                                                        "0")))
                .hasMessageContaining("collect-strategy.exponential-delay.attempts")
                .hasMessageContaining("at least 1");
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type", "incremental",
                                                "collect-strategy.incremental-delay.attempts",
                                                        "-3")))
                .hasMessageContaining("collect-strategy.incremental-delay.attempts")
                .hasMessageContaining("at least 1");
    }

    @Test
    void incrementalMaximumBelowTheInitialDelayIsRejected() {
        assertThatThrownBy(
                        () ->
                                fromConfiguration(
                                        conf(
                                                "collect-strategy.type", "incremental",
                                                "collect-strategy.incremental-delay.initial-delay",
                                                        "50 ms",
                                                "collect-strategy.incremental-delay.max-delay",
                                                        "20 ms")))
                .hasMessageContaining("collect-strategy.incremental-delay.max-delay")
                .hasMessageContaining("between 50 ms and 10 min");
    }

    @Test
    void optionsOfAnotherStrategyAreNotChecked() {
        // only the selected strategy's options matter, as with Flink's restart strategies
        CollectRetryStrategy strategy =
                fromConfiguration(
                        conf(
                                "collect-strategy.type",
                                "fixed",
                                "collect-strategy.incremental-delay.max-delay",
                                "nonsense"));

        assertThat(strategy.type()).isEqualTo(CollectRetryStrategy.Type.FIXED);
    }
}
