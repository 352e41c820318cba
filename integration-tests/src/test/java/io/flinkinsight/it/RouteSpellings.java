package io.flinkinsight.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ways one Flink REST path can be written in a request target that some decoder on the way (the
 * plugin's, the proxy's HTTP client, Flink's router) may read as that path: percent-encodings in
 * either case, double encoding, case, dot segments, doubled or other separators, overlong and
 * invalid UTF-8, trailing characters, queries, Flink's versioned prefix, and the plugin's prefixes
 * spelled differently. A deny list misses some of them; an allowlist must refuse them all.
 */
final class RouteSpellings {

    /**
     * Every prefix the plugin's port serves: the proxy, the panel, the JSON API, the tab's script.
     */
    static final List<String> PREFIXES = List.of("/flink/", "/", "/api/v1/", "/insight-tab/");

    /** The proxy's prefix as a decoder might still read it; sent with the path as is. */
    static final List<String> PREFIX_VARIANTS =
            List.of("/flink//", "/flink/./", "/FLINK/", "/%66link/", "/flink%2F");

    /** What may stand where a {@code /} between two segments is. */
    private static final List<String> SEPARATORS =
            List.of(
                    "//",
                    "/./",
                    "/x/../",
                    "/x/%2e%2e/",
                    "/x/%2E%2E/",
                    "\\",
                    "%5C",
                    "%5c",
                    "%2F",
                    "%C0%AF",
                    "/%C0%AE/",
                    "/x/%C0%AE%C0%AE/");

    /** What may follow the path. */
    private static final List<String> SUFFIXES =
            List.of("/", ".", "%2F", "/.", "?a=1", ";a=1", "#x", "%FF");

    /** One segment of a filled-in route: literal (from the template) or a parameter's value. */
    record Segment(String text, boolean literal) {}

    /** One way to write a request target, with the trick it uses. */
    record Spelling(String trick, String target) {}

    private RouteSpellings() {}

    /**
     * The template's segments with parameters ({@code :name}) replaced by {@code values}, else by
     * {@code other}.
     */
    static List<Segment> fill(String template, Map<String, String> values, String other) {
        List<Segment> segments = new ArrayList<>();
        for (String part : template.substring(1).split("/")) {
            boolean parameter = part.startsWith(":");
            segments.add(
                    new Segment(
                            parameter ? values.getOrDefault(part.substring(1), other) : part,
                            !parameter));
        }
        return segments;
    }

    static String join(List<Segment> path) {
        return String.join("/", path.stream().map(Segment::text).toList());
    }

    /**
     * The path under every prefix in every spelling, the canonical one first; then under the prefix
     * variants.
     */
    static List<Spelling> all(List<Segment> path) {
        List<Spelling> paths = pathSpellings(path);
        List<Spelling> all = new ArrayList<>();
        for (String prefix : PREFIXES) {
            for (Spelling spelling : paths) {
                all.add(new Spelling(spelling.trick(), prefix + spelling.target()));
            }
        }
        for (String variant : PREFIX_VARIANTS) {
            all.add(new Spelling("prefix " + variant, variant + join(path)));
        }
        return all;
    }

    /** The spellings of the path without a leading slash, the canonical one first. */
    static List<Spelling> pathSpellings(List<Segment> path) {
        String canonical = join(path);
        List<Spelling> out = new ArrayList<>();
        out.add(new Spelling("as is", canonical));
        for (int i = 0; i < path.size(); i++) {
            Segment segment = path.get(i);
            if (!segment.literal()) {
                continue;
            }
            String text = segment.text();
            for (int k = 0; k < text.length(); k++) {
                char c = text.charAt(k);
                String upper = String.format("%%%02X", (int) c);
                String lower = upper.toLowerCase(Locale.ROOT);
                String where = "'" + c + "' of " + text;
                out.add(new Spelling(where + " as " + upper, replaceChar(path, i, k, upper)));
                if (!lower.equals(upper)) {
                    out.add(new Spelling(where + " as " + lower, replaceChar(path, i, k, lower)));
                }
                out.add(
                        new Spelling(
                                where + " double-encoded",
                                replaceChar(path, i, k, "%25" + upper.substring(1))));
            }
            String upperCase = text.toUpperCase(Locale.ROOT);
            if (!upperCase.equals(text)) {
                out.add(new Spelling(text + " upper case", replaceSegment(path, i, upperCase)));
            }
            String capitalised = Character.toUpperCase(text.charAt(0)) + text.substring(1);
            if (!capitalised.equals(text) && !capitalised.equals(upperCase)) {
                out.add(new Spelling(text + " capitalised", replaceSegment(path, i, capitalised)));
            }
        }
        out.add(new Spelling("every character but / encoded", encodeAll(canonical, false)));
        out.add(new Spelling("every character encoded", encodeAll(canonical, true)));
        for (int i = 1; i < path.size(); i++) {
            for (String separator : SEPARATORS) {
                String trick = separator + " before " + path.get(i).text();
                out.add(new Spelling(trick, replaceSeparator(path, i, separator)));
            }
        }
        for (String suffix : SUFFIXES) {
            out.add(new Spelling("trailing " + suffix, canonical + suffix));
        }
        // Flink serves every route under its version prefix too.
        out.add(new Spelling("Flink's /v1/ prefix", "v1/" + canonical));
        return out;
    }

    private static String replaceChar(
            List<Segment> path, int segment, int index, String replacement) {
        String text = path.get(segment).text();
        return replaceSegment(
                path, segment, text.substring(0, index) + replacement + text.substring(index + 1));
    }

    private static String replaceSegment(List<Segment> path, int segment, String replacement) {
        List<String> texts = new ArrayList<>(path.stream().map(Segment::text).toList());
        texts.set(segment, replacement);
        return String.join("/", texts);
    }

    /** The path with {@code separator} instead of the {@code /} before segment {@code index}. */
    private static String replaceSeparator(List<Segment> path, int index, String separator) {
        return join(path.subList(0, index)) + separator + join(path.subList(index, path.size()));
    }

    private static String encodeAll(String path, boolean slashes) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            encoded.append(b == '/' && !slashes ? "/" : String.format("%%%02X", b & 0xFF));
        }
        return encoded.toString();
    }
}
