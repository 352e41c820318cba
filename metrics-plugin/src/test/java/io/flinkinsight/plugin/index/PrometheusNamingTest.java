package io.flinkinsight.plugin.index;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusNamingTest {

    private static final Pattern FLINK_PATTERN = Pattern.compile("[^a-zA-Z0-9:_]");

    @Test
    void invalidCharactersAreReplacedExactlyLikeFlinksRegex() {
        Random random = new Random(42);
        String alphabet = "aZ09:_ .-/\\\"é€\n\t<>";
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(12);
            for (int j = 0; j < len; j++) {
                if (random.nextInt(10) == 0) {
                    sb.appendCodePoint(
                            0x1F600); // a supplementary character: one '_' in Flink's output
                } else {
                    sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String input = sb.toString();
            assertThat(PrometheusNaming.replaceInvalidChars(input))
                    .as("input %s", input)
                    .isEqualTo(FLINK_PATTERN.matcher(input).replaceAll("_"));
        }
    }

    @Test
    void validNameIsReturnedWithoutCopy() {
        String name = "flink_taskmanager_job_task_numRecordsIn";
        assertThat(PrometheusNaming.replaceInvalidChars(name)).isSameAs(name);
    }

    @Test
    void familyNameIsFlinkPrefixScopeAndSanitisedMetricName() {
        assertThat(PrometheusNaming.familyName("taskmanager_job_task", "numRecordsIn.perSecond"))
                .isEqualTo("flink_taskmanager_job_task_numRecordsIn_perSecond");
        assertThat(PrometheusNaming.help("taskmanager_job_task", "numRecordsIn"))
                .isEqualTo("numRecordsIn (scope: taskmanager_job_task)");
    }

    @Test
    void labelNameStripsAngleBracketsAndStaysValidForPrometheus() {
        assertThat(PrometheusNaming.labelName("<tm_id>")).isEqualTo("tm_id");
        assertThat(PrometheusNaming.labelName("<my.key>")).isEqualTo("my_key");
        assertThat(PrometheusNaming.labelName("<a:b>")).isEqualTo("a_b");
        assertThat(PrometheusNaming.labelName("<1st>")).isEqualTo("_1st");
    }
}
