package io.flinkinsight.plugin.http;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names a request's {@code Host} may give for the panel, the JSON API and the dashboard proxy:
 * IP literals, {@code localhost}, this process's own host names and Flink's {@code rest.address},
 * and the names of {@code http.allowed-hosts}. A page of another site whose name an attacker
 * re-resolves to this host (DNS rebinding) is same-origin for the browser; the name in its {@code
 * Host} is what gives it away, and a page cannot set {@code Host}. IP literals cannot be
 * re-resolved, so they are always accepted.
 */
final class HostAllowlist {

    static final String OPTION = "http.allowed-hosts";

    /** A DNS name: labels of letters, digits and '-', lower case once normalised. */
    private static final Pattern NAME =
            Pattern.compile(
                    "(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)"
                            + "(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

    /** Dotted-quad IPv4 as browsers write it: four decimal parts without leading zeros. */
    private static final Pattern IPV4 =
            Pattern.compile(
                    "((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");

    /** A bracketed IPv6 literal without a zone. */
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-f:.]{2,45}\\]");

    private static final Pattern LOOPBACK_IPV4 = Pattern.compile("127(\\.[0-9]{1,3}){3}");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    /** Those of {@code http.allowed-hosts}. */
    private final Set<String> listed;

    /** This process's own names, found at start. */
    private final Set<String> own;

    private HostAllowlist(Set<String> listed, Set<String> own) {
        this.listed = Set.copyOf(listed);
        this.own = Set.copyOf(own);
    }

    static final HostAllowlist NONE_LISTED = new HostAllowlist(Set.of(), Set.of());

    /**
     * Reads {@code http.allowed-hosts}: comma-separated DNS names; a bad one fails naming the key.
     */
    static HostAllowlist parse(String names, String keyPrefix) {
        Set<String> listed = new LinkedHashSet<>();
        for (String name : names.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            String normalised = normalise(name.trim());
            if (!NAME.matcher(normalised).matches()) {
                throw new IllegalArgumentException(
                        keyPrefix
                                + OPTION
                                + ": '"
                                + name.trim()
                                + "' is invalid;"
                                + " expected host names such as flink.example.com, comma-separated, without ports or"
                                + " schemes (IP addresses and localhost are always accepted)");
            }
            listed.add(normalised);
        }
        return new HostAllowlist(listed, Set.of());
    }

    /**
     * The same list, also accepting {@code names} (this process's host names); ill-formed ones are
     * skipped.
     */
    HostAllowlist withOwnNames(Collection<String> names) {
        Set<String> accepted = new LinkedHashSet<>();
        for (String name : names) {
            String n = name == null ? "" : normalise(name.trim());
            if (NAME.matcher(n).matches()) {
                accepted.add(n);
            }
        }
        return new HostAllowlist(listed, accepted);
    }

    /**
     * The host of a {@code Host} header's value, lower case, without its port and one trailing dot
     * (the same DNS name); null when it is missing or not a host name, IPv4 or bracketed IPv6
     * literal with an optional port.
     */
    static String hostOf(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim().toLowerCase(Locale.ROOT);
        String host;
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0 || !(end == h.length() - 1 || validPort(h.substring(end + 1)))) {
                return null;
            }
            host = h.substring(0, end + 1);
            return IPV6.matcher(host).matches() ? host : null;
        }
        int colon = h.indexOf(':');
        if (colon >= 0 && !validPort(h.substring(colon))) {
            return null;
        }
        host = normalise(colon < 0 ? h : h.substring(0, colon));
        return NAME.matcher(host).matches() ? host : null;
    }

    private static boolean validPort(String colonAndPort) {
        return colonAndPort.startsWith(":") && PORT.matcher(colonAndPort.substring(1)).matches();
    }

    private static String normalise(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }

    /**
     * Whether {@code host} (as {@link #hostOf} gives it) may be answered beyond {@code /metrics}.
     */
    boolean allows(String host) {
        return host != null
                && (isIpLiteral(host)
                        || host.equals("localhost")
                        || own.contains(host)
                        || listed.contains(host));
    }

    /**
     * Whether {@code host} names this host's loopback interface, or was listed explicitly by the
     * operator.
     */
    boolean allowsForLoopback(String host) {
        return host != null
                && (host.equals("localhost")
                        || host.equals("[::1]")
                        || LOOPBACK_IPV4.matcher(host).matches()
                        || listed.contains(host));
    }

    private static boolean isIpLiteral(String host) {
        return host.startsWith("[") || IPV4.matcher(host).matches();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostAllowlist other
                && listed.equals(other.listed)
                && own.equals(other.own);
    }

    @Override
    public int hashCode() {
        return listed.hashCode() * 31 + own.hashCode();
    }
}
