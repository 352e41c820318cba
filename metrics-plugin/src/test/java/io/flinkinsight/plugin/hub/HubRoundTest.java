package io.flinkinsight.plugin.hub;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HubRoundTest {

    @Test
    void theBudgetRunsOutAfterItsRequestsAndTheFirstFailureIsKept() throws Exception {
        HubRound round = new HubRound(1, 0, 2);
        round.spendRequest();
        round.requestFailed("GET /jobs/overview", new IOException("refused"));
        round.spendRequest();
        round.requestFailed("GET /taskmanagers", new IOException("refused"));

        assertThatThrownBy(round::spendRequest).isInstanceOf(HubRound.BudgetSpent.class);
        assertThat(round.requests()).isEqualTo(2);
        assertThat(round.failures()).isEqualTo(2);
        assertThat(round.firstFailure()).isEqualTo("GET /jobs/overview: java.io.IOException: refused");
    }

    @Test
    void theWindowOverManyItemsMovesOnEveryRoundAndWrapsAround() {
        List<Integer> items = List.of(0, 1, 2, 3, 4);

        assertThat(new HubRound(1, 0, 1).window(items, 5)).isSameAs(items);
        assertThat(new HubRound(1, 0, 1).window(items, 2)).containsExactly(0, 1);
        assertThat(new HubRound(2, 0, 1).window(items, 2)).containsExactly(2, 3);
        assertThat(new HubRound(3, 0, 1).window(items, 2)).containsExactly(4, 0);
    }

    @Test
    void roundsAreCountedFromAnEarlierOne() {
        assertThat(new HubRound(7, 0, 1).roundsSince(1)).isEqualTo(6);
    }
}
