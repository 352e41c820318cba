package io.flinkinsight.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkinsight.plugin.InsightOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

/** The README's option table is exactly {@link InsightOptions}: every key, default and description, in order. */
class ReadmeOptionsTableTest {

    private static final String START = "<!-- options:start -->";
    private static final String END = "<!-- options:end -->";

    @Test
    void readmeOptionTableMatchesInsightOptions() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("insight.readme", "../README.md")));
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertThat(start).as("README marker %s", START).isNotNegative();
        assertThat(end).as("README marker %s", END).isGreaterThan(start);
        String documented = readme.substring(start + START.length(), end).strip();
        String expected = table();
        assertThat(documented)
                .as("README option table; replace it with:%n%s%n", expected)
                .isEqualTo(expected);
    }

    static String table() {
        StringBuilder out = new StringBuilder("| key | default | description |\n|---|---|---|\n");
        for (ConfigOption<?> option : InsightOptions.all()) {
            out.append("| `").append(InsightOptions.USER_PREFIX).append(option.key()).append("` | ")
                    .append(defaultValue(option)).append(" | ")
                    .append(description(option).replace("|", "\\|")).append(" |\n");
        }
        return out.toString().strip();
    }

    /** The plain text of a description made with {@code withDescription(String)}. */
    private static String description(ConfigOption<?> option) {
        StringBuilder text = new StringBuilder();
        for (BlockElement block : option.description().getBlocks()) {
            if (block instanceof TextElement element) {
                text.append(element.getFormat());
            }
        }
        return text.toString();
    }

    private static String defaultValue(ConfigOption<?> option) {
        Object value = option.defaultValue();
        if (value instanceof Duration d) {
            return "`" + TimeUtils.formatWithHighestUnit(d) + "`";
        }
        return value == null || value.toString().isEmpty() ? "(empty)" : "`" + value + "`";
    }
}
