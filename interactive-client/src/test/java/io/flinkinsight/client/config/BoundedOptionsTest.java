package io.flinkinsight.client.config;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every option with a range ({@code X_RANGE} beside {@code X} in {@link InteractiveClientOptions}
 * and {@link ChannelPoolOptions}): its description says the range, and {@link
 * InteractiveClientSettings#fromConfiguration} takes both bounds and refuses the values just
 * outside them, naming the key, the value and the range.
 */
class BoundedOptionsTest {

    /**
     * One bounded option: how its description says the range, its bounds (no highest when it has
     * none; the lowest of a range that starts at another option's value is that option's default),
     * the values just outside, and the options that make the reader read it (a collect strategy's
     * options are read when it is selected).
     */
    record Bounds(
            String key,
            String described,
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
        return bounds(key, lowest, highest, below, above, Map.of());
    }

    private static Bounds bounds(
            String key,
            String lowest,
            String highest,
            String below,
            String above,
            Map<String, String> with) {
        return new Bounds(
                key, "between " + lowest + " and " + highest, lowest, highest, below, above, with);
    }

    private static Bounds atLeast(
            String key, String lowest, String below, Map<String, String> with) {
        return new Bounds(key, "at least " + lowest, lowest, null, below, null, with);
    }

    static List<Bounds> boundedOptions() {
        Map<String, String> fixed = Map.of("collect-strategy.type", "fixed");
        Map<String, String> exponential = Map.of("collect-strategy.type", "exponential");
        Map<String, String> incremental = Map.of("collect-strategy.type", "incremental");
        return List.of(
                bounds(
                        "execution.interactive.client-pool.expire-after-access",
                        "1 s",
                        "7 d",
                        "999 ms",
                        "604800001 ms"),
                bounds("execution.interactive.io-threads", "1", "64", "0", "65"),
                bounds(
                        "execution.interactive.admission.max-queries",
                        "0",
                        "100000",
                        "-1",
                        "100001"),
                bounds(
                        "execution.interactive.admission.timeout",
                        "1 ms",
                        "1 d",
                        "0 ms",
                        "86400001 ms"),
                bounds(
                        "execution.interactive.admission.max-hold",
                        "1 ms",
                        "1 d",
                        "0 ms",
                        "86400001 ms"),
                bounds("execution.interactive.fast-start", "0 ms", "1 h", "-1 ms", "3600001 ms"),
                atLeast("execution.interactive.rest.max-connections", "1", "0", Map.of()),
                bounds(
                        "execution.interactive.rest.acquire-timeout",
                        "1 ms",
                        "1 d",
                        "0 ms",
                        "86400001 ms"),
                bounds(
                        "execution.interactive.rest.idle-timeout",
                        "1 ms",
                        "1 d",
                        "0 ms",
                        "86400001 ms"),
                bounds(
                        "collect-strategy.fixed-delay.delay",
                        "1 ms",
                        "1 min",
                        "0 ms",
                        "60001 ms",
                        fixed),
                // the longest wait may not be shorter than the first
                bounds(
                        "collect-strategy.exponential-delay.initial-backoff",
                        "1 ms",
                        "1 min",
                        "0 ms",
                        "60001 ms",
                        Map.of(
                                "collect-strategy.type",
                                "exponential",
                                "collect-strategy.exponential-delay.max-backoff",
                                "10 min")),
                // from the initial backoff's default, 100 ms
                new Bounds(
                        "collect-strategy.exponential-delay.max-backoff",
                        "at least the initial backoff, at most 10 min",
                        "100 ms",
                        "10 min",
                        "99 ms",
                        "600001 ms",
                        exponential),
                bounds(
                        "collect-strategy.exponential-delay.backoff-multiplier",
                        "1.0",
                        "100.0",
                        String.valueOf(Math.nextDown(1.0)),
                        String.valueOf(Math.nextUp(100.0)),
                        exponential),
                atLeast("collect-strategy.exponential-delay.attempts", "1", "0", exponential),
                bounds(
                        "collect-strategy.incremental-delay.initial-delay",
                        "1 ms",
                        "1 min",
                        "0 ms",
                        "60001 ms",
                        Map.of(
                                "collect-strategy.type",
                                "incremental",
                                "collect-strategy.incremental-delay.max-delay",
                                "10 min")),
                bounds(
                        "collect-strategy.incremental-delay.increment",
                        "0 ms",
                        "1 min",
                        "-1 ms",
                        "60001 ms",
                        incremental),
                // from the initial delay's default, 5 ms
                new Bounds(
                        "collect-strategy.incremental-delay.max-delay",
                        "at least the initial delay, at most 10 min",
                        "5 ms",
                        "10 min",
                        "4 ms",
                        "600001 ms",
                        incremental),
                atLeast("collect-strategy.incremental-delay.attempts", "1", "0", incremental));
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
        assertThat(range.toString()).isEqualTo(bounds.described());
        assertThat(description(option(bounds.key()))).contains("(" + range);

        List<String> accepted = new ArrayList<>(List.of(bounds.lowest()));
        List<String> refused = new ArrayList<>(List.of(bounds.below()));
        if (bounds.highest() != null) {
            accepted.add(bounds.highest());
            refused.add(bounds.above());
        }
        String acceptedInWords =
                bounds.highest() == null
                        ? "at least " + bounds.lowest()
                        : "between " + bounds.lowest() + " and " + bounds.highest();
        for (String value : accepted) {
            assertThatCode(() -> read(bounds, value)).as(value).doesNotThrowAnyException();
        }
        for (String value : refused) {
            assertThatThrownBy(() -> read(bounds, value))
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageContaining("'" + value + "'")
                    .hasMessageContaining("'" + bounds.key() + "'")
                    .hasMessageContaining(acceptedInWords);
        }
    }

    private static InteractiveClientSettings read(Bounds bounds, String value) {
        Configuration conf = new Configuration();
        bounds.with().forEach(conf::setString);
        conf.setString(bounds.key(), value);
        return InteractiveClientSettings.fromConfiguration(conf);
    }

    /**
     * The options' ranges by key, found as each {@code X_RANGE} field beside its option {@code X}.
     */
    private static Map<String, OptionRange<?>> rangesByKey() {
        Map<String, OptionRange<?>> ranges = new TreeMap<>();
        try {
            for (Class<?> options :
                    List.of(InteractiveClientOptions.class, ChannelPoolOptions.class)) {
                for (Field field : options.getFields()) {
                    if (Modifier.isStatic(field.getModifiers())
                            && field.getType() == OptionRange.class) {
                        String optionName =
                                field.getName()
                                        .substring(0, field.getName().length() - "_RANGE".length());
                        ConfigOption<?> option =
                                (ConfigOption<?>) options.getField(optionName).get(null);
                        ranges.put(option.key(), (OptionRange<?>) field.get(null));
                    }
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("every X_RANGE is beside an option X", e);
        }
        return ranges;
    }

    private static ConfigOption<?> option(String key) {
        return InteractiveClientOptions.all().stream()
                .filter(o -> o.key().equals(key))
                .findFirst()
                .orElseThrow();
    }

    /** The text of a description made with {@code withDescription(String)}. */
    static String description(ConfigOption<?> option) {
        StringBuilder text = new StringBuilder();
        for (BlockElement block : option.description().getBlocks()) {
            if (block instanceof TextElement element) {
                text.append(element.getFormat());
            }
        }
        return text.toString();
    }
}
