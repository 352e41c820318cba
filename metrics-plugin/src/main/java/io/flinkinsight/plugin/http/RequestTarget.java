package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The validated path and query of a request target. Anything that could walk out of the served folders or confuse a
 * path check ({@code ..}, encoded dots or slashes, backslashes, NUL and other control characters) is refused before
 * any decoding, and again after it.
 *
 * @param path the decoded path
 * @param query the decoded query parameters
 * @param rawPath the path as sent (validated like {@code path}), for forwarding without re-encoding
 * @param rawQuery the query string as sent, without {@code ?}; empty when there is none
 */
record RequestTarget(String path, QueryParameters query, String rawPath, String rawQuery) {

    private static final String[] FORBIDDEN_RAW = {"..", "%2e", "%2f", "%5c", "%00", "\\"};
    private static final int MAX_QUERY_PARAMETERS = 64;

    static RequestTarget parse(String uri) throws BadRequestException {
        if (uri.isEmpty() || uri.charAt(0) != '/') {
            throw new BadRequestException("request target must be an absolute path");
        }
        int end = uri.length();
        int q = uri.indexOf('?');
        int hash = uri.indexOf('#');
        if (hash >= 0) {
            end = hash;
        }
        String rawPath = uri.substring(0, q >= 0 && q < end ? q : end);
        String rawQuery = q >= 0 && q < end ? uri.substring(q + 1, end) : "";
        checkPath(rawPath.toLowerCase(Locale.ROOT));
        try {
            QueryStringDecoder decoder = new QueryStringDecoder(
                    uri.substring(0, end), StandardCharsets.UTF_8, true, MAX_QUERY_PARAMETERS);
            String path = decoder.path();
            checkPath(path);
            Map<String, List<String>> params = decoder.parameters();
            return new RequestTarget(path, new QueryParameters(params), rawPath, rawQuery);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("malformed percent-encoding in the request target");
        }
    }

    static void checkPath(String path) throws BadRequestException {
        for (String forbidden : FORBIDDEN_RAW) {
            if (path.contains(forbidden)) {
                throw new BadRequestException("path not allowed");
            }
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new BadRequestException("path not allowed");
            }
        }
    }
}
