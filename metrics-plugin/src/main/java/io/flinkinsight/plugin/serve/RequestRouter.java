package io.flinkinsight.plugin.serve;

import io.flinkinsight.plugin.http.ClientConnection;
import io.flinkinsight.plugin.http.Forwarder;
import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.http.RequestFailureLog;
import io.flinkinsight.plugin.http.RequestHandler;
import io.flinkinsight.plugin.http.RequestTarget;
import io.flinkinsight.plugin.scrape.ScrapeFigures;
import io.flinkinsight.plugin.scrape.ScrapeHandler;
import io.flinkinsight.plugin.scrape.ScrapeSource;

import org.apache.flink.annotation.VisibleForTesting;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Maps a decoded GET/HEAD request to its answer: the scrape, a JSON endpoint, the forwarder (the
 * dashboard proxy), the tab's script, or one of the panel's files (the panel routes with the URL's
 * fragment, so no other path is its page). Throws nothing but a failure of the JVM itself; only the
 * forwarder answers later, every other answer is complete on return.
 */
public final class RequestRouter implements RequestHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestRouter.class);

    /** The folder of the tab's script for Flink's dashboard, which the dashboard proxy injects. */
    public static final String TAB_PATH = "/insight-tab/";

    /** The default of {@code http.max-answer-bytes}. */
    public static final long DEFAULT_MAX_ANSWER_BYTES = 16L * 1024 * 1024;

    private final ScrapeHandler scrape;
    private final Map<String, JsonEndpoint> endpoints;
    private final JsonAnswers json;
    private final StaticFiles files;
    private final StaticFiles tabFiles;

    /** Answers one top-level segment later (the dashboard proxy), or null. */
    private final Forwarder forwarder;

    private final RequestFailureLog failures;

    /**
     * @param files the panel's files, {@code tabFiles} the tab's script for Flink's dashboard
     * @param forwarder answers its path segment later (the dashboard proxy under {@code /flink}),
     *     or null
     * @param failures where failed requests are logged, the same as {@code scrape}'s
     */
    public RequestRouter(
            ScrapeHandler scrape,
            Map<String, JsonEndpoint> endpoints,
            StaticFiles files,
            StaticFiles tabFiles,
            Forwarder forwarder,
            long maxAnswerBytes,
            RequestFailureLog failures) {
        this.scrape = scrape;
        this.endpoints = Map.copyOf(endpoints);
        this.json = new JsonAnswers(maxAnswerBytes, failures);
        this.files = files;
        this.tabFiles = tabFiles;
        this.forwarder = forwarder;
        this.failures = failures;
    }

    /**
     * A router without a forwarder, rendering two scrapes at most at once, with the default answer
     * budget.
     */
    @VisibleForTesting
    public static RequestRouter forTests(
            ScrapeSource scrape, Map<String, JsonEndpoint> endpoints, StaticFiles files) {
        return forTests(
                scrape,
                endpoints,
                files,
                new StaticFiles(RequestRouter.class.getClassLoader(), StaticFiles.TAB_ROOT),
                null,
                2,
                DEFAULT_MAX_ANSWER_BYTES,
                System::nanoTime);
    }

    /** A router with its own scrape handler, whose rendered bodies age by {@code nanoClock}. */
    @VisibleForTesting
    public static RequestRouter forTests(
            ScrapeSource scrape,
            Map<String, JsonEndpoint> endpoints,
            StaticFiles files,
            StaticFiles tabFiles,
            Forwarder forwarder,
            int maxConcurrentScrapes,
            long maxAnswerBytes,
            LongSupplier nanoClock) {
        RequestFailureLog failures = new RequestFailureLog();
        return new RequestRouter(
                new ScrapeHandler(scrape, maxConcurrentScrapes, nanoClock, failures),
                endpoints,
                files,
                tabFiles,
                forwarder,
                maxAnswerBytes,
                failures);
    }

    /**
     * The answer to a request on {@code client}'s connection; complete on return except for the
     * forwarder's. Whatever fails in it but the JVM itself is answered 500.
     */
    @Override
    public CompletableFuture<HttpReply> handle(
            RequestTarget target, HttpHeaders headers, ClientConnection client) {
        try {
            if (forwarder != null
                    && !target.segments().isEmpty()
                    && target.segments().get(0).equals(forwarder.segment())) {
                return forwarder.forward(target, headers, client.address());
            }
            return CompletableFuture.completedFuture(
                    route(target, headers.get(HttpHeaderNames.ACCEPT), client));
        } catch (VirtualMachineError e) {
            // The JVM itself is failing (out of memory): logged at ERROR, and the request still
            // gets its answer. This
            // runs on the server's own worker thread, where no Flink handler would see the error
            // thrown, and the
            // connection would wait for an answer until idle.
            LOG.error("Flink Insight: answering {} failed with a JVM error", target.path(), e);
            return CompletableFuture.completedFuture(
                    HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error"));
        } catch (Throwable t) {
            // A request that fails, with an exception or any other error (an AssertionError in an
            // endpoint), still
            // gets its answer, or its connection would wait for one until idle.
            failures.failed(target.path(), t);
            return CompletableFuture.completedFuture(
                    HttpReply.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error"));
        }
    }

    private HttpReply route(RequestTarget target, String accept, ClientConnection client) {
        String path = target.path();
        if (path.equals(PortAccess.METRICS_PATH)) {
            return scrape.scrape(accept, client);
        }
        JsonEndpoint endpoint = endpoints.get(path);
        if (endpoint != null) {
            return json.answer(path, endpoint, target.query());
        }
        if (path.equals("/api") || path.startsWith("/api/")) {
            return HttpReply.error(HttpResponseStatus.NOT_FOUND, "no such endpoint: " + path);
        }
        if (path.startsWith(TAB_PATH)) {
            StaticFiles.StaticFile script = tabFiles.find(path.substring(TAB_PATH.length() - 1));
            return script == null
                    ? HttpReply.error(HttpResponseStatus.NOT_FOUND, "not found: " + path)
                    : new HttpReply(
                            HttpResponseStatus.OK,
                            script.contentType(),
                            Unpooled.wrappedBuffer(script.bytes()),
                            Map.of("Cache-Control", "no-cache"));
        }
        StaticFiles.StaticFile file = files.find(path);
        if (file == null) {
            return HttpReply.error(HttpResponseStatus.NOT_FOUND, "not found: " + path);
        }
        Map<String, String> headers =
                file.isHtml()
                        ? Map.of(
                                "Cache-Control",
                                "no-cache",
                                "Content-Security-Policy",
                                StaticFiles.CONTENT_SECURITY_POLICY)
                        : Map.of("Cache-Control", "no-cache");
        return new HttpReply(
                HttpResponseStatus.OK,
                file.contentType(),
                Unpooled.wrappedBuffer(file.bytes()),
                headers);
    }

    /**
     * What the scrapes cost: rendered, their time and bytes, shared, refused, waiting, writes
     * aborted.
     */
    @VisibleForTesting
    public ScrapeFigures scrapeFigures() {
        return scrape.figures();
    }

    /** Stops the forwarder's threads and drops the bodies kept for sharing. */
    @Override
    public void close() {
        scrape.close();
        if (forwarder != null) {
            forwarder.close();
        }
    }
}
