package io.flinkinsight.client;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

import java.time.Duration;
import java.util.Locale;

/**
 * Reads one option and checks it against an accepted range; a bad value becomes an {@link
 * IllegalConfigurationException} that names the key, the value as written and what is accepted.
 */
public final class ConfigChecks {

    private ConfigChecks() {}

    /** A duration between {@code min} and {@code max} (both inclusive). */
    public static Duration duration(Configuration conf, ConfigOption<Duration> option, Duration min, Duration max) {
        Duration value = read(conf, option, "a duration between " + format(min) + " and " + format(max));
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw invalid(conf, option, "a duration between " + format(min) + " and " + format(max));
        }
        return value;
    }

    /** An integer between {@code min} and {@code max} (both inclusive). */
    public static int integer(Configuration conf, ConfigOption<Integer> option, int min, int max) {
        String accepted = max == Integer.MAX_VALUE
                ? "an integer of at least " + min
                : "an integer between " + min + " and " + max;
        int value = read(conf, option, accepted);
        if (value < min || value > max) {
            throw invalid(conf, option, accepted);
        }
        return value;
    }

    /** A finite number between {@code min} and {@code max} (both inclusive). */
    public static double number(Configuration conf, ConfigOption<Double> option, double min, double max) {
        String accepted = "a number between " + min + " and " + max;
        double value = read(conf, option, accepted);
        if (!(value >= min && value <= max)) {
            throw invalid(conf, option, accepted);
        }
        return value;
    }

    /** One of {@code values}' names, case-insensitive, with '-' and '_' alike. */
    public static <E extends Enum<E>> E oneOf(Configuration conf, ConfigOption<String> option, Class<E> values) {
        StringBuilder accepted = new StringBuilder("one of ");
        E[] constants = values.getEnumConstants();
        for (int i = 0; i < constants.length; i++) {
            accepted.append(i == 0 ? "" : ", ").append(constants[i].name().toLowerCase(Locale.ROOT));
        }
        String value = read(conf, option, accepted.toString()).trim().replace('-', '_');
        for (E constant : constants) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw invalid(conf, option, accepted.toString());
    }

    /** An error for a value of {@code option} that is out of range, e.g. relative to another option. */
    public static IllegalConfigurationException invalid(Configuration conf, ConfigOption<?> option, String accepted) {
        return new IllegalConfigurationException(
                "Invalid value '" + rawValue(conf, option) + "' for option '" + option.key() + "': expected "
                        + accepted + ".");
    }

    private static <T> T read(Configuration conf, ConfigOption<T> option, String accepted) {
        try {
            return conf.get(option);
        } catch (IllegalArgumentException e) {
            // Flink's own message says the value cannot be parsed; ours also says what is accepted.
            throw new IllegalConfigurationException(
                    "Invalid value '" + rawValue(conf, option) + "' for option '" + option.key() + "': expected "
                            + accepted + ".", e);
        }
    }

    private static String rawValue(Configuration conf, ConfigOption<?> option) {
        String raw = conf.toMap().get(option.key());
        if (raw == null) {
            try {
                return String.valueOf(conf.get(option));
            } catch (IllegalArgumentException e) {
                return "?";
            }
        }
        return raw;
    }

    /** Durations the way Flink writes them in its docs, e.g. "100 ms", "30 min". */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 86_400_000L == 0 && millis > 0) {
            return millis / 86_400_000L + " d";
        }
        if (millis % 3_600_000L == 0 && millis > 0) {
            return millis / 3_600_000L + " h";
        }
        if (millis % 60_000L == 0 && millis > 0) {
            return millis / 60_000L + " min";
        }
        if (millis % 1000L == 0 && millis > 0) {
            return millis / 1000L + " s";
        }
        return millis + " ms";
    }
}
