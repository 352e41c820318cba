package io.flinkinsight.plugin.http;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Maps a request path under {@value #PREFIX}/ to the same resource under Flink's REST base URL, and refuses whatever
 * could leave that root (dot segments, encoded separators, empty segments) or change state in Flink through a GET.
 */
final class ProxiedPath {

    static final String PREFIX = "/flink";
    static final String ROOT = PREFIX + "/";

    /**
     * Flink's legacy GET endpoints that cancel or stop a job ({@code /jobs/:id/yarn-cancel}, {@code yarn-stop}, still
     * registered in 2.2): the proxy is read-only, so they are refused.
     */
    private static final Set<String> STATE_CHANGING_SEGMENTS = Set.of("yarn-cancel", "yarn-stop");

    private ProxiedPath() {}

    /** Whether {@code path} belongs to the proxy: {@code /flink} itself or anything under {@code /flink/}. */
    static boolean isProxied(String path) {
        return path.equals(PREFIX) || path.startsWith(ROOT);
    }

    /** The path inside Flink for a raw request path under {@code /flink/}: {@code /flink/jobs} is {@code /jobs}. */
    static String upstreamPath(String rawPath) throws BadRequestException {
        if (!rawPath.startsWith(ROOT)) {
            throw new BadRequestException("not a path under " + ROOT);
        }
        String path = rawPath.substring(PREFIX.length());
        // RequestTarget already refused these; checked again because this is the one place a path leaves the plugin.
        RequestTarget.checkPath(path.toLowerCase(Locale.ROOT));
        if (path.contains("//")) {
            throw new BadRequestException("path not allowed");
        }
        for (String segment : path.split("/")) {
            if (segment.equals(".") || STATE_CHANGING_SEGMENTS.contains(segment.toLowerCase(Locale.ROOT))) {
                throw new BadRequestException("path not allowed through the read-only dashboard proxy");
            }
        }
        return path;
    }

    /** Whether the upstream path names Flink's {@code index.html}, the one response the tab is injected into. */
    static boolean isIndex(String upstreamPath) {
        return upstreamPath.equals("/") || upstreamPath.equals("/index.html");
    }

    /**
     * The URI to fetch from Flink: {@code baseUrl} (scheme, host, port and any path prefix) followed by the path
     * inside Flink and the raw query. Fails when the result would leave {@code baseUrl}.
     */
    static URI upstreamUri(String baseUrl, String rawPath, String rawQuery) throws BadRequestException {
        String path = upstreamPath(rawPath);
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        URI baseUri = URI.create(base);
        URI uri;
        try {
            uri = URI.create(base + path + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("request target cannot be forwarded to Flink");
        }
        String basePath = baseUri.getRawPath() == null ? "" : baseUri.getRawPath();
        boolean sameServer = Objects.equals(uri.getScheme(), baseUri.getScheme())
                && Objects.equals(uri.getRawAuthority(), baseUri.getRawAuthority());
        boolean insideRoot = uri.getRawPath() != null
                && uri.getRawPath().startsWith(basePath + "/")
                && uri.normalize().getRawPath().equals(uri.getRawPath());
        if (!sameServer || !insideRoot || uri.getRawFragment() != null) {
            throw new BadRequestException("path not allowed");
        }
        return uri;
    }
}
