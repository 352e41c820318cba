package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.QueryParameters;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses time query parameters: instants as epoch milliseconds, {@code now}, or relative to now
 * ({@code -15m}, {@code -1h}, {@code -30s}, {@code -2d}, {@code -500ms}); durations as milliseconds
 * or {@code 30s}, {@code 5m}.
 */
final class TimeParameters {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)?");

    private TimeParameters() {}

    /**
     * The instant named by parameter {@code name} (never before the epoch), or {@code fallback}
     * when absent.
     */
    static long instant(QueryParameters query, String name, long now, long fallback)
            throws BadRequestException {
        Optional<String> raw = query.get(name);
        if (raw.isEmpty() || raw.get().isBlank()) {
            return fallback;
        }
        String v = raw.get().trim();
        if (v.equals("now")) {
            return now;
        }
        if (v.startsWith("-")) {
            Long d = durationMillis(v.substring(1));
            if (d == null) {
                throw bad(name);
            }
            // Before the epoch is the epoch, as for an absolute instant, so no window's span (to -
            // from) overflows.
            return Math.max(0, now - d);
        }
        try {
            long epoch = Long.parseLong(v);
            if (epoch < 0) {
                throw bad(name);
            }
            return epoch;
        } catch (NumberFormatException e) {
            throw bad(name);
        }
    }

    /** The positive duration named by parameter {@code name} in milliseconds, or 0 when absent. */
    static long duration(QueryParameters query, String name) throws BadRequestException {
        Optional<String> raw = query.get(name);
        if (raw.isEmpty() || raw.get().isBlank()) {
            return 0;
        }
        Long d = durationMillis(raw.get().trim());
        if (d == null || d <= 0) {
            throw new BadRequestException(
                    "parameter '"
                            + name
                            + "' must be a positive duration: milliseconds or e.g. 30s, 5m, 1h");
        }
        return d;
    }

    private static Long durationMillis(String v) {
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        long factor =
                switch (unit) {
                    case "s" -> 1_000L;
                    case "m" -> 60_000L;
                    case "h" -> 3_600_000L;
                    case "d" -> 86_400_000L;
                    default -> 1L;
                };
        return n > Long.MAX_VALUE / factor ? null : n * factor;
    }

    private static BadRequestException bad(String name) {
        return new BadRequestException(
                "parameter '"
                        + name
                        + "' must be epoch milliseconds, 'now', or relative to now like -15m, -1h, -30s");
    }
}
