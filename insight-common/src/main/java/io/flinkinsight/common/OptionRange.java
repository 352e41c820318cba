package io.flinkinsight.common;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * The values a numeric option accepts, declared beside the option. The option's description says
 * them ({@link #toString()}), and the module's reader enforces them with an error that says them
 * too, so the documentation and the check cannot drift apart. Both bounds are inclusive. The lower
 * bound is a fixed value or, for a longest wait that must not be shorter than the first one,
 * another option's value ({@link #withMin}).
 *
 * <p>The one declaration of option ranges for both the interactive client and the metrics plugin:
 * each jar shades this module in under its own package (they are deployed apart), so it uses the
 * JDK only.
 */
public final class OptionRange<T extends Comparable<? super T>> {

    private final String noun;
    private final Function<T, String> format;
    private final T min; // null while the lower bound is another option's value
    private final String minInWords; // null when the lower bound is a value
    private final T max; // null when there is no upper bound

    private OptionRange(String noun, Function<T, String> format, T min, String minInWords, T max) {
        this.noun = noun;
        this.format = format;
        this.min = min;
        this.minInWords = minInWords;
        this.max = max;
    }

    /** Durations from {@code min} to {@code max}. */
    public static OptionRange<Duration> durations(Duration min, Duration max) {
        return new OptionRange<>("a duration", OptionRange::format, min, null, max);
    }

    /**
     * Durations from another option's value, named {@code minInWords} in the description (e.g. "the
     * initial delay"), to {@code max}; checked once that value is known ({@link #withMin}).
     */
    public static OptionRange<Duration> durationsFrom(String minInWords, Duration max) {
        return new OptionRange<>("a duration", OptionRange::format, null, minInWords, max);
    }

    /** Integers from {@code min} to {@code max}. */
    public static OptionRange<Integer> integers(int min, int max) {
        return new OptionRange<>("an integer", String::valueOf, min, null, max);
    }

    /** Integers of at least {@code min}. */
    public static OptionRange<Integer> integersFrom(int min) {
        return new OptionRange<>("an integer", String::valueOf, min, null, null);
    }

    /** Numbers from {@code min} to {@code max}. */
    public static OptionRange<Double> numbers(double min, double max) {
        return new OptionRange<>("a number", String::valueOf, min, null, max);
    }

    /**
     * Values of a type this class does not know (such as Flink's {@code MemorySize}), from {@code
     * min} to {@code max}, called {@code noun} ("a size") and written by {@code format}.
     */
    public static <T extends Comparable<? super T>> OptionRange<T> of(
            String noun, Function<T, String> format, T min, T max) {
        return new OptionRange<>(
                noun, format, Objects.requireNonNull(min), null, Objects.requireNonNull(max));
    }

    /**
     * This range with its lower bound now known: {@code min}, the value of the option it was named
     * after.
     */
    public OptionRange<T> withMin(T min) {
        return new OptionRange<>(noun, format, Objects.requireNonNull(min), null, max);
    }

    /**
     * Whether {@code value} is in the range (a number that is not a number compares above every
     * bound, so it is not).
     *
     * @throws IllegalStateException if the lower bound is another option's value, not yet known
     */
    public boolean contains(T value) {
        if (min == null) {
            throw new IllegalStateException(
                    "The lower bound (" + minInWords + ") is not known yet.");
        }
        return value.compareTo(min) >= 0 && (max == null || value.compareTo(max) <= 0);
    }

    /**
     * What an error message says is accepted, e.g. "a duration between 1 ms and 1 min", "an integer
     * of at least 1".
     */
    public String accepted() {
        return noun + (max == null ? " of " : " ") + this;
    }

    /**
     * What an error message says is accepted, as an interval, e.g. "a duration in [1 s, 1 h]"; a
     * range without an upper bound reads as {@link #accepted()}.
     *
     * @throws IllegalStateException if the lower bound is another option's value, not yet known
     */
    public String acceptedAsInterval() {
        if (min == null) {
            throw new IllegalStateException(
                    "The lower bound (" + minInWords + ") is not known yet.");
        }
        return max == null
                ? accepted()
                : noun + " in [" + format.apply(min) + ", " + format.apply(max) + "]";
    }

    /**
     * The range as an option's description says it, e.g. "between 1 ms and 1 min", "at least 1".
     */
    @Override
    public String toString() {
        String lower = min != null ? format.apply(min) : minInWords;
        if (max == null) {
            return "at least " + lower;
        }
        if (min == null) {
            return "at least " + lower + ", at most " + format.apply(max);
        }
        return "between " + lower + " and " + format.apply(max);
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
