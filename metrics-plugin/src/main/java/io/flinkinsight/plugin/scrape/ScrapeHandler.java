package io.flinkinsight.plugin.scrape;

import io.flinkinsight.plugin.exposition.ExpositionBuffer;
import io.flinkinsight.plugin.exposition.ExpositionFormat;
import io.flinkinsight.plugin.http.ClientConnection;
import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.RefusalReason;
import io.flinkinsight.plugin.http.RequestFailureLog;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Answers {@code GET /metrics}, as prometheus/client_java's {@code PrometheusScrapeHandler}: the
 * format the client accepts, a render admitted under {@code http.max-concurrent-scrapes}, and the
 * sharing of a fresh render among the scrapes that come within {@link #SHARE_WINDOW} of it. Runs on
 * an HTTP worker thread; the answer is complete on return.
 */
public final class ScrapeHandler implements AutoCloseable {

    /**
     * How long a scrape waits for a render permit before 503: Prometheus' own timeout is seconds.
     */
    static final Duration SCRAPE_WAIT = Duration.ofSeconds(2);

    /**
     * How long a scrape waits for the render of its format already under way, to share it: as long
     * as Prometheus' default scrape timeout, since it would otherwise have rendered (as long) on
     * its own thread.
     */
    static final Duration SHARED_RENDER_WAIT = Duration.ofSeconds(10);

    /**
     * Bodies of one format waiting for readers: at least 4, so no write is closed within 4 s of its
     * render.
     */
    static final int MIN_HELD_RENDERS = 4;

    /**
     * How long a rendered body answers the scrapes of its format, so a burst of scrapes renders
     * once.
     */
    public static final Duration SHARE_WINDOW = Duration.ofSeconds(1);

    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

    private final ScrapeSource source;
    private final RequestFailureLog failures;

    /** Scrapes being rendered at once: each builds its whole body in heap. */
    private final Semaphore scrapes;

    /**
     * One render of each format at a time, so that its renders are at least {@link #SHARE_WINDOW}
     * apart.
     */
    private final Map<ExpositionFormat, ReentrantLock> renderTurns =
            new EnumMap<>(ExpositionFormat.class);

    /**
     * The rendered bodies, shared within the window; twice as many of a format as render turns at
     * most.
     */
    private final ScrapeWrites writes;

    private final ScrapeFigures figures = new ScrapeFigures();

    /** Size of the last scrape, so the next one allocates its buffer once. */
    private volatile int lastScrapeBytes = 64 * 1024;

    /**
     * @param nanoClock ages rendered bodies for their sharing: {@link System#nanoTime} but in tests
     * @param failures where a failed render is logged
     */
    public ScrapeHandler(
            ScrapeSource source,
            int maxConcurrentScrapes,
            LongSupplier nanoClock,
            RequestFailureLog failures) {
        this.source = source;
        this.failures = failures;
        this.scrapes = new Semaphore(maxConcurrentScrapes);
        for (ExpositionFormat format : ExpositionFormat.values()) {
            renderTurns.put(format, new ReentrantLock());
        }
        this.writes =
                new ScrapeWrites(
                        Math.max(MIN_HELD_RENDERS, 2 * maxConcurrentScrapes),
                        SHARE_WINDOW,
                        nanoClock,
                        figures);
    }

    /**
     * Renders the scrape into heap, never into Netty's direct memory (which Flink sized for its
     * network buffers); the body is written in slices. A scrape within {@link #SHARE_WINDOW} of its
     * format's last render is answered with that body (a duplicate of it, see {@link
     * ScrapeWrites}), without a render. Otherwise it renders, one render of a format at a time (a
     * scrape coming during one waits for it, up to {@link #SHARED_RENDER_WAIT}, and shares its
     * body) and at most {@code maxConcurrentScrapes} at once: a scrape waits up to {@link
     * #SCRAPE_WAIT} for its turn, then gets 503 with Retry-After. The turn ends with the render, so
     * a client that does not read holds no turn.
     *
     * @param accept the request's Accept header, or null
     */
    public HttpReply scrape(String accept, ClientConnection client) {
        ExpositionFormat format = ExpositionFormat.negotiate(accept);
        ScrapeWrites.Body shared = writes.share(format, client);
        if (shared != null) {
            return reply(format, shared);
        }
        ReentrantLock formatTurn = renderTurns.get(format);
        boolean ownTurn = false;
        boolean admitted = false;
        figures.waitStarted();
        try {
            ownTurn = formatTurn.tryLock(SHARED_RENDER_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            if (ownTurn) {
                shared = writes.share(format, client); // rendered while this scrape waited
                admitted =
                        shared == null
                                && scrapes.tryAcquire(SCRAPE_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            figures.waitEnded();
        }
        try {
            if (shared != null) {
                return reply(format, shared);
            }
            if (!admitted) {
                figures.refused();
                return HttpReply.error(
                        RefusalReason.TOO_MANY_SCRAPES,
                        HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "too many scrapes at once (metrics.reporter.insight.http.max-concurrent-scrapes)",
                        Map.of("Retry-After", "1"));
            }
            return render(format, client);
        } finally {
            // Given back whatever failed: a turn held for ever refuses scrapes.
            if (admitted) {
                scrapes.release();
            }
            if (ownTurn) {
                formatTurn.unlock();
            }
        }
    }

    private HttpReply render(ExpositionFormat format, ClientConnection client) {
        ByteBuf buf = null;
        try {
            int estimate = lastScrapeBytes;
            buf = Unpooled.buffer(estimate + estimate / 8);
            long start = System.nanoTime();
            source.write(format, new ExpositionBuffer(new ByteBufOutputStream(buf)));
            lastScrapeBytes = buf.readableBytes();
            figures.rendered(System.nanoTime() - start, lastScrapeBytes);
            ByteBuf rendered = buf;
            buf = null; // the writes own it now
            return reply(format, writes.rendered(format, rendered, client));
        } catch (RuntimeException e) {
            failures.failed("the scrape", e);
            return HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "the scrape failed");
        } finally {
            // Released whatever failed (not only what is caught above).
            if (buf != null) {
                buf.release();
            }
        }
    }

    private static HttpReply reply(ExpositionFormat format, ScrapeWrites.Body body) {
        return new HttpReply(
                HttpResponseStatus.OK, format.contentType(), body.body(), NO_STORE, body.end());
    }

    /**
     * What the scrapes cost: rendered, their time and bytes, shared, refused, waiting, writes
     * aborted.
     */
    public ScrapeFigures figures() {
        return figures;
    }

    /** Drops the bodies kept for sharing. */
    @Override
    public void close() {
        writes.close();
    }
}
