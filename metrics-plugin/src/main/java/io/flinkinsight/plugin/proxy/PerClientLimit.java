package io.flinkinsight.plugin.proxy;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * How many requests each client has outstanding, at most {@code max} each, so one client (or a page
 * that fires requests at the port) cannot take every place of the proxy's line. Clients are keyed
 * as {@link io.flinkinsight.plugin.http.ClientAddress} keys them; a request without an address
 * counts under null.
 */
final class PerClientLimit {

    private final int max;
    private final Map<InetAddress, Integer> outstanding = new HashMap<>();

    PerClientLimit(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        this.max = max;
    }

    /** Takes a place for {@code client}; false when it already holds {@code max}. */
    synchronized boolean tryAcquire(InetAddress client) {
        int held = outstanding.getOrDefault(client, 0);
        if (held >= max) {
            return false;
        }
        outstanding.put(client, held + 1);
        return true;
    }

    /** Gives back a place {@link #tryAcquire} took. */
    synchronized void release(InetAddress client) {
        outstanding.computeIfPresent(client, (c, n) -> n > 1 ? n - 1 : null);
    }

    synchronized int outstanding(InetAddress client) {
        return outstanding.getOrDefault(client, 0);
    }
}
