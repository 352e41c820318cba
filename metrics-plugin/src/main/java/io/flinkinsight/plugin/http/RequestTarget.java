package io.flinkinsight.plugin.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request target decoded exactly once, as every route of the port (and Flink's router, behind the
 * dashboard proxy) will see it. Decoding never changes the path's shape: a target whose segments
 * would differ after decoding (encoded separators, dot segments, double encoding, invalid UTF-8,
 * control characters) is refused with the {@link TargetRefusal} that caught it, so no check
 * downstream can be fooled by a spelling.
 *
 * @param segments the decoded path segments; none is empty, ".", "..", or holds '/', '\', '%' or a
 *     control character
 * @param trailingSlash whether the path ended with '/' (the root "/" has no segments and a trailing
 *     slash)
 * @param query the decoded query parameters
 */
public record RequestTarget(List<String> segments, boolean trailingSlash, QueryParameters query) {

    static final int MAX_QUERY_PARAMETERS = 64;

    /** RFC 3986 pchar without '%': unreserved, sub-delims, ':' and '@'. */
    private static final String PATH_CHARACTERS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@";

    /**
     * Besides '/', '?' and '%', what browsers leave unencoded in a query (the WHATWG URL standard's
     * query set) and Flink's dashboard may send in a metric name; never '\', '<', '>', '"' or a
     * space.
     */
    private static final String QUERY_CHARACTERS_BROWSERS_SEND_RAW = "/?%[]{}|^`";

    public RequestTarget {
        segments = List.copyOf(segments);
    }

    /**
     * Decodes the target of a request line (origin form: an absolute path and an optional query).
     */
    public static RequestTarget parse(String uri) throws TargetRefusal.Refused {
        if (uri.isEmpty() || uri.charAt(0) != '/') {
            throw TargetRefusal.NOT_ABSOLUTE.refuse();
        }
        if (uri.indexOf('#') >= 0) {
            throw TargetRefusal.FRAGMENT.refuse();
        }
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        String rawQuery = q < 0 ? "" : uri.substring(q + 1);
        checkRawCharacters(rawPath, "/%");
        String[] raw = rawPath.substring(1).split("/", -1);
        boolean trailingSlash = raw[raw.length - 1].isEmpty();
        List<String> segments = new ArrayList<>(raw.length);
        for (int i = 0; i < raw.length - (trailingSlash ? 1 : 0); i++) {
            segments.add(segment(raw[i]));
        }
        return new RequestTarget(segments, trailingSlash, new QueryParameters(query(rawQuery)));
    }

    /** The decoded path, e.g. {@code /api/v1/jobs}; unambiguous because no segment holds '/'. */
    public String path() {
        return segments.isEmpty()
                ? "/"
                : "/" + String.join("/", segments) + (trailingSlash ? "/" : "");
    }

    /**
     * Whether the path is {@code prefix} itself or lies under it: {@code ["flink"]} matches /flink
     * and /flink/x.
     */
    public boolean startsWith(List<String> prefix) {
        return segments.size() >= prefix.size()
                && segments.subList(0, prefix.size()).equals(prefix);
    }

    /**
     * Refuses a character of {@code raw} that is neither a path character nor one of {@code
     * alsoAllowed}.
     */
    private static void checkRawCharacters(String raw, String alsoAllowed)
            throws TargetRefusal.Refused {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (PATH_CHARACTERS.indexOf(c) < 0 && alsoAllowed.indexOf(c) < 0) {
                throw (c < 0x20 || c == 0x7f
                                ? TargetRefusal.CONTROL_CHARACTER
                                : TargetRefusal.ILLEGAL_CHARACTER)
                        .refuse();
            }
        }
    }

    private static String segment(String raw) throws TargetRefusal.Refused {
        if (raw.isEmpty()) {
            throw TargetRefusal.EMPTY_SEGMENT.refuse();
        }
        String decoded = decode(raw, false);
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (c == '/' || c == '\\') {
                throw TargetRefusal.ENCODED_SEPARATOR.refuse();
            }
            if (c == '%') {
                throw TargetRefusal.DOUBLE_ENCODING.refuse();
            }
        }
        if (decoded.equals(".") || decoded.equals("..")) {
            throw TargetRefusal.DOT_SEGMENT.refuse();
        }
        return decoded;
    }

    private static Map<String, List<String>> query(String rawQuery) throws TargetRefusal.Refused {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (rawQuery.isEmpty()) {
            return params;
        }
        int count = 0;
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            if (++count > MAX_QUERY_PARAMETERS) {
                throw TargetRefusal.TOO_MANY_PARAMETERS.refuse();
            }
            checkRawCharacters(pair, QUERY_CHARACTERS_BROWSERS_SEND_RAW);
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            params.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return params;
    }

    /**
     * Percent-decodes {@code raw} into UTF-8 text, strictly: bad escapes, invalid or overlong UTF-8
     * and decoded control characters are refused. In a query '+' is a space, as browsers encode
     * forms.
     */
    static String decode(String raw, boolean plusIsSpace) throws TargetRefusal.Refused {
        if (raw.indexOf('%') < 0 && !(plusIsSpace && raw.indexOf('+') >= 0)) {
            return raw; // only legal ASCII characters were let through
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw TargetRefusal.MALFORMED_PERCENT.refuse();
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw TargetRefusal.MALFORMED_PERCENT.refuse();
                }
                bytes.put((byte) (hi << 4 | lo));
                i += 2;
            } else {
                bytes.put((byte) (plusIsSpace && c == '+' ? ' ' : c));
            }
        }
        bytes.flip();
        CharBuffer text;
        try {
            CharsetDecoder utf8 =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT);
            text = utf8.decode(bytes);
        } catch (CharacterCodingException e) {
            throw TargetRefusal.INVALID_UTF8.refuse();
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                throw TargetRefusal.CONTROL_CHARACTER.refuse();
            }
        }
        return text.toString();
    }
}
