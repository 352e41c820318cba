package io.flinkinsight.harness.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DemoWorkloadTest {

    @Test
    void streamingJobCheckpointsIncrementallyWithRocksDbEveryTwoSeconds() {
        assertThat(DemoWorkload.streamingJobSettings())
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.incremental", "true")
                .containsEntry("execution.checkpointing.interval", "2 s")
                .containsEntry("metrics.latency.interval", "1000");
    }

    @Test
    void streamingJobAggregatesByKeyIntoTheBlackhole() {
        assertThat(DemoWorkload.streamingJobStatements())
                .last()
                .asString()
                .isEqualTo(
                        "INSERT INTO blackhole_sink SELECT k, COUNT(*), SUM(v) FROM datagen_src GROUP BY k");
        assertThat(DemoWorkload.streamingJobStatements().get(0))
                .contains("'rows-per-second' = '2000'")
                .contains("'fields.k.max' = '100000'");
    }

    @Test
    void shortQueriesAreSourceWordcountAndJoinOnOneRowTables() {
        assertThat(DemoWorkload.shortQueries()).hasSize(3);
        assertThat(DemoWorkload.shortQueryTables())
                .allMatch(ddl -> ddl.contains("'number-of-rows' = '1'"));
        assertThat(DemoWorkload.shortQueries().get(2))
                .contains("LEFT JOIN table2")
                .contains("LEFT JOIN table3");
    }
}
