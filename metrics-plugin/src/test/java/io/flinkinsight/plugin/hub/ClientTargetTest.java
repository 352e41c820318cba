package io.flinkinsight.plugin.hub;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientTargetTest {

    @Test
    void entriesAreHostAndPortOrPortRange() {
        assertThat(ClientTarget.parseList(" gateway-1:9250-9260, 10.0.0.7:9250 ,[::1]:9251"))
                .containsExactly(
                        new ClientTarget("gateway-1", 9250, 9260),
                        new ClientTarget("10.0.0.7", 9250, 9250),
                        new ClientTarget("[::1]", 9251, 9251));
        assertThat(ClientTarget.parseList("")).isEmpty();
        assertThat(ClientTarget.parseList("  ")).isEmpty();
        assertThat(new ClientTarget("gw", 9250, 9260).toString()).isEqualTo("gw:9250-9260");
        assertThat(new ClientTarget("gw", 9250, 9260).label(9251)).isEqualTo("gw:9251");
        assertThat(new ClientTarget("[::1]", 9250, 9250).baseUrl(9250))
                .isEqualTo("http://[::1]:9250");
    }

    @Test
    void malformedEntriesAreRefusedWithWhatIsAccepted() {
        for (String bad :
                List.of(
                        "gateway-1",
                        ":9250",
                        "gw:",
                        "gw:0",
                        "gw:70000",
                        "gw:9260-9250",
                        "gw:9250-9282",
                        "gw:abc",
                        "g w:9250",
                        "http://gw:9250",
                        "::1:9250",
                        "gw/x:9250",
                        "gw:9250,,gw:9251")) {
            assertThatThrownBy(() -> ClientTarget.parseList(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("host:port or host:first-last");
        }
    }

    @Test
    void atMostSixteenEntriesOfAtMostThirtyTwoPorts() {
        assertThat(ClientTarget.parseList("gw:9250-9281"))
                .containsExactly(new ClientTarget("gw", 9250, 9281));
        StringBuilder many = new StringBuilder("gw:1");
        for (int i = 2; i <= ClientTarget.MAX_ENTRIES + 1; i++) {
            many.append(",gw:").append(i);
        }
        assertThatThrownBy(() -> ClientTarget.parseList(many.toString()))
                .hasMessageContaining("at most 16 entries");
        assertThat(ClientTarget.parseList(many.substring(0, many.lastIndexOf(","))))
                .hasSize(ClientTarget.MAX_ENTRIES);
    }
}
