package io.flinkinsight.plugin.runtime;

import io.flinkinsight.common.OptionRange;
import io.flinkinsight.plugin.InsightOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every option with a range ({@code InsightOptions.X_RANGE} beside {@code X}): its description says
 * the range, and the reader takes both bounds and refuses the values just outside them, naming the
 * full key, the value and the range.
 */
class BoundedOptionsTest {

    /**
     * One bounded option: the bounds as the description and the error write them, the values just
     * outside, and other options that must be set for the bounds to be valid together.
     */
    record Bounds(
            String key,
            String lowest,
            String highest,
            String below,
            String above,
            Map<String, String> with) {
        @Override
        public String toString() {
            return key;
        }
    }

    private static Bounds bounds(
            String key, String lowest, String highest, String below, String above) {
        return new Bounds(key, lowest, highest, below, above, Map.of());
    }

    static List<Bounds> boundedOptions() {
        return List.of(
                // 7 d at the default 5 s resolution would be more samples per series than allowed
                new Bounds(
                        "history.retention",
                        "1 min",
                        "7 d",
                        "59999 ms",
                        "604800001 ms",
                        Map.of("history.resolution", "10 s")),
                bounds("history.resolution", "1 s", "1 h", "999 ms", "3600001 ms"),
                bounds("history.max-series", "1", "1000000", "0", "1000001"),
                bounds("checkpoints.max-per-job", "1", "100000", "0", "100001"),
                bounds("checkpoints.max-bytes", "1 mb", "4 gb", "1048575 b", "4294967297 b"),
                bounds("stores.max-bytes", "16 mb", "16 gb", "16777215 b", "17179869185 b"),
                bounds("jobs.max", "1", "100000", "0", "100001"),
                bounds("stores.dir.max-bytes", "16 mb", "512 gb", "16777215 b", "549755813889 b"),
                bounds("stores.dir.retention", "0 ms", "90 d", "-1 ms", "7776000001 ms"),
                bounds("stores.dir.write-interval", "1 s", "30 min", "999 ms", "1800001 ms"),
                bounds(
                        "stores.dir.max-bytes-per-minute",
                        "64 kb",
                        "1 gb",
                        "65535 b",
                        "1073741825 b"),
                bounds("hub.poll-interval", "1 s", "1 h", "999 ms", "3600001 ms"),
                bounds("http.max-request-header-bytes", "1024", "65536", "1023", "65537"),
                bounds("http.idle-timeout", "1 s", "1 h", "999 ms", "3600001 ms"),
                bounds("http.max-connections", "1", "10000", "0", "10001"),
                bounds("http.threads", "1", "16", "0", "17"),
                bounds("http.max-connections-per-address", "1", "10000", "0", "10001"),
                bounds("http.max-concurrent-scrapes", "1", "16", "0", "17"),
                bounds("http.max-answer-bytes", "64 kb", "1 gb", "65535 b", "1073741825 b"),
                bounds("http.request-head-timeout", "1 s", "5 min", "999 ms", "300001 ms"),
                bounds("scrape.job-series.min-age", "0 ms", "1 h", "-1 ms", "3600001 ms"));
    }

    @Test
    void everyOptionWithARangeIsListedHere() {
        assertThat(boundedOptions())
                .extracting(Bounds::key)
                .containsExactlyInAnyOrderElementsOf(rangesByKey().keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundedOptions")
    void descriptionSaysTheRangeTheReaderEnforces(Bounds bounds) {
        OptionRange<?> range = rangesByKey().get(bounds.key());
        assertThat(range).as("the range of %s", bounds.key()).isNotNull();
        assertThat(range.toString())
                .isEqualTo("between " + bounds.lowest() + " and " + bounds.highest());
        assertThat(description(option(bounds.key()))).contains("(" + range);

        for (String accepted : List.of(bounds.lowest(), bounds.highest())) {
            assertThatCode(() -> read(bounds, accepted)).as(accepted).doesNotThrowAnyException();
        }
        for (String refused : List.of(bounds.below(), bounds.above())) {
            assertThatThrownBy(() -> read(bounds, refused))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                            InsightOptions.USER_PREFIX
                                    + bounds.key()
                                    + ": '"
                                    + refused
                                    + "' is invalid")
                    .hasMessageContaining("[" + bounds.lowest() + ", " + bounds.highest() + "]");
        }
    }

    private static InsightConfiguration read(Bounds bounds, String value) {
        Properties config = new Properties();
        config.putAll(bounds.with());
        config.setProperty(bounds.key(), value);
        return InsightConfiguration.from(config, InsightOptions.USER_PREFIX);
    }

    /**
     * The options' ranges by key, found as each {@code X_RANGE} field beside its option {@code X}.
     */
    private static Map<String, OptionRange<?>> rangesByKey() {
        Map<String, OptionRange<?>> ranges = new TreeMap<>();
        try {
            for (Field field : InsightOptions.class.getFields()) {
                if (Modifier.isStatic(field.getModifiers())
                        && field.getType() == OptionRange.class) {
                    String optionName =
                            field.getName()
                                    .substring(0, field.getName().length() - "_RANGE".length());
                    ConfigOption<?> option =
                            (ConfigOption<?>) InsightOptions.class.getField(optionName).get(null);
                    ranges.put(option.key(), (OptionRange<?>) field.get(null));
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("every X_RANGE of InsightOptions is beside an option X", e);
        }
        return ranges;
    }

    private static ConfigOption<?> option(String key) {
        return InsightOptions.all().stream()
                .filter(o -> o.key().equals(key))
                .findFirst()
                .orElseThrow();
    }

    /** The text of a description made with {@code withDescription(String)}. */
    private static String description(ConfigOption<?> option) {
        StringBuilder text = new StringBuilder();
        for (BlockElement block : option.description().getBlocks()) {
            if (block instanceof TextElement element) {
                text.append(element.getFormat());
            }
        }
        return text.toString();
    }
}
