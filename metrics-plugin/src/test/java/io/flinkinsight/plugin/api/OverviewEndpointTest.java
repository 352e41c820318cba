package io.flinkinsight.plugin.api;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OverviewEndpointTest {

    @Test
    void flinksUrlIsShownWithoutUserInfoWhateverItsHost() {
        assertThat(OverviewEndpoint.withoutUserInfo("http://user:pw@jm:8081"))
                .isEqualTo("http://jm:8081");
        assertThat(OverviewEndpoint.withoutUserInfo("http://user:pw@flink_jm:8081/x?y"))
                .as("a registry-based authority, which java.net.URI gives no user info")
                .isEqualTo("http://flink_jm:8081/x?y");
        assertThat(OverviewEndpoint.withoutUserInfo("https://a@b:c@[::1]:8081"))
                .isEqualTo("https://[::1]:8081");
        assertThat(OverviewEndpoint.withoutUserInfo("http://jm:8081/a@b"))
                .isEqualTo("http://jm:8081/a@b");
        assertThat(OverviewEndpoint.withoutUserInfo("http://127.0.0.1:8081"))
                .isEqualTo("http://127.0.0.1:8081");
        assertThat(OverviewEndpoint.withoutUserInfo(null)).isNull();
    }
}
