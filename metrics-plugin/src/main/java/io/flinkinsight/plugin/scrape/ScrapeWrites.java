package io.flinkinsight.plugin.scrape;

import io.flinkinsight.plugin.http.ClientConnection;

import org.apache.flink.annotation.VisibleForTesting;

import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The rendered scrape bodies, by render generation: one body per render, shared by the scrapes of
 * its format that come within {@code window} of its render, each written from a retained duplicate
 * of it (its own reader index, the same bytes and reference count). A generation is held from its
 * render until it is no longer its format's newest and every write of it has ended (written, failed
 * or dropped); the newest of each format is held for the sharing.
 *
 * <p>At most {@code max} generations of a format are held: a new render beyond them closes the
 * connection of every write of the format's oldest generation (closing a connection fails its
 * write, which frees its duplicate), which frees that body. A format's next render comes only once
 * {@code window} has passed since its last (the scrape renders a format one at a time, and only
 * when {@link #share} found no body to share), so a generation is displaced only after {@code max}
 * newer ones, none sooner than {@code max × window} after its render (4 s with the defaults): a
 * write is never displaced within that time, however many clients that do not read, from however
 * many addresses. A reader that takes its body within {@code (max - 1) × window} of asking for it
 * (it may share a body rendered up to {@code window} before) is never cut; a scrape never waits for
 * a reader.
 *
 * <p>Nothing is bounded per client address: the writes of one generation share its body, so more of
 * them (each on a connection, which {@code http.max-connections-per-address} bounds) take no more
 * heap; only generations do. Bodies held take at most {@code max} scrapes' size per format (and
 * those being closed, until their connection's event loop has closed them).
 */
final class ScrapeWrites {

    private static final Logger LOG = LoggerFactory.getLogger(ScrapeWrites.class);

    /**
     * A write's own view of its generation's body, which it releases, and what to run when the
     * write ended.
     */
    record Body(ByteBuf body, Runnable end) {}

    /** One render's body; holds one reference of it while it is its format's newest. */
    private static final class Generation {
        final ArrayDeque<Generation> format;
        final ByteBuf body;
        final long renderedAt;
        final LinkedHashSet<Write> writes = new LinkedHashSet<>();

        Generation(ArrayDeque<Generation> format, ByteBuf body, long renderedAt) {
            this.format = format;
            this.body = body;
            this.renderedAt = renderedAt;
        }
    }

    /**
     * One write of a generation's body; equal only to itself, as two scrapes on one connection are
     * two writes.
     */
    private static final class Write {
        final Generation generation;
        final Runnable close;

        Write(Generation generation, Runnable close) {
            this.generation = generation;
            this.close = close;
        }
    }

    private final int max;
    private final long windowNanos;
    private final LongSupplier nanoClock;
    private final ScrapeFigures figures;

    /**
     * The generations held, by format, oldest first: the last is the newest, shared within the
     * window.
     */
    private final Map<Object, ArrayDeque<Generation>> generations = new HashMap<>();

    private boolean closed;

    ScrapeWrites(int max, Duration window, LongSupplier nanoClock, ScrapeFigures figures) {
        if (max < 2) {
            // The newest generation is shared: it must never be the oldest when a new one displaces
            // the oldest.
            throw new IllegalArgumentException("at least two scrape generations, not " + max);
        }
        this.max = max;
        this.windowNanos = window.toNanos();
        this.nanoClock = nanoClock;
        this.figures = figures;
    }

    /**
     * The newest body of {@code format} for {@code client}'s write, if it was rendered less than
     * the window ago; null otherwise. Its duplicate is taken under this object's lock, while the
     * generation still holds its reference, so it is never a duplicate of a released body.
     */
    synchronized Body share(Object format, ClientConnection client) {
        ArrayDeque<Generation> held = generations.get(format);
        Generation newest = held == null ? null : held.peekLast();
        if (closed || newest == null || nanoClock.getAsLong() - newest.renderedAt >= windowNanos) {
            return null;
        }
        figures.shared();
        return write(newest, client);
    }

    /**
     * {@code body} was just rendered in {@code format} for {@code client}: it becomes the format's
     * newest generation (this takes over the reference the caller held) and the previous newest is
     * no longer shared. Beyond {@code max} generations of the format, closes the connection of
     * every write of the oldest (on this thread, outside the lock; closing a Netty connection from
     * any thread only asks its event loop to). Returns {@code client}'s write.
     */
    Body rendered(Object format, ByteBuf body, ClientConnection client) {
        List<Write> displaced = List.of();
        Body first;
        synchronized (this) {
            if (closed) {
                return new Body(body, () -> {});
            }
            ArrayDeque<Generation> held =
                    generations.computeIfAbsent(format, f -> new ArrayDeque<>());
            Generation previous = held.peekLast();
            held.addLast(new Generation(held, body, nanoClock.getAsLong()));
            first = write(held.peekLast(), client);
            if (previous != null) {
                unshare(previous);
            }
            if (held.size() > max) {
                Generation oldest = held.pollFirst();
                displaced = List.copyOf(oldest.writes);
                oldest.writes.clear();
            }
        }
        for (Write w : displaced) {
            figures.writeAborted();
            try {
                w.close.run();
            } catch (RuntimeException e) {
                LOG.debug("Flink Insight HTTP: closing a displaced scrape write failed", e);
            }
        }
        return first;
    }

    private Body write(Generation generation, ClientConnection client) {
        Write write = new Write(generation, client.close());
        generation.writes.add(write);
        return new Body(generation.body.retainedDuplicate(), () -> end(write));
    }

    /**
     * {@code generation} is no longer its format's newest: its reference goes, and so does it once
     * unwritten.
     */
    private void unshare(Generation generation) {
        generation.body.release();
        if (generation.writes.isEmpty()) {
            generation.format.remove(generation);
        }
    }

    /** A write ended in any way; more than once, or after it was displaced, does nothing. */
    private synchronized void end(Write write) {
        Generation generation = write.generation;
        if (generation.writes.remove(write)
                && generation.writes.isEmpty()
                && generation.format.peekLast() != generation) {
            generation.format.remove(generation);
        }
    }

    /** Generations held: written to or the newest of their format, and not displaced. */
    @VisibleForTesting
    synchronized int held() {
        int n = 0;
        for (ArrayDeque<Generation> held : generations.values()) {
            n += held.size();
        }
        return n;
    }

    /** Writes that have not ended and were not displaced. */
    @VisibleForTesting
    synchronized int writes() {
        int n = 0;
        for (ArrayDeque<Generation> held : generations.values()) {
            for (Generation g : held) {
                n += g.writes.size();
            }
        }
        return n;
    }

    /**
     * The server stops: the newest bodies are no longer shared; writes still under way release
     * their own views.
     */
    synchronized void close() {
        closed = true;
        for (ArrayDeque<Generation> held : generations.values()) {
            if (!held.isEmpty()) {
                held.peekLast().body.release();
            }
            held.clear();
        }
        generations.clear();
    }
}
