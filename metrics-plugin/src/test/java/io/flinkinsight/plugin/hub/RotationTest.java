package io.flinkinsight.plugin.hub;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class RotationTest {

    @Test
    void visitedItemsGoToTheBackOfTheLine() {
        Rotation rotation = new Rotation();
        assertThat(rotation.turnOrder(List.of("a", "b", "c"), Function.identity()))
                .containsExactly("a", "b", "c");
        rotation.visited("a");
        rotation.visited("b");

        assertThat(rotation.turnOrder(List.of("c", "b", "a"), Function.identity()))
                .containsExactly("c", "a", "b");
    }

    @Test
    void newItemsJoinBehindTheWaitingOnesAndGoneItemsLeave() {
        Rotation rotation = new Rotation();
        rotation.turnOrder(List.of("a", "b", "c"), Function.identity());
        rotation.visited("a");

        // a newcomer, listed first, still waits behind b and c; a came back from its turn before it
        assertThat(rotation.turnOrder(List.of("new", "a", "c", "b"), Function.identity()))
                .containsExactly("b", "c", "a", "new");
        assertThat(rotation.turnOrder(List.of("new", "c"), Function.identity()))
                .containsExactly("c", "new");
        assertThat(rotation.size()).isEqualTo(2);
    }

    @Test
    void anItemThatKeepsArrivingNewcomersBehindItIsStillReached() {
        Rotation rotation = new Rotation();
        List<String> items = new java.util.ArrayList<>(List.of("a", "b", "c", "d"));
        // one visit per round, a newcomer every round: "d" waits for the three ahead of it, no more
        for (int round = 0; round < 3; round++) {
            String first = rotation.turnOrder(items, Function.identity()).get(0);
            assertThat(first).isNotEqualTo("d");
            rotation.visited(first);
            items.add(0, "new" + round);
        }
        assertThat(rotation.turnOrder(items, Function.identity()).get(0)).isEqualTo("d");
    }
}
