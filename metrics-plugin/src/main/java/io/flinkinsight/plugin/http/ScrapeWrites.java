package io.flinkinsight.plugin.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * The scrape bodies rendered and not yet written, each from its render until its write ends (written, failed or
 * dropped). A scrape's render turn ends with its render, so a client that does not read holds no turn; it holds one of
 * at most {@code max} places for bodies on their way instead. When all are taken, a new scrape closes the connection
 * of a body still on its way: the oldest of the client address (an IPv4 address, an IPv6 /64) that holds the most
 * places, its own included. So a client address that does not read holds places only while nobody else needs them
 * (its new scrapes displace its own old ones), a reader is displaced only by clients of at least as many other
 * addresses as there are places, and a scrape never waits for a reader. Closing a connection fails its write, which
 * frees its body: bodies on their way take at most {@code max} times a scrape's size (and those being closed, until
 * their connection's event loop has closed them).
 */
final class ScrapeWrites {

    private static final Logger LOG = LoggerFactory.getLogger(ScrapeWrites.class);

    /** The connection a scrape is answered on: its client's address (null when unknown) and how to close it. */
    record Client(InetAddress address, Runnable close) {}

    /** One body on its way; equal only to itself, as two scrapes on one connection are two writes. */
    private static final class Write {
        final Object group;
        final Runnable close;

        Write(Object group, Runnable close) {
            this.group = group;
            this.close = close;
        }
    }

    private final int max;
    private final ScrapeFigures figures;
    /** The unfinished writes, oldest first. */
    private final LinkedHashSet<Write> writes = new LinkedHashSet<>();
    /** How many of them each client group holds. */
    private final Map<Object, Integer> perGroup = new HashMap<>();

    ScrapeWrites(int max, ScrapeFigures figures) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one scrape write, not " + max);
        }
        this.max = max;
        this.figures = figures;
    }

    /**
     * A body for {@code client} is about to be written: takes its place, closing the connection of the write it
     * displaces, if any (on this thread; closing a Netty connection from any thread only asks its event loop to).
     * Returns what to run when its write ended, in any way; running it more than once, or after its write was
     * displaced, does nothing.
     */
    Runnable start(Client client) {
        Write write = new Write(group(client.address()), client.close());
        Write displaced = null;
        synchronized (this) {
            add(write);
            if (writes.size() > max) {
                displaced = displaceable(write);
                remove(displaced);
            }
        }
        if (displaced != null) {
            figures.writeAborted();
            try {
                displaced.close.run();
            } catch (RuntimeException e) {
                LOG.debug("Flink Insight HTTP: closing a displaced scrape write failed", e);
            }
        }
        return () -> end(write);
    }

    /** The oldest write, other than {@code newest}, of the group that holds the most. */
    private Write displaceable(Write newest) {
        int most = Collections.max(perGroup.values());
        for (Write w : writes) {
            if (w != newest && perGroup.get(w.group) == most) {
                return w;
            }
        }
        throw new IllegalStateException("more than one write, all of them the newest");
    }

    private void add(Write write) {
        writes.add(write);
        perGroup.merge(write.group, 1, Integer::sum);
    }

    private void remove(Write write) {
        if (writes.remove(write)) {
            perGroup.computeIfPresent(write.group, (g, n) -> n > 1 ? n - 1 : null);
        }
    }

    private synchronized void end(Write write) {
        remove(write);
    }

    /** Bodies whose write has not ended and was not displaced. */
    synchronized int held() {
        return writes.size();
    }

    /** What one client holds one place for: its IPv4 address, its IPv6 /64, or (address unknown) only itself. */
    static Object group(InetAddress address) {
        return address == null ? new Object() : ClientAddress.of(address);
    }
}
