package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.InsightOptions;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of the {@code hub.clients} option: a client process's Insight endpoint, as a host and
 * the port or port range its plugin may serve on ({@code gateway-1:9250} or {@code
 * gateway-1:9250-9260}; an IPv6 literal in brackets).
 */
public record ClientTarget(String host, int firstPort, int lastPort) {

    /** Most ports one entry may span: a range is scanned, and a scan must stay cheap. */
    public static final int MAX_PORTS_PER_ENTRY = InsightOptions.HUB_CLIENTS_MAX_PORTS_PER_ENTRY;

    /** Most entries: each is polled on every hub round. */
    public static final int MAX_ENTRIES = InsightOptions.HUB_CLIENTS_MAX_ENTRIES;

    public ClientTarget {
        if (firstPort < 1 || lastPort > 65535 || firstPort > lastPort) {
            throw new IllegalArgumentException("ports must satisfy 1 <= first <= last <= 65535");
        }
    }

    /**
     * Parses a comma-separated list of entries; blank gives none. The exception's message says what
     * is accepted; the caller prefixes the key.
     */
    public static List<ClientTarget> parseList(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            return List.of();
        }
        List<ClientTarget> targets = new ArrayList<>();
        for (String part : trimmed.split(",")) {
            targets.add(parse(part.trim(), text));
        }
        if (targets.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(describe(text));
        }
        return List.copyOf(targets);
    }

    private static ClientTarget parse(String entry, String whole) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(describe(whole));
        }
        String host = entry.substring(0, colon).trim();
        String ports = entry.substring(colon + 1).trim();
        int dash = ports.indexOf('-');
        int first = port(dash < 0 ? ports : ports.substring(0, dash), whole);
        int last = dash < 0 ? first : port(ports.substring(dash + 1), whole);
        if (!isHost(host) || first > last || last - first + 1 > MAX_PORTS_PER_ENTRY) {
            throw new IllegalArgumentException(describe(whole));
        }
        return new ClientTarget(host, first, last);
    }

    private static int port(String s, String whole) {
        try {
            int port = Integer.parseInt(s.trim());
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below with what is accepted
        }
        throw new IllegalArgumentException(describe(whole));
    }

    /**
     * A host name, an IPv4 address or a bracketed IPv6 address, and nothing a URL would read as
     * more.
     */
    private static boolean isHost(String host) {
        if (host.isEmpty()
                || host.chars()
                        .anyMatch(c -> Character.isWhitespace(c) || "/?#@%".indexOf(c) >= 0)) {
            return false;
        }
        if (host.contains(":") && !(host.startsWith("[") && host.endsWith("]"))) {
            return false;
        }
        try {
            return URI.create("http://" + host + ":1/").getHost() != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String describe(String value) {
        return "'"
                + value
                + "' is invalid; expected a comma-separated list of host:port or host:first-last (at most "
                + MAX_ENTRIES
                + " entries of at most "
                + MAX_PORTS_PER_ENTRY
                + " ports in [1, 65535]), e.g."
                + " gateway-1:9250-9260,gateway-2:9250";
    }

    /** The base URL of the endpoint at {@code port}. */
    String baseUrl(int port) {
        return baseUrl("http", port);
    }

    String baseUrl(String scheme, int port) {
        return scheme + "://" + host + ":" + port;
    }

    /** The value of the {@code client} label of series gathered from {@code port}. */
    String label(int port) {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return firstPort == lastPort
                ? host + ":" + firstPort
                : host + ":" + firstPort + "-" + lastPort;
    }
}
