package io.flinkinsight.plugin.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decoded query string of a request, with typed accessors that fail as {@link
 * BadRequestException}.
 */
public final class QueryParameters {

    private final Map<String, List<String>> values;

    public QueryParameters(Map<String, List<String>> values) {
        // In the order given, so what the dashboard proxy forwards reads like what was sent.
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Map<String, List<String>> asMap() {
        return values;
    }

    /** The single value of {@code name}, if present; a repeated parameter is a bad request. */
    public Optional<String> get(String name) throws BadRequestException {
        List<String> v = values.get(name);
        if (v == null || v.isEmpty()) {
            return Optional.empty();
        }
        if (v.size() > 1) {
            throw new BadRequestException("parameter '" + name + "' given more than once");
        }
        return Optional.of(v.get(0));
    }

    public String require(String name) throws BadRequestException {
        return get(name)
                .orElseThrow(() -> new BadRequestException("missing parameter '" + name + "'"));
    }

    /** {@code true} or {@code false} (any case), or {@code fallback} when absent. */
    public boolean getBoolean(String name, boolean fallback) throws BadRequestException {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return fallback;
        }
        String s = v.get().trim();
        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(s.toLowerCase(java.util.Locale.ROOT));
        }
        throw new BadRequestException("parameter '" + name + "' must be true or false");
    }

    /** A long in [min, max], or {@code fallback} when absent. */
    public long getLong(String name, long fallback, long min, long max) throws BadRequestException {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(v.get().trim());
            if (parsed < min || parsed > max) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new BadRequestException(
                    "parameter '" + name + "' must be an integer in [" + min + ", " + max + "]");
        }
    }
}
