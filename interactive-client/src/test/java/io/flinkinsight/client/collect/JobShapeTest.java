package io.flinkinsight.client.collect;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JobShapeTest {

    @Test
    void theSameQueryPlannedAgainHasTheSameShapeThoughItsOperatorIdsChanged() {
        long first =
                JobShape.of(List.of("Source: orders[1]", "Calc[2]", "Sink: Collect table sink"));
        long again =
                JobShape.of(List.of("Source: orders[17]", "Calc[18]", "Sink: Collect table sink"));

        assertThat(again).isEqualTo(first);
    }

    @Test
    void theOrderInWhichAGraphListsItsOperatorsDoesNotMatter() {
        // a stream graph lists its nodes from a map by id, and the ids change from one planning to
        // the next
        assertThat(JobShape.of(List.of("Calc[12]", "Source: orders[11]")))
                .isEqualTo(JobShape.of(List.of("Source: orders[1]", "Calc[2]")));
    }

    @Test
    void otherOperatorsMakeAnotherShape() {
        long query = JobShape.of(List.of("Source: orders[1]", "Calc[2]"));

        assertThat(JobShape.of(List.of("Source: orders[1]", "Join[2]"))).isNotEqualTo(query);
        assertThat(JobShape.of(List.of("Source: orders[1]Calc[2]")))
                .as("names are kept apart")
                .isNotEqualTo(query);
        assertThat(JobShape.of(List.of("Source: orders WHERE n > 5[1]")))
                .as("names that differ outside the ids")
                .isNotEqualTo(JobShape.of(List.of("Source: orders WHERE n > 6[1]")));
    }
}
