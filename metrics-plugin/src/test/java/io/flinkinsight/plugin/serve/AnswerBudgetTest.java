package io.flinkinsight.plugin.serve;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerBudgetTest {

    @Test
    void answersOnTheirWayHoldAtMostFourBudgetsAndOneAloneAlwaysPasses() {
        AnswerBudget budget = new AnswerBudget(1000);
        assertThat(budget.hold(1000)).isTrue();
        assertThat(budget.hold(3000)).isTrue();
        assertThat(budget.hold(1)).as("four budgets held").isFalse();
        budget.release(3000);
        assertThat(budget.hold(2000)).isTrue();
        budget.release(1000);
        budget.release(2000);
        assertThat(budget.held()).isZero();
        assertThat(budget.hold(1000)).isTrue();
    }
}
