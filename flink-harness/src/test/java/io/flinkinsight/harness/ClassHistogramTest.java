package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClassHistogramTest {

    private static final String BEFORE =
            """
            12345:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         10000         800000  [B (java.base@17.0.15)
               2:          5000         120000  java.lang.String (java.base@17.0.15)
               3:            10            400  io.flinkinsight.plugin.store.series.SeriesStore
            Total         15010         920400
            """;

    private static final String AFTER =
            """
            12345:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         20000        1600000  [B (java.base@17.0.15)
               2:          4000          96000  java.lang.String (java.base@17.0.15)
               3:            30           1200  io.flinkinsight.plugin.store.series.SeriesStore
               4:          1000          48000  org.apache.flink.runtime.jobmaster.JobResult
            Total         25030        1745200
            """;

    @Test
    void listsTheClassesThatGrewMostFirstAndLeavesOutThoseThatShrank() {
        List<ClassHistogram.Growth> grown =
                ClassHistogram.parse(AFTER).growthSince(ClassHistogram.parse(BEFORE));

        assertThat(grown)
                .extracting(ClassHistogram.Growth::className)
                .containsExactly(
                        "[B",
                        "org.apache.flink.runtime.jobmaster.JobResult",
                        "io.flinkinsight.plugin.store.series.SeriesStore");
        assertThat(grown.get(0).bytes()).isEqualTo(800000);
        assertThat(grown.get(1).instances()).isEqualTo(1000);
    }

    @Test
    void sumsTheGrowthOfTheSelectedClassesCountingShrinkageAsNegative() {
        ClassHistogram after = ClassHistogram.parse(AFTER);
        ClassHistogram before = ClassHistogram.parse(BEFORE);

        assertThat(after.bytesGrownSince(before, name -> name.startsWith("io.flinkinsight.")))
                .isEqualTo(800);
        assertThat(after.bytesGrownSince(before, name -> name.startsWith("java.lang.")))
                .isEqualTo(-24000);
    }
}
