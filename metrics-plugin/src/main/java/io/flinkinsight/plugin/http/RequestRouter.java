package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.exposition.ExpositionBuffer;
import io.flinkinsight.plugin.exposition.ExpositionFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Maps a decoded GET/HEAD request to its answer: the scrape, a JSON endpoint, the forwarder (the dashboard proxy),
 * the tab's script, or one of the panel's files (the panel routes with the URL's fragment, so no other path is its
 * page). Runs on an HTTP worker thread, never on the network thread, and throws nothing but a failure of the JVM
 * itself; only the forwarder answers later, every other answer is complete on return.
 */
final class RequestRouter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestRouter.class);
    private static final int MAX_LOGGED_FAILURES = 10;
    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");
    /** How long a scrape waits for a render permit before 503: Prometheus' own timeout is seconds. */
    static final Duration SCRAPE_WAIT = Duration.ofSeconds(2);
    /**
     * How long a scrape waits for the render of its format already under way, to share it: as long as Prometheus'
     * default scrape timeout, since it would otherwise have rendered (as long) on its own thread.
     */
    static final Duration SHARED_RENDER_WAIT = Duration.ofSeconds(10);
    /** Bodies of one format waiting for readers: at least 4, so no write is closed within 4 s of its render. */
    static final int MIN_HELD_RENDERS = 4;
    /** How long a rendered body answers the scrapes of its format, so a burst of scrapes renders once. */
    static final Duration SHARE_WINDOW = Duration.ofSeconds(1);

    static final String METRICS_PATH = "/metrics";
    /** The folder of the tab's script for Flink's dashboard, which the dashboard proxy injects. */
    static final String TAB_PATH = "/insight-tab/";

    private final ScrapeSource scrape;
    private final Map<String, JsonEndpoint> endpoints;
    private final StaticFiles files;
    private final StaticFiles tabFiles;
    /** Answers one top-level segment later (the dashboard proxy), or null. */
    private final Forwarder forwarder;
    private final AtomicInteger loggedFailures = new AtomicInteger();
    /** Scrapes being rendered at once: each builds its whole body in heap. */
    private final Semaphore scrapes;
    /** One render of each format at a time, so that its renders are at least {@link #SHARE_WINDOW} apart. */
    private final Map<ExpositionFormat, ReentrantLock> renderTurns = new EnumMap<>(ExpositionFormat.class);
    /** The rendered bodies, shared within the window; twice as many of a format as render turns at most. */
    private final ScrapeWrites writes;
    private final AnswerBudget answers;
    private final ScrapeFigures scrapeFigures = new ScrapeFigures();
    private final RefusalReason.Counts refusals = new RefusalReason.Counts();
    /** Size of the last scrape, so the next one allocates its buffer once. */
    private volatile int lastScrapeBytes = 64 * 1024;

    /** The default of {@code http.max-answer-bytes}. */
    static final long DEFAULT_MAX_ANSWER_BYTES = 16L * 1024 * 1024;

    /**
     * A router without a forwarder, rendering two scrapes at most at once, with the default answer budget. The other
     * takes the clock that ages rendered bodies for their sharing ({@link System#nanoTime} but in tests).
     */
    RequestRouter(ScrapeSource scrape, Map<String, JsonEndpoint> endpoints, StaticFiles files) {
        this(scrape, endpoints, files, new StaticFiles(RequestRouter.class.getClassLoader(), StaticFiles.TAB_ROOT),
                null, 2, DEFAULT_MAX_ANSWER_BYTES, System::nanoTime);
    }

    RequestRouter(
            ScrapeSource scrape,
            Map<String, JsonEndpoint> endpoints,
            StaticFiles files,
            StaticFiles tabFiles,
            Forwarder forwarder,
            int maxConcurrentScrapes,
            long maxAnswerBytes,
            LongSupplier nanoClock) {
        this.scrape = scrape;
        this.answers = new AnswerBudget(maxAnswerBytes);
        this.scrapes = new Semaphore(maxConcurrentScrapes);
        for (ExpositionFormat format : ExpositionFormat.values()) {
            renderTurns.put(format, new ReentrantLock());
        }
        this.writes = new ScrapeWrites(Math.max(MIN_HELD_RENDERS, 2 * maxConcurrentScrapes), SHARE_WINDOW, nanoClock,
                scrapeFigures);
        this.endpoints = Map.copyOf(endpoints);
        this.files = files;
        this.tabFiles = tabFiles;
        this.forwarder = forwarder;
    }

    /**
     * The answer to a request on {@code client}'s connection; complete on return except for the forwarder's.
     * Whatever fails in it but the JVM itself is answered 500.
     */
    CompletableFuture<HttpReply> route(RequestTarget target, HttpHeaders headers, ScrapeWrites.Client client) {
        try {
            if (forwarder != null && !target.segments().isEmpty()
                    && target.segments().get(0).equals(forwarder.segment())) {
                return forwarder.forward(target, headers, client.address());
            }
            return CompletableFuture.completedFuture(routeNow(target, headers.get(HttpHeaderNames.ACCEPT), client));
        } catch (VirtualMachineError e) {
            // The JVM itself is failing (out of memory): logged at ERROR, and the request still gets its answer. This
            // runs on the server's own worker thread, where no Flink handler would see the error thrown, and the
            // connection would wait for an answer until idle.
            LOG.error("Flink Insight: answering {} failed with a JVM error", target.path(), e);
            return CompletableFuture.completedFuture(
                    HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error"));
        } catch (Throwable t) {
            // A request that fails, with an exception or any other error (an AssertionError in an endpoint), still
            // gets its answer, or its connection would wait for one until idle.
            logFailure(target.path(), t);
            return CompletableFuture.completedFuture(
                    HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error"));
        }
    }

    private HttpReply routeNow(RequestTarget target, String accept, ScrapeWrites.Client client) {
        String path = target.path();
        if (path.equals(METRICS_PATH)) {
            return scrape(ExpositionFormat.negotiate(accept), client);
        }
        JsonEndpoint endpoint = endpoints.get(path);
        if (endpoint != null) {
            return json(path, endpoint, target.query());
        }
        if (path.equals("/api") || path.startsWith("/api/")) {
            return HttpReply.error(HttpResponseStatus.NOT_FOUND, "no such endpoint: " + path);
        }
        if (path.startsWith(TAB_PATH)) {
            StaticFiles.StaticFile script = tabFiles.find(path.substring(TAB_PATH.length() - 1));
            return script == null
                    ? HttpReply.error(HttpResponseStatus.NOT_FOUND, "not found: " + path)
                    : new HttpReply(HttpResponseStatus.OK, script.contentType(), Unpooled.wrappedBuffer(script.bytes()),
                            Map.of("Cache-Control", "no-cache"));
        }
        StaticFiles.StaticFile file = files.find(path);
        if (file == null) {
            return HttpReply.error(HttpResponseStatus.NOT_FOUND, "not found: " + path);
        }
        Map<String, String> headers = file.isHtml()
                ? Map.of("Cache-Control", "no-cache", "Content-Security-Policy", StaticFiles.CONTENT_SECURITY_POLICY)
                : Map.of("Cache-Control", "no-cache");
        return new HttpReply(HttpResponseStatus.OK, file.contentType(), Unpooled.wrappedBuffer(file.bytes()), headers);
    }

    /**
     * Renders the scrape into heap, never into Netty's direct memory (which Flink sized for its network buffers);
     * the body is written in slices. A scrape within {@link #SHARE_WINDOW} of its format's last render is answered
     * with that body (a duplicate of it, see {@link ScrapeWrites}), without a render. Otherwise it renders, one render
     * of a format at a time (a scrape coming during one waits for it, up to {@link #SHARED_RENDER_WAIT}, and shares
     * its body) and at most {@code maxConcurrentScrapes} at once: a scrape waits up to {@link #SCRAPE_WAIT} for its
     * turn, then gets 503 with Retry-After. The turn ends with the render, so a client that does not read holds no turn.
     */
    private HttpReply scrape(ExpositionFormat format, ScrapeWrites.Client client) {
        ScrapeWrites.Body shared = writes.share(format, client);
        if (shared != null) {
            return scrapeReply(format, shared);
        }
        ReentrantLock formatTurn = renderTurns.get(format);
        boolean ownTurn = false;
        boolean admitted = false;
        scrapeFigures.waitStarted();
        try {
            ownTurn = formatTurn.tryLock(SHARED_RENDER_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            if (ownTurn) {
                shared = writes.share(format, client); // rendered while this scrape waited
                admitted = shared == null
                        && scrapes.tryAcquire(SCRAPE_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            scrapeFigures.waitEnded();
        }
        try {
            if (shared != null) {
                return scrapeReply(format, shared);
            }
            if (!admitted) {
                scrapeFigures.refused();
                return HttpReply.error(RefusalReason.TOO_MANY_SCRAPES, HttpResponseStatus.SERVICE_UNAVAILABLE,
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

    private HttpReply render(ExpositionFormat format, ScrapeWrites.Client client) {
        ByteBuf buf = null;
        try {
            int estimate = lastScrapeBytes;
            buf = Unpooled.buffer(estimate + estimate / 8);
            long start = System.nanoTime();
            scrape.write(format, new ExpositionBuffer(new ByteBufOutputStream(buf)));
            lastScrapeBytes = buf.readableBytes();
            scrapeFigures.rendered(System.nanoTime() - start, lastScrapeBytes);
            ByteBuf rendered = buf;
            buf = null; // the writes own it now
            return scrapeReply(format, writes.rendered(format, rendered, client));
        } catch (RuntimeException e) {
            logFailure("the scrape", e);
            return HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "the scrape failed");
        } finally {
            // Released whatever failed (not only what is caught above).
            if (buf != null) {
                buf.release();
            }
        }
    }

    private static HttpReply scrapeReply(ExpositionFormat format, ScrapeWrites.Body body) {
        return new HttpReply(HttpResponseStatus.OK, format.contentType(), body.body(), NO_STORE, body.end());
    }

    /** Requests not served, by reason; counted where the answer is written. */
    RefusalReason.Counts refusals() {
        return refusals;
    }

    /** What the scrapes cost: rendered, their time and bytes, shared, refused, waiting, writes aborted. */
    ScrapeFigures scrapeFigures() {
        return scrapeFigures;
    }

    /**
     * Serialises the endpoint's answer straight into heap, stopping at {@code http.max-answer-bytes} (413 naming
     * the parameters that narrow it), and hands it out only while the answers on their way to readers hold less
     * than {@link AnswerBudget#HELD_ANSWERS} budgets (503 otherwise).
     */
    private HttpReply json(String path, JsonEndpoint endpoint, QueryParameters query) {
        ByteBuf buf = null;
        try {
            Object value = endpoint.handle(query);
            buf = Unpooled.buffer(4096, (int) answers.maxAnswerBytes());
            try (OutputStream out = answers.bounded(new ByteBufOutputStream(buf))) {
                Json.write(value, out);
            }
            int size = buf.readableBytes();
            if (!answers.hold(size)) {
                buf.release();
                return HttpReply.error(HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "too many large answers are being written; try again", Map.of("Retry-After", "1"));
            }
            return new HttpReply(HttpResponseStatus.OK, HttpReply.JSON, buf, NO_STORE, () -> answers.release(size));
        } catch (BadRequestException e) {
            return HttpReply.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        } catch (IOException | RuntimeException e) {
            if (buf != null) {
                buf.release();
            }
            if (isTooLarge(e)) {
                return tooLarge(path, endpoint);
            }
            logFailure(path, e);
            return HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error in " + path);
        }
    }

    private static boolean isTooLarge(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof AnswerBudget.TooLargeException) {
                return true;
            }
        }
        return false;
    }

    private HttpReply tooLarge(String path, JsonEndpoint endpoint) {
        List<String> narrowers = endpoint.narrowedBy();
        String message = "the answer of " + path + " is larger than metrics.reporter.insight.http.max-answer-bytes ("
                + answers.maxAnswerBytes() + " bytes); "
                + (narrowers.isEmpty() ? "raise that option" : "narrow it with " + String.join(", ", narrowers)
                        + ", or raise that option");
        byte[] body = Json.error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code(), message,
                Map.of("narrowBy", narrowers));
        return HttpReply.error(RefusalReason.ANSWER_TOO_LARGE, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, body,
                NO_STORE);
    }

    /** Stops the forwarder's threads and drops the bodies kept for sharing. */
    void close() {
        writes.close();
        if (forwarder != null) {
            forwarder.close();
        }
    }

    private void logFailure(String what, Throwable t) {
        if (loggedFailures.incrementAndGet() <= MAX_LOGGED_FAILURES) {
            LOG.warn("Flink Insight HTTP: {} failed", what, t);
        } else {
            LOG.debug("Flink Insight HTTP: {} failed", what, t);
        }
    }
}
