package io.flinkinsight.plugin.http;

import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;

/**
 * The ports the HTTP server may bind, parsed from "9250", "9250,9251", "9250-9260" or a mix, tried
 * in the order given. Same syntax as the {@code port} option of Flink's PrometheusReporter.
 */
public final class PortRange {

    private final String text;
    private final List<int[]> segments;

    private PortRange(String text, List<int[]> segments) {
        this.text = text;
        this.segments = segments;
    }

    /**
     * Parses {@code text}; the message of the exception says what is accepted, the caller prefixes
     * the key.
     */
    public static PortRange parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException(describe(text));
        }
        List<int[]> segments = new ArrayList<>();
        for (String part : trimmed.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            int from = dash < 0 ? port(p, text) : port(p.substring(0, dash), text);
            int to = dash < 0 ? from : port(p.substring(dash + 1), text);
            if (to < from) {
                throw new IllegalArgumentException(describe(text));
            }
            segments.add(new int[] {from, to});
        }
        return new PortRange(trimmed, List.copyOf(segments));
    }

    private static int port(String s, String whole) {
        try {
            int port = Integer.parseInt(s.trim());
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(whole));
        }
    }

    private static String describe(String value) {
        return "'"
                + value
                + "' is not a port, a list of ports (9250,9251) or a range (9250-9260) of ports in"
                + " [0, 65535]";
    }

    /** The ports in the order they are tried. */
    public PrimitiveIterator.OfInt iterator() {
        return segments.stream().flatMapToInt(s -> IntStream.rangeClosed(s[0], s[1])).iterator();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortRange other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
