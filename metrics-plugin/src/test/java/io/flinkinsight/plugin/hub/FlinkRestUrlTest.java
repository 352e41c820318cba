package io.flinkinsight.plugin.hub;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FlinkRestUrlTest {

    @Test
    void anExplicitUrlWins() {
        assertThat(FlinkRestUrl.resolve(" http://jm:9000 ", new Configuration()))
                .isEqualTo("http://jm:9000");
    }

    @Test
    void defaultsToLoopbackAndRestPort() {
        assertThat(FlinkRestUrl.fromConfiguration(new Configuration()))
                .isEqualTo("http://127.0.0.1:8081");
    }

    @Test
    void aWildcardBindAddressBecomesLoopback() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "0.0.0.0");
        conf.set(RestOptions.PORT, 18081);
        assertThat(FlinkRestUrl.fromConfiguration(conf)).isEqualTo("http://127.0.0.1:18081");
    }

    @Test
    void aSpecificBindAddressIsUsedAndIpv6IsBracketed() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "10.1.2.3");
        assertThat(FlinkRestUrl.fromConfiguration(conf)).isEqualTo("http://10.1.2.3:8081");
        conf.set(RestOptions.BIND_ADDRESS, "::1");
        assertThat(FlinkRestUrl.fromConfiguration(conf)).isEqualTo("http://[::1]:8081");
    }

    @Test
    void restSslSwitchesToHttps() {
        Configuration conf = new Configuration();
        conf.set(SecurityOptions.SSL_REST_ENABLED, true);
        assertThat(FlinkRestUrl.fromConfiguration(conf)).startsWith("https://");
    }

    @Test
    void withRestTlsTheAddressFlinksCertificateNamesWins() {
        Configuration conf = new Configuration();
        conf.set(org.apache.flink.configuration.RestOptions.ADDRESS, "jm.flink.svc");
        conf.set(org.apache.flink.configuration.RestOptions.PORT, 8443);
        assertThat(FlinkRestUrl.fromConfiguration(conf))
                .as("plain HTTP: the process's own loopback")
                .isEqualTo("http://127.0.0.1:8443");
        conf.set(org.apache.flink.configuration.SecurityOptions.SSL_REST_ENABLED, true);
        assertThat(FlinkRestUrl.fromConfiguration(conf)).isEqualTo("https://jm.flink.svc:8443");
    }
}
