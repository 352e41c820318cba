package io.flinkinsight.client.config;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.flinkinsight.client.config.BoundedOptionsTest.description;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reading the client's options: defaults, and bad values named with their key and the accepted
 * range.
 */
class InteractiveClientSettingsTest {

    private static InteractiveClientSettings read(Configuration conf) {
        return InteractiveClientSettings.fromConfiguration(conf);
    }

    private static Configuration conf(String key, String value) {
        Configuration conf = new Configuration();
        conf.setString(key, value);
        return conf;
    }

    @Test
    void defaultsAreThirtyMinutesAndTwoThreads() {
        assertThat(read(new Configuration()).expireAfterAccess()).isEqualTo(Duration.ofMinutes(30));
        assertThat(read(new Configuration()).ioThreads()).isEqualTo(2);
    }

    @Test
    void expireAfterAccessIsConfigurable() {
        assertThat(
                        read(conf("execution.interactive.client-pool.expire-after-access", "5 min"))
                                .expireAfterAccess())
                .isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void zeroExpiryNamesKeyAndRange() {
        assertThatThrownBy(
                        () ->
                                read(
                                        conf(
                                                "execution.interactive.client-pool.expire-after-access",
                                                "0 s")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.client-pool.expire-after-access")
                .hasMessageContaining("'0 s'")
                .hasMessageContaining("between 1 s and 7 d");
    }

    @Test
    void unparsableExpiryNamesKeyAndRange() {
        assertThatThrownBy(
                        () ->
                                read(
                                        conf(
                                                "execution.interactive.client-pool.expire-after-access",
                                                "half an hour")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.client-pool.expire-after-access")
                .hasMessageContaining("between 1 s and 7 d");
    }

    @Test
    void fastStartOutOfRangeNamesKeyAndRange() {
        assertThat(read(new Configuration()).fastStart()).isEqualTo(Duration.ofSeconds(2));
        assertThat(read(conf("execution.interactive.fast-start", "2 s")).fastStart())
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(read(conf("execution.interactive.fast-start", "0 ms")).fastStart())
                .isEqualTo(Duration.ZERO);
        for (String bad : new String[] {"2 h", "soon"}) {
            assertThatThrownBy(() -> read(conf("execution.interactive.fast-start", bad)))
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageContaining("execution.interactive.fast-start")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("between 0 ms and 1 h");
        }
    }

    @Test
    void literalsAreReplacedUnlessKeepLiteralsSaysTrue() {
        String key = "execution.interactive.statements.keep-literals";
        assertThat(read(new Configuration()).keepLiterals()).isFalse();
        assertThat(read(conf(key, "false")).keepLiterals()).isFalse();
        assertThat(read(conf(key, "true")).keepLiterals()).isTrue();
        assertThatThrownBy(() -> read(conf(key, "maybe")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("'maybe'")
                .hasMessageContaining("true or false");
    }

    @Test
    void aDefaultThatConflictsWithAnotherOptionIsShownAsUsersWriteIt() {
        Configuration conf = conf("collect-strategy.type", "exponential");
        conf.setString("collect-strategy.exponential-delay.initial-backoff", "1 min");

        assertThatThrownBy(() -> read(conf))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(
                        "Invalid value '1 s' for option 'collect-strategy.exponential-delay.max-backoff'")
                .hasMessageNotContaining("PT1S");
    }

    @Test
    void ioThreadsOutOfRangeNameKeyAndRange() {
        for (String bad : new String[] {"0", "65", "-1", "two"}) {
            assertThatThrownBy(() -> read(conf("execution.interactive.io-threads", bad)))
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageContaining("execution.interactive.io-threads")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("between 1 and 64");
        }
    }

    @Test
    void descriptionsSayTheRangesTheChecksEnforce() {
        assertThat(description(InteractiveClientOptions.CLIENT_POOL_EXPIRE_AFTER_ACCESS))
                .contains("(between 1 s and 7 d)");
        assertThat(description(InteractiveClientOptions.FAST_START))
                .contains("(between 0 ms and 1 h; 0 turns it off)");
        assertThat(description(InteractiveClientOptions.IO_THREADS)).contains("(between 1 and 64)");
        assertThat(description(ChannelPoolOptions.MAX_CONNECTIONS)).contains("(at least 1)");
        assertThat(description(InteractiveClientOptions.COLLECT_EXPONENTIAL_MAX_BACKOFF))
                .contains("(at least the initial backoff, at most 10 min)");
        assertThat(description(InteractiveClientOptions.COLLECT_EXPONENTIAL_MULTIPLIER))
                .contains("(between 1.0 and 100.0)");
    }
}
