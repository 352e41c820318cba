package io.flinkinsight.plugin.proxy;

import java.net.URI;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which headers cross the dashboard proxy. Towards Flink only what content negotiation needs; back
 * to the browser Flink's end-to-end headers, without hop-by-hop headers (RFC 9110 7.6.1), without
 * what the plugin's server sets itself, and with a redirect's {@code Location} moved under {@code
 * /flink/}.
 */
final class ProxyHeaders {

    /**
     * Forwarded to Flink. Not Accept-Encoding (the plugin compresses towards the browser itself),
     * not conditional headers (a 304 carries no body the plugin's server could measure), not
     * cookies or credentials.
     */
    static final List<String> FORWARDED_REQUEST_HEADERS = List.of("Accept", "Accept-Language");

    private static final Set<String> HOP_BY_HOP =
            Set.of(
                    "connection",
                    "keep-alive",
                    "proxy-connection",
                    "proxy-authenticate",
                    "proxy-authorization",
                    "te",
                    "trailer",
                    "transfer-encoding",
                    "upgrade");

    /** Set by the plugin's server on every answer, or meaningless after the body was re-framed. */
    private static final Set<String> SET_BY_SERVER =
            Set.of(
                    "content-length",
                    "content-type",
                    "access-control-allow-origin",
                    "x-content-type-options",
                    "set-cookie",
                    ":status");

    private ProxyHeaders() {}

    /** The request headers to send to Flink, from the browser's. */
    static Map<String, String> request(io.netty.handler.codec.http.HttpHeaders browser) {
        Map<String, String> out = new LinkedHashMap<>();
        if (browser == null) {
            return out;
        }
        for (String name : FORWARDED_REQUEST_HEADERS) {
            String value = browser.get(name);
            if (value != null
                    && !value.isBlank()
                    && value.chars().noneMatch(c -> c < 0x20 && c != '\t')) {
                out.put(name, value);
            }
        }
        return out;
    }

    /**
     * The response headers to send to the browser, from Flink's: one value per name (repeated
     * headers joined with a comma, as HTTP allows for list-valued fields).
     *
     * @param upstreamBase Flink's REST base URL, to recognise absolute redirects to Flink itself
     */
    static Map<String, String> response(java.net.http.HttpHeaders flink, String upstreamBase) {
        Set<String> connectionOptions = new HashSet<>();
        for (String value : flink.allValues("connection")) {
            for (String option : value.split(",")) {
                connectionOptions.add(option.trim().toLowerCase(Locale.ROOT));
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        flink.map()
                .forEach(
                        (name, values) -> {
                            String lower = name.toLowerCase(Locale.ROOT);
                            if (values.isEmpty()
                                    || HOP_BY_HOP.contains(lower)
                                    || SET_BY_SERVER.contains(lower)
                                    || connectionOptions.contains(lower)) {
                                return;
                            }
                            String value = String.join(", ", values);
                            out.put(
                                    name,
                                    lower.equals("location")
                                            ? location(value, upstreamBase)
                                            : value);
                        });
        return out;
    }

    /**
     * A redirect target as the browser must see it: paths and absolute URLs of Flink itself move
     * under {@code /flink/}; relative references stay (they resolve under {@code /flink/} already);
     * other sites stay.
     */
    static String location(String location, String upstreamBase) {
        String base =
                upstreamBase.endsWith("/")
                        ? upstreamBase.substring(0, upstreamBase.length() - 1)
                        : upstreamBase;
        String basePath = pathOf(base);
        String path;
        if (location.startsWith(base + "/")) {
            path = location.substring(base.length());
        } else if (location.startsWith("/") && !location.startsWith("//")) {
            path =
                    location.startsWith(basePath + "/")
                            ? location.substring(basePath.length())
                            : location;
        } else {
            return location;
        }
        return "/" + DashboardRoutes.PREFIX + path;
    }

    private static String pathOf(String base) {
        try {
            String p = URI.create(base).getRawPath();
            return p == null ? "" : p;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
