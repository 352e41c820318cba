package io.flinkinsight.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class InteractiveClientOptionsTest {

    private static Configuration conf(String key, String value) {
        Configuration conf = new Configuration();
        conf.setString(key, value);
        return conf;
    }

    @Test
    void defaultsAreThirtyMinutesAndTwoThreads() {
        assertThat(InteractiveClientOptions.expireAfterAccess(new Configuration())).isEqualTo(Duration.ofMinutes(30));
        assertThat(InteractiveClientOptions.ioThreads(new Configuration())).isEqualTo(2);
    }

    @Test
    void expireAfterAccessIsConfigurable() {
        assertThat(InteractiveClientOptions.expireAfterAccess(
                        conf("execution.interactive.client-pool.expire-after-access", "5 min")))
                .isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void zeroExpiryNamesKeyAndRange() {
        assertThatThrownBy(() -> InteractiveClientOptions.expireAfterAccess(
                        conf("execution.interactive.client-pool.expire-after-access", "0 s")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.client-pool.expire-after-access")
                .hasMessageContaining("'0 s'")
                .hasMessageContaining("between 1 s and 7 d");
    }

    @Test
    void unparsableExpiryNamesKeyAndRange() {
        assertThatThrownBy(() -> InteractiveClientOptions.expireAfterAccess(
                        conf("execution.interactive.client-pool.expire-after-access", "half an hour")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.interactive.client-pool.expire-after-access")
                .hasMessageContaining("between 1 s and 7 d");
    }

    @Test
    void fastStartOutOfRangeNamesKeyAndRange() {
        assertThat(InteractiveClientOptions.fastStart(new Configuration())).isEqualTo(Duration.ofSeconds(2));
        assertThat(InteractiveClientOptions.fastStart(conf("execution.interactive.fast-start", "0 ms")))
                .isEqualTo(Duration.ZERO);
        for (String bad : new String[] {"2 h", "soon"}) {
            assertThatThrownBy(() -> InteractiveClientOptions.fastStart(conf("execution.interactive.fast-start", bad)))
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageContaining("execution.interactive.fast-start")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("between 0 ms and 1 h");
        }
    }

    @Test
    void ioThreadsOutOfRangeNameKeyAndRange() {
        for (String bad : new String[] {"0", "65", "-1", "two"}) {
            assertThatThrownBy(() -> InteractiveClientOptions.ioThreads(conf("execution.interactive.io-threads", bad)))
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageContaining("execution.interactive.io-threads")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("between 1 and 64");
        }
    }
}
