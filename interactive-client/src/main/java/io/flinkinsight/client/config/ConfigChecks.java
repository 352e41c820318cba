package io.flinkinsight.client.config;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

import java.time.Duration;
import java.util.Locale;

/**
 * Reads one option and checks it against what it accepts (its {@link OptionRange}, or its enum's
 * values); a bad value becomes an {@link IllegalConfigurationException} that names the key, the
 * value as written and what is accepted.
 */
public final class ConfigChecks {

    private ConfigChecks() {}

    /** A value of {@code option} within {@code range}. */
    public static <T extends Comparable<? super T>> T inRange(
            Configuration conf, ConfigOption<T> option, OptionRange<T> range) {
        T value = read(conf, option, range.accepted());
        if (!range.contains(value)) {
            throw invalid(conf, option, range.accepted());
        }
        return value;
    }

    /** A value of a boolean {@code option}: true or false. */
    public static boolean bool(Configuration conf, ConfigOption<Boolean> option) {
        return read(conf, option, "true or false");
    }

    /** One of {@code values}' names, case-insensitive, with '-' and '_' alike. */
    public static <E extends Enum<E>> E oneOf(
            Configuration conf, ConfigOption<String> option, Class<E> values) {
        StringBuilder accepted = new StringBuilder("one of ");
        E[] constants = values.getEnumConstants();
        for (int i = 0; i < constants.length; i++) {
            accepted.append(i == 0 ? "" : ", ")
                    .append(constants[i].name().toLowerCase(Locale.ROOT));
        }
        String value = read(conf, option, accepted.toString()).trim().replace('-', '_');
        for (E constant : constants) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw invalid(conf, option, accepted.toString());
    }

    private static IllegalConfigurationException invalid(
            Configuration conf, ConfigOption<?> option, String accepted) {
        return new IllegalConfigurationException(
                "Invalid value '"
                        + rawValue(conf, option)
                        + "' for option '"
                        + option.key()
                        + "': expected "
                        + accepted
                        + ".");
    }

    private static <T> T read(Configuration conf, ConfigOption<T> option, String accepted) {
        try {
            return conf.get(option);
        } catch (IllegalArgumentException e) {
            // Flink's own message says the value cannot be parsed; ours also says what is accepted.
            throw new IllegalConfigurationException(
                    "Invalid value '"
                            + rawValue(conf, option)
                            + "' for option '"
                            + option.key()
                            + "': expected "
                            + accepted
                            + ".",
                    e);
        }
    }

    private static String rawValue(Configuration conf, ConfigOption<?> option) {
        String raw = conf.toMap().get(option.key());
        if (raw == null) {
            // Left at its default: shown as users write it ("1 s"), not Duration's "PT1S".
            try {
                Object value = conf.get(option);
                return value instanceof Duration d ? OptionRange.format(d) : String.valueOf(value);
            } catch (IllegalArgumentException e) {
                return "?";
            }
        }
        return raw;
    }
}
