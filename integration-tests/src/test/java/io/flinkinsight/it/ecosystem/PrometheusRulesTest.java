package io.flinkinsight.it.ecosystem;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alerting rules of {@code ecosystem/prometheus/} pass {@code promtool check rules}, and their
 * unit tests ({@code flink-insight-alerts.test.yml}: synthetic series, each alert firing and
 * staying quiet) pass {@code promtool test rules}. Takes about a second.
 */
class PrometheusRulesTest {

    private static final Path DIR = Promtool.ecosystem().resolve("prometheus");
    private static final String RULES = "flink-insight-alerts.yml";
    private static final String TESTS = "flink-insight-alerts.test.yml";

    @Test
    void rulesPassPromtoolCheckRules() throws Exception {
        assertThat(DIR.resolve(RULES)).exists();
        Promtool.Result result = Promtool.run(DIR, "check", "rules", RULES);
        assertThat(result.exitCode())
                .as("promtool check rules %s:%n%s", RULES, result.output())
                .isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertFiresAndStaysQuietAsItsUnitTestsSay() throws Exception {
        assertThat(DIR.resolve(TESTS)).exists();
        Promtool.Result result = Promtool.run(DIR, "test", "rules", TESTS);
        assertThat(result.exitCode())
                .as("promtool test rules %s:%n%s", TESTS, result.output())
                .isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertHasATestThatSeesItFire() throws Exception {
        String rules = Files.readString(DIR.resolve(RULES));
        String tests = Files.readString(DIR.resolve(TESTS));
        var alerts =
                java.util.regex.Pattern.compile("(?m)^\\s*- alert: (\\S+)")
                        .matcher(rules)
                        .results()
                        .map(m -> m.group(1))
                        .toList();
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(10).doesNotHaveDuplicates();
        for (String alert : alerts) {
            // a test case that expects it to fire names it and lists its labels
            assertThat(tests)
                    .as("a firing test of %s", alert)
                    .containsPattern(
                            "alertname: "
                                    + alert
                                    + "\\s*\\n\\s*exp_alerts:\\s*\\n\\s*- exp_labels:");
        }
    }
}
