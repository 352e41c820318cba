package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The pages of other sites that may use the port ({@code http.allowed-origins}), and how a
 * browser's request from a page of another site is recognised: by the Fetch Metadata headers every
 * current browser sends, else by an {@code Origin} other than the port's own. {@link PortAccess}
 * refuses such a request unless its origin is listed here.
 */
final class AllowedOrigins {

    static final AllowedOrigins NONE = new AllowedOrigins(Set.of());

    /** Lower case, {@code scheme://host[:port]}. */
    private final Set<String> origins;

    private AllowedOrigins(Set<String> origins) {
        this.origins = Set.copyOf(origins);
    }

    /**
     * Reads {@code http.allowed-origins}: comma-separated origins; a bad one fails naming the key.
     */
    static AllowedOrigins parse(String origins, String keyPrefix) {
        Set<String> allowed = new LinkedHashSet<>();
        for (String origin : origins.split(",")) {
            if (!origin.isBlank()) {
                allowed.add(origin(origin.trim(), keyPrefix));
            }
        }
        return new AllowedOrigins(allowed);
    }

    private static String origin(String origin, String keyPrefix) {
        try {
            URI uri = URI.create(origin);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = uri.getRawPath() == null || uri.getRawPath().isEmpty();
            if ((scheme.equals("http") || scheme.equals("https"))
                    && uri.getHost() != null
                    && bare
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null
                    && uri.getRawUserInfo() == null) {
                return origin.toLowerCase(Locale.ROOT);
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                keyPrefix
                        + "http.allowed-origins: '"
                        + origin
                        + "' is invalid; expected origins such as https://grafana.example.com or http://10.0.0.5:3000,"
                        + " comma-separated, without paths");
    }

    /** The request's origin when it is allowed to read answers from a browser, else null. */
    String allowedOrigin(HttpHeaders headers) {
        String origin = headers.get(HttpHeaderNames.ORIGIN);
        if (origin == null || origins.isEmpty()) {
            return null;
        }
        return origins.contains(origin.trim().toLowerCase(Locale.ROOT)) ? origin.trim() : null;
    }

    /**
     * A request carrying an {@code Origin} other than the port's own, from a browser that sent no
     * {@code Sec-Fetch-Site} (browsers send that only over HTTPS and to localhost, and it says
     * more; module scripts carry {@code Origin} even from the port's own page). The port's own is
     * the {@code Host} it was asked as, or the {@code X-Forwarded-Host} a reverse proxy that
     * rewrites {@code Host} passes on.
     */
    static boolean isOtherOrigin(HttpHeaders headers) {
        String origin = headers.get(HttpHeaderNames.ORIGIN);
        if (origin == null || headers.get("Sec-Fetch-Site") != null) {
            return false;
        }
        String o = origin.trim().toLowerCase(Locale.ROOT);
        for (String host :
                new String[] {headers.get(HttpHeaderNames.HOST), headers.get("X-Forwarded-Host")}) {
            String h = host == null ? "" : host.split(",")[0].trim().toLowerCase(Locale.ROOT);
            if (!h.isEmpty() && (o.equals("http://" + h) || o.equals("https://" + h))) {
                return false;
            }
        }
        return true;
    }

    /** A browser's request from a page of another site, other than following a link to the port. */
    static boolean isCrossSite(HttpHeaders headers) {
        String site = headers.get("Sec-Fetch-Site");
        if (site == null) {
            return false; // not a browser, or one too old to say; it still cannot read answers (no
            // CORS)
        }
        site = site.trim().toLowerCase(Locale.ROOT);
        boolean otherSite = site.equals("cross-site") || site.equals("same-site");
        String mode = headers.get("Sec-Fetch-Mode");
        String dest = headers.get("Sec-Fetch-Dest");
        boolean topLevelNavigation =
                "navigate".equalsIgnoreCase(mode) && "document".equalsIgnoreCase(dest);
        return otherSite && !topLevelNavigation;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllowedOrigins other && origins.equals(other.origins);
    }

    /** That of the set, so {@link PortAccess#hashCode} is what it was with the set itself. */
    @Override
    public int hashCode() {
        return origins.hashCode();
    }
}
