package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.NotFound;

import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HubRoundTest {

    private static final RestSource REFUSED =
            path -> {
                throw new IOException("refused");
            };

    @Test
    void theBudgetRunsOutAfterItsRequestsAndTheFirstFailureIsKept() throws Exception {
        HubRound round = new HubRound(1, 0, 2);
        assertThat(round.get(REFUSED, "/jobs/overview")).isNull();
        assertThat(round.remaining()).isEqualTo(1);
        assertThat(round.get(REFUSED, "/taskmanagers")).isNull();

        assertThatThrownBy(() -> round.get(REFUSED, "/jobs/overview"))
                .isInstanceOf(HubRound.BudgetSpent.class);
        assertThat(round.requests()).isEqualTo(2);
        assertThat(round.remaining()).isZero();
        assertThat(round.failures()).isEqualTo(2);
        assertThat(round.firstFailure())
                .isEqualTo("GET /jobs/overview: java.io.IOException: refused");
    }

    @Test
    void aNotFoundIsAnAnswerOnlyWhereTheCallerSaysSo() throws Exception {
        RestSource notFound =
                path -> {
                    throw new RestStatusException(path, 404);
                };
        HubRound round = new HubRound(1, 0, 10);

        assertThat(round.get(notFound, "/jobs/x/checkpoints", NotFound.ANSWER).isMissingNode())
                .isTrue();
        assertThat(round.failures()).isZero();
        assertThat(round.get(notFound, "/jobs/x/config")).isNull();
        assertThat(round.failures()).isEqualTo(1);
        assertThat(round.get(path -> TextNode.valueOf(path), "/ok"))
                .isEqualTo(TextNode.valueOf("/ok"));
        assertThat(round.requests()).isEqualTo(3);
    }

    @Test
    void roundsAreCountedFromAnEarlierOne() {
        assertThat(new HubRound(7, 0, 1).roundsSince(1)).isEqualTo(6);
    }
}
