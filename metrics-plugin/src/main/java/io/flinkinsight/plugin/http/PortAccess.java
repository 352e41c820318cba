package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Who may use what on the port. {@code /metrics}, and {@code /api/v1/metrics} in the one shape the
 * hub asks it of client processes on other hosts ({@link OpenPaths#isOpenToAll}), answer whoever
 * reaches the port, as Flink's PrometheusReporter does. The panel, the rest of the JSON API and the
 * dashboard proxy answer per {@link Mode} (loopback by default, as far as Flink's shipped {@code
 * rest.bind-address: localhost} lets its own REST API reach), only to a {@code Host} on the {@link
 * HostAllowlist} (against DNS rebinding), and never to a browser page of another site (by the Fetch
 * Metadata headers every current browser sends) unless its origin is allowed: without that, a page
 * an operator happens to open could fire requests at the port even though it cannot read the
 * answers.
 */
public final class PortAccess {

    /** The values of {@code metrics.reporter.insight.http.access}. */
    enum Mode {
        OPEN,
        LOOPBACK,
        TOKEN
    }

    /**
     * The cookie that carries the token for a browser, set by opening a page once with {@code
     * ?token=}; followed by the port, since browsers keep one set of cookies per host whatever the
     * port.
     */
    static final String TOKEN_COOKIE = "flink-insight-token-";

    static final String TOKEN_PARAMETER = "token";
    private static final int MIN_TOKEN_LENGTH = 16;

    /** The scrape's path, open to everyone as Flink's PrometheusReporter is. */
    public static final String METRICS_PATH = "/metrics";

    /** The most figures the open JSON path answers; the hub asks for exactly this many. */
    public static final long MAX_OPEN_METRICS = 1000;

    /** Istio's sidecar forwards inbound connections from this address. */
    private static final String MESH_INBOUND = "127.0.0.6";

    /** A path prefix a reverse proxy passes on, for the cookie's {@code Path}. */
    private static final Pattern FORWARDED_PREFIX = Pattern.compile("(/[A-Za-z0-9._~-]+)+/?");

    /**
     * Everyone, no token, no other origin, no host name but IP literals, localhost and those of
     * this process.
     */
    public static final PortAccess OPEN =
            new PortAccess(Mode.OPEN, new byte[0], AllowedOrigins.NONE, HostAllowlist.NONE_LISTED);

    private final Mode mode;
    private final byte[] token;

    private final AllowedOrigins allowedOrigins;

    private final HostAllowlist hosts;

    /** Why only the scrape is served, or null. */
    private final String onlyScrape;

    /**
     * Whether the query log answers the hub's reading shape to everyone (false with {@code
     * statements.keep-literals}: it then follows the mode like the rest of the API).
     */
    private final boolean queryLogOpen;

    private PortAccess(
            Mode mode, byte[] token, AllowedOrigins allowedOrigins, HostAllowlist hosts) {
        this(mode, token, allowedOrigins, hosts, null, true);
    }

    private PortAccess(
            Mode mode,
            byte[] token,
            AllowedOrigins allowedOrigins,
            HostAllowlist hosts,
            String onlyScrape,
            boolean queryLogOpen) {
        this.onlyScrape = onlyScrape;
        this.queryLogOpen = queryLogOpen;
        this.mode = mode;
        this.token = token.clone();
        this.allowedOrigins = allowedOrigins;
        this.hosts = hosts;
    }

    /** The same access, also accepting this process's own host names in {@code Host}. */
    public PortAccess withOwnHostNames(Collection<String> names) {
        return new PortAccess(
                mode, token, allowedOrigins, hosts.withOwnNames(names), onlyScrape, queryLogOpen);
    }

    /**
     * The same access, the query log in the hub's reading shape open to everyone or not: not when
     * its statements keep their literals ({@code statements.keep-literals}), which may carry
     * personal data; it then follows the mode like the rest of the API.
     */
    public PortAccess withQueryLogOpen(boolean open) {
        return new PortAccess(mode, token, allowedOrigins, hosts, onlyScrape, open);
    }

    /**
     * Whether this is loopback mode, in which a local forwarder makes every remote client local.
     */
    public boolean isLoopback() {
        return mode == Mode.LOOPBACK;
    }

    Mode mode() {
        return mode;
    }

    /**
     * Reads the options' values; a bad value fails naming the key (never echoing the token).
     *
     * @param keyPrefix how the user spelled the options' prefix, for messages
     */
    public static PortAccess parse(String mode, String token, String origins, String keyPrefix) {
        return parse(mode, token, origins, "", keyPrefix);
    }

    /**
     * Reads the options' values; a bad value fails naming the key (never echoing the token).
     *
     * @param hostNames the value of {@code http.allowed-hosts}
     * @param keyPrefix how the user spelled the options' prefix, for messages
     */
    public static PortAccess parse(
            String mode, String token, String origins, String hostNames, String keyPrefix) {
        Mode m;
        try {
            m = Mode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    keyPrefix
                            + "http.access: '"
                            + mode
                            + "' is invalid; expected open, loopback or token");
        }
        String t = token.trim();
        if (m == Mode.TOKEN
                && (t.length() < MIN_TOKEN_LENGTH
                        || !t.chars().allMatch(PortAccess::isCookieOctet))) {
            throw new IllegalArgumentException(
                    keyPrefix
                            + "http.token must be at least "
                            + MIN_TOKEN_LENGTH
                            + " printable ASCII characters without spaces, '\"', ',', ';' or '\\' when "
                            + keyPrefix
                            + "http.access is token (the value is not shown)");
        }
        return new PortAccess(
                m,
                m == Mode.TOKEN ? t.getBytes(StandardCharsets.US_ASCII) : new byte[0],
                AllowedOrigins.parse(origins, keyPrefix),
                HostAllowlist.parse(hostNames, keyPrefix));
    }

    /**
     * RFC 6265's cookie-octet: what a cookie value may hold, so the token survives the login
     * cookie.
     */
    private static boolean isCookieOctet(int c) {
        return c > 0x20 && c < 0x7f && c != '"' && c != ',' && c != ';' && c != '\\';
    }

    /**
     * The query log answers everyone only under a name of this host (an IP address, localhost, its
     * own names, {@code http.allowed-hosts}): a page whose name was re-resolved to this host would
     * otherwise read the statements as same-origin.
     */
    private HttpReply queryLogHostRefusal(HttpHeaders headers) {
        String host = HostAllowlist.hostOf(headers.get(HttpHeaderNames.HOST));
        if (host != null && hosts.allows(host)) {
            return null;
        }
        return HttpReply.error(
                HttpResponseStatus.MISDIRECTED_REQUEST,
                "the query log answers only to this host's names and addresses; a hub that reaches"
                        + " this process by another name lists it in metrics.reporter.insight."
                        + HostAllowlist.OPTION);
    }

    /**
     * {@link #refusal(RequestTarget, HttpHeaders, SocketAddress, int)} on a port of no importance
     * (tests).
     */
    HttpReply refusal(RequestTarget target, HttpHeaders headers, SocketAddress remote) {
        return refusal(target, headers, remote, 0);
    }

    /**
     * Null when the request may be answered, else the refusal. What {@link OpenPaths#isOpenToAll}
     * names is always answered.
     *
     * @param remote the client's address
     * @param port the port the request came in on, which names the token's cookie
     */
    HttpReply refusal(RequestTarget target, HttpHeaders headers, SocketAddress remote, int port) {
        if (OpenPaths.isOpenToAll(target, queryLogOpen)) {
            return OpenPaths.isQueryLog(target) ? queryLogHostRefusal(headers) : null;
        }
        String host = HostAllowlist.hostOf(headers.get(HttpHeaderNames.HOST));
        if (host == null) {
            return HttpReply.error(
                    HttpResponseStatus.BAD_REQUEST,
                    "a request for the panel, its API or Flink's"
                            + " dashboard must name the host in a valid Host header; /metrics needs none");
        }
        String refused = hosts.allows(host) ? refusedForwardedHost(headers) : host;
        if (refused != null) {
            return HttpReply.error(
                    HttpResponseStatus.MISDIRECTED_REQUEST,
                    "this port does not answer to the host"
                            + " name "
                            + refused
                            + " (a page of another site may have re-resolved its name to this host);"
                            + " allow the name with metrics.reporter.insight."
                            + HostAllowlist.OPTION);
        }
        if (onlyScrape != null) {
            return HttpReply.error(HttpResponseStatus.FORBIDDEN, onlyScrape);
        }
        if ((AllowedOrigins.isCrossSite(headers) || AllowedOrigins.isOtherOrigin(headers))
                && allowedOrigin(headers) == null) {
            return HttpReply.error(
                    HttpResponseStatus.FORBIDDEN,
                    "a page of another site may not use this port;"
                            + " allow its origin with metrics.reporter.insight.http.allowed-origins");
        }
        switch (mode) {
            case LOOPBACK:
                // Only names that no page's site can re-resolve, or that the operator listed.
                if (remote instanceof InetSocketAddress mesh
                        && mesh.getAddress() != null
                        && MESH_INBOUND.equals(mesh.getAddress().getHostAddress())) {
                    return HttpReply.error(
                            HttpResponseStatus.FORBIDDEN,
                            "a service mesh's sidecar forwarded this"
                                    + " request (from "
                                    + MESH_INBOUND
                                    + "), so loopback does not mean this host here; set"
                                    + " metrics.reporter.insight.http.access: token");
                }
                if (!(remote instanceof InetSocketAddress address)
                        || address.getAddress() == null
                        || !address.getAddress().isLoopbackAddress()
                        || !hosts.allowsForLoopback(host)) {
                    return HttpReply.error(
                            HttpResponseStatus.FORBIDDEN,
                            "this port serves the panel, its API and"
                                    + " Flink's dashboard only to loopback (metrics.reporter.insight.http.access: loopback,"
                                    + " the default: reach it with kubectl port-forward or ssh -L, or set http.access to"
                                    + " token); /metrics is open");
                }
                return null;
            case TOKEN:
                return hasToken(headers, port)
                        ? null
                        : HttpReply.error(
                                HttpResponseStatus.UNAUTHORIZED,
                                "a bearer token is required (metrics.reporter.insight.http.access: token); /metrics is open",
                                Map.of("WWW-Authenticate", "Bearer realm=\"flink-insight\""));
            default:
                return null;
        }
    }

    /**
     * The answer to a page opened with a valid {@code ?token=}: the token goes into an HttpOnly,
     * strictly same-site cookie named after the port, for the path prefix a reverse proxy says it
     * serves the port under ({@code X-Forwarded-Prefix}, else {@code /}), {@code Secure} when the
     * browser came over HTTPS (the port's own, or a reverse proxy's, as it says with {@code
     * X-Forwarded-Proto}); the browser is sent to the same page without the token (so it leaves the
     * address bar and the history). Null for any other request.
     */
    HttpReply tokenLogin(RequestTarget target, HttpHeaders headers, int port) {
        return tokenLogin(target, headers, port, false);
    }

    /**
     * @param overTls whether the request came over the port's own TLS (http.ssl.enabled)
     */
    HttpReply tokenLogin(RequestTarget target, HttpHeaders headers, int port, boolean overTls) {
        if (mode != Mode.TOKEN || !target.trailingSlash()) {
            return null;
        }
        List<String> given = target.query().asMap().get(TOKEN_PARAMETER);
        if (given == null || given.size() != 1 || !matches(given.get(0))) {
            return null;
        }
        String prefix = headers.get("X-Forwarded-Prefix");
        String path =
                prefix != null && FORWARDED_PREFIX.matcher(prefix.trim()).matches()
                        ? prefix.trim()
                        : "/";
        boolean https =
                overTls
                        || "https"
                                .equalsIgnoreCase(
                                        String.valueOf(headers.get("X-Forwarded-Proto")).trim());
        String cookie =
                TOKEN_COOKIE
                        + port
                        + "="
                        + new String(token, StandardCharsets.US_ASCII)
                        + "; Path="
                        + path
                        + "; HttpOnly; SameSite=Strict"
                        + (https ? "; Secure" : "");
        return HttpReply.empty(
                HttpResponseStatus.SEE_OTHER,
                Map.of("Location", "./", "Set-Cookie", cookie, "Cache-Control", "no-store"));
    }

    /**
     * The first name of {@code X-Forwarded-Host} (every header, every comma-separated value: a
     * proxy may append its own after one the client sent) that is not allowed, or null. A reverse
     * proxy that sends its upstream's address as {@code Host} passes the browser's on there.
     */
    private String refusedForwardedHost(HttpHeaders headers) {
        for (String header : headers.getAll("X-Forwarded-Host")) {
            for (String value : header.split(",")) {
                String name = HostAllowlist.hostOf(value);
                if (!hosts.allows(name)) {
                    return name == null ? "(malformed)" : name;
                }
            }
        }
        return null;
    }

    /**
     * The same access serving only {@code /metrics} and the hub's gathering; everything else is
     * refused with {@code why}. For a port that would show Flink's REST data to clients Flink
     * itself would refuse.
     */
    public PortAccess onlyScrape(String why) {
        return new PortAccess(mode, token, allowedOrigins, hosts, why, queryLogOpen);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortAccess other
                && mode == other.mode
                && MessageDigest.isEqual(token, other.token)
                && allowedOrigins.equals(other.allowedOrigins)
                && hosts.equals(other.hosts)
                && Objects.equals(onlyScrape, other.onlyScrape)
                && queryLogOpen == other.queryLogOpen;
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, allowedOrigins, hosts, queryLogOpen);
    }

    /** The request's origin when it is allowed to read answers from a browser, else null. */
    String allowedOrigin(HttpHeaders headers) {
        return allowedOrigins.allowedOrigin(headers);
    }

    private boolean hasToken(HttpHeaders headers, int port) {
        String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
        if (authorization != null
                && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && matches(authorization.substring(7).trim())) {
            return true;
        }
        String cookies = headers.get(HttpHeaderNames.COOKIE);
        if (cookies != null) {
            for (Cookie cookie : ServerCookieDecoder.STRICT.decodeAll(cookies)) {
                if (cookie.name().equals(TOKEN_COOKIE + port) && matches(cookie.value())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Constant-time comparison, so the answer's timing tells nothing about how much of a guess was
     * right.
     */
    private boolean matches(String candidate) {
        return token.length > 0
                && MessageDigest.isEqual(token, candidate.getBytes(StandardCharsets.UTF_8));
    }
}
