package io.flinkinsight.it;

import io.flinkinsight.client.config.InteractiveClientOptions;
import io.flinkinsight.plugin.InsightOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's option tables are exactly {@link InsightOptions} and {@link
 * InteractiveClientOptions}: every key, default and description, in order.
 */
class ReadmeOptionsTableTest {

    @Test
    void readmeOptionTableMatchesInsightOptions() throws Exception {
        assertTable("options", InsightOptions.USER_PREFIX, InsightOptions.all());
    }

    @Test
    void readmeClientOptionTableMatchesInteractiveClientOptions() throws Exception {
        assertTable("client-options", "", InteractiveClientOptions.all());
    }

    private static void assertTable(String marker, String keyPrefix, List<ConfigOption<?>> options)
            throws Exception {
        String readme =
                Files.readString(Path.of(System.getProperty("insight.readme", "../README.md")));
        String startMarker = "<!-- " + marker + ":start -->";
        String endMarker = "<!-- " + marker + ":end -->";
        int start = readme.indexOf(startMarker);
        int end = readme.indexOf(endMarker);
        assertThat(start).as("README marker %s", startMarker).isNotNegative();
        assertThat(end).as("README marker %s", endMarker).isGreaterThan(start);
        String documented = readme.substring(start + startMarker.length(), end).strip();
        String expected = table(keyPrefix, options);
        assertThat(documented)
                .as("README option table %s; replace it with:%n%s%n", marker, expected)
                .isEqualTo(expected);
    }

    static String table(String keyPrefix, List<ConfigOption<?>> options) {
        StringBuilder out = new StringBuilder("| key | default | description |\n|---|---|---|\n");
        for (ConfigOption<?> option : options) {
            out.append("| `")
                    .append(keyPrefix)
                    .append(option.key())
                    .append("` | ")
                    .append(defaultValue(option))
                    .append(" | ")
                    .append(description(option).replace("|", "\\|"))
                    .append(" |\n");
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
