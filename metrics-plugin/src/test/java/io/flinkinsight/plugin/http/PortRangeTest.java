package io.flinkinsight.plugin.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PortRangeTest {

    @Test
    void singlePortListAndRangeAreTriedInOrder() {
        assertThat(PortRange.parse("9250").iterator()).toIterable().containsExactly(9250);
        assertThat(PortRange.parse("9251, 9250").iterator())
                .toIterable()
                .containsExactly(9251, 9250);
        assertThat(PortRange.parse("9250-9252,9300").iterator())
                .toIterable()
                .containsExactly(9250, 9251, 9252, 9300);
    }

    @Test
    void invalidTextIsRefusedWithTheAcceptedForms() {
        for (String bad : new String[] {"", "-1", "65536", "9250-", "a-b", "9252-9250", "1,,2"}) {
            assertThatThrownBy(() -> PortRange.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("range (9250-9260)");
        }
    }
}
