package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.Forwarder;
import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.InsightHttpServer;
import io.flinkinsight.plugin.http.LimitedBodySubscriber;
import io.flinkinsight.plugin.http.RequestTarget;
import io.flinkinsight.plugin.http.StreamedBody;
import io.flinkinsight.plugin.http.StreamingBodySubscriber;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Read-only reverse proxy of Flink's own web dashboard and REST API under {@code /flink/}, served
 * by the hub only, so Flink's dashboard (with the Insight tab injected into its {@code index.html})
 * is reachable through the plugin's port. Only GET is sent to Flink (a HEAD is fetched as GET; the
 * server drops the body), and only for the routes, query parameters and files of {@link
 * DashboardRoutes}. Requests run asynchronously on the proxy's own daemon threads: neither Netty's
 * event loop nor an HTTP worker waits on Flink. Two budgets keep Flink's REST threads free for
 * others: at most {@value #MAX_AT_FLINK} requests are at Flink at once (fewer than Flink's default
 * {@code rest.server.numThreads} of 4), counted until Flink answered, and each client has at most
 * {@value #MAX_PER_CLIENT} outstanding, counted until its answer was written, so a client that does
 * not read holds only its own places. Answers stream through with back-pressure ({@link
 * StreamingBodySubscriber}): a slow reader slows Flink's answer down instead of making the proxy
 * hold it.
 */
public final class FlinkDashboardProxy implements Forwarder {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkDashboardProxy.class);

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    /** Generous: Flink answers thread dumps and log files slower than JSON. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Answers stream through (a batch at a time, as the browser reads); only Flink's index page is
     * held whole, to inject the tab's script, and is refused when larger than this.
     */
    static final long MAX_BODY_BYTES = 1024L * 1024;

    /**
     * Requests Flink works on for the proxy at once; more wait in line. One fewer than Flink's 4
     * REST threads.
     */
    static final int MAX_AT_FLINK = 3;

    static final int MAX_WAITING = 64;

    /** What one browser opens per host over HTTP/1.1, and some. */
    static final int MAX_PER_CLIENT = 8;

    static final String NOT_THE_HUB =
            "Flink's dashboard is proxied only by the JobManager's Flink Insight instance"
                    + " (the hub) at /flink/; this process is not it";
    private static final String SET_URL_HINT =
            "set metrics.reporter.insight.hub.flink-rest-url if it listens elsewhere";

    private static final String TURNED_OFF =
            "the dashboard proxy is turned off (metrics.reporter.insight.hub.dashboard-proxy.enabled)";

    private final DashboardUpstream upstream;
    private final boolean enabled;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final long maxBodyBytes;
    private final InFlightLimit atFlink = new InFlightLimit(MAX_AT_FLINK, MAX_WAITING);
    private final PerClientLimit perClient = new PerClientLimit(MAX_PER_CLIENT);
    private HttpClient client;
    private ThreadPoolExecutor executor;
    private boolean closed;

    /**
     * @param enabled whether to serve Flink's dashboard at all; when not, {@code /flink/} is 404
     *     naming the option
     */
    public FlinkDashboardProxy(DashboardUpstream upstream, boolean enabled) {
        this(upstream, enabled, CONNECT_TIMEOUT, REQUEST_TIMEOUT, MAX_BODY_BYTES);
    }

    FlinkDashboardProxy(
            DashboardUpstream upstream,
            boolean enabled,
            Duration connectTimeout,
            Duration requestTimeout,
            long maxBody) {
        this.upstream = upstream;
        this.enabled = enabled;
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
        this.maxBodyBytes = maxBody;
    }

    /**
     * Forwards a GET/HEAD under {@code /flink} when its route is on {@link DashboardRoutes}'
     * allowlist. Returns at once; the future completes on the proxy's threads and never
     * exceptionally: every failure is a JSON error reply.
     */
    @Override
    public String segment() {
        return DashboardRoutes.PREFIX;
    }

    @Override
    public CompletableFuture<HttpReply> forward(
            RequestTarget target, HttpHeaders browserHeaders, InetAddress client) {
        try {
            return start(target, browserHeaders, client);
        } catch (RuntimeException e) {
            // The browser gets a 502 rather than the router's 500; what failed is logged, not
            // shown.
            LOG.debug("Flink Insight: proxying {} failed", target.path(), e);
            return done(
                    HttpReply.error(
                            HttpResponseStatus.BAD_GATEWAY,
                            "the dashboard proxy failed (" + e.getClass().getSimpleName() + ")"));
        }
    }

    private CompletableFuture<HttpReply> start(
            RequestTarget target, HttpHeaders browserHeaders, InetAddress client) {
        if (!upstream.available()) {
            return done(HttpReply.error(HttpResponseStatus.NOT_FOUND, NOT_THE_HUB));
        }
        if (!enabled) {
            return done(HttpReply.error(HttpResponseStatus.NOT_FOUND, TURNED_OFF));
        }
        List<String> inside = target.segments().subList(1, target.segments().size());
        if (inside.isEmpty() && !target.trailingSlash()) {
            // Flink's page resolves its files against <base href="./">: it must be loaded from
            // /flink/, not /flink.
            // Relative, so it also holds behind a reverse proxy that adds a path prefix.
            return done(
                    HttpReply.empty(
                            HttpResponseStatus.FOUND,
                            Map.of("Location", DashboardRoutes.PREFIX + "/")));
        }
        if (!DashboardRoutes.allows(inside, target.trailingSlash())) {
            return done(
                    HttpReply.error(
                            HttpResponseStatus.FORBIDDEN,
                            "not on the read-only dashboard proxy's"
                                    + " allowlist (see the README); Flink's own REST port serves everything else"));
        }
        String badQuery = DashboardRoutes.queryRefusal(inside, target.query());
        if (badQuery != null) {
            return done(
                    HttpReply.error(
                            HttpResponseStatus.BAD_REQUEST, badQuery + " (see the README)"));
        }
        String base = upstream.baseUrl();
        if (base == null || base.isBlank()) {
            return done(
                    HttpReply.error(
                            HttpResponseStatus.BAD_GATEWAY,
                            "Flink's REST URL could not be resolved from Flink's configuration; "
                                    + SET_URL_HINT));
        }
        URI uri = DashboardRoutes.upstreamUri(base, inside, target.trailingSlash(), target.query());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(requestTimeout).GET();
        ProxyHeaders.request(browserHeaders).forEach(request::header);
        HttpRequest built = request.build();
        boolean index = DashboardRoutes.isIndex(inside);

        if (!perClient.tryAcquire(client)) {
            return done(
                    HttpReply.error(
                            HttpResponseStatus.TOO_MANY_REQUESTS,
                            "too many dashboard requests of this client in progress",
                            Map.of("Retry-After", "1")));
        }
        Runnable giveBack = () -> perClient.release(client);
        CompletableFuture<HttpReply> reply = new CompletableFuture<>();
        boolean admitted = atFlink.submit(() -> send(built, base, index, reply, giveBack));
        if (!admitted) {
            giveBack.run();
            return done(
                    HttpReply.error(
                            HttpResponseStatus.SERVICE_UNAVAILABLE,
                            "too many dashboard requests in progress",
                            Map.of("Retry-After", "1")));
        }
        return reply;
    }

    /**
     * Sends one request and completes {@code reply} whatever happens; {@code release} runs once the
     * reply was written to the browser (or dropped). Returns what holds the place at Flink: it
     * completes once Flink answered (its answer's head; the body streams from Flink's network
     * thread, not its REST threads) or failed.
     */
    private CompletableFuture<?> send(
            HttpRequest request,
            String base,
            boolean index,
            CompletableFuture<HttpReply> reply,
            Runnable release) {
        try {
            CompletableFuture<HttpReply> answer =
                    index
                            // The index is rewritten whole (the tab's script goes in), so it is
                            // read whole, within a limit.
                            ? client().sendAsync(
                                            request, LimitedBodySubscriber.handler(maxBodyBytes))
                                    .thenApply(response -> indexReply(response, base))
                            : client().sendAsync(request, StreamingBodySubscriber.handler())
                                    .thenApply(response -> streamedReply(response, base));
            answer.handle(
                    (ok, error) -> {
                        HttpReply r;
                        try {
                            r = error == null ? ok : failure(error);
                        } catch (RuntimeException e) {
                            // The reply must complete (and the slot go back), or the browser waits
                            // until idle.
                            r = failure(e);
                        }
                        if (!reply.complete(r.alsoAfterWrite(release))) {
                            r.discard();
                            release.run();
                        }
                        return null;
                    });
            return answer;
        } catch (RuntimeException e) {
            // e.g. a request the HTTP client refuses: answered as any other failure, and the places
            // go back.
            reply.complete(failure(e).alsoAfterWrite(release));
            return CompletableFuture.completedFuture(null);
        }
    }

    private static HttpReply streamedReply(HttpResponse<StreamedBody> response, String base) {
        HttpResponseStatus status = HttpResponseStatus.valueOf(response.statusCode());
        String contentType = response.headers().firstValue("content-type").orElse(null);
        Map<String, String> headers = ProxyHeaders.response(response.headers(), base);
        return HttpReply.streamed(status, contentType, response.body(), headers, null);
    }

    private static HttpReply indexReply(HttpResponse<byte[]> response, String base) {
        HttpResponseStatus status = HttpResponseStatus.valueOf(response.statusCode());
        String contentType = response.headers().firstValue("content-type").orElse(null);
        Map<String, String> headers =
                new LinkedHashMap<>(ProxyHeaders.response(response.headers(), base));
        byte[] body = response.body();
        if (status.code() == 200 && TabInjection.isHtml(contentType)) {
            body = TabInjection.inject(body);
            // The page now differs from Flink's file: Flink's validators no longer describe it.
            headers.keySet()
                    .removeIf(
                            name ->
                                    name.equalsIgnoreCase("etag")
                                            || name.equalsIgnoreCase("last-modified")
                                            || name.equalsIgnoreCase("expires")
                                            || name.equalsIgnoreCase("cache-control"));
            headers.put("Cache-Control", "no-cache");
        }
        return new HttpReply(status, contentType, Unpooled.wrappedBuffer(body), headers);
    }

    /**
     * The reply to a failed request, naming Flink's REST URL without user info and the failure's
     * kind only.
     */
    private HttpReply failure(Throwable error) {
        String base = upstream.shownUrl();
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof LimitedBodySubscriber.BodyTooLargeException) {
            return HttpReply.error(
                    HttpResponseStatus.BAD_GATEWAY,
                    "Flink's index page is larger than the proxy's limit of "
                            + maxBodyBytes
                            + " bytes");
        }
        if (cause instanceof HttpTimeoutException
                && !(cause instanceof HttpConnectTimeoutException)) {
            return HttpReply.error(
                    HttpResponseStatus.GATEWAY_TIMEOUT,
                    "Flink's REST API at " + base + " did not answer in time");
        }
        boolean unreachable =
                cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException;
        String message =
                unreachable
                        ? "Flink's REST API at "
                                + base
                                + " is unreachable ("
                                + cause.getClass().getSimpleName()
                                + "); is the JobManager's REST endpoint up? "
                                + SET_URL_HINT
                        : "Flink's REST API at "
                                + base
                                + " failed ("
                                + cause.getClass().getSimpleName()
                                + ")";
        LOG.debug("Flink Insight: the dashboard proxy's request to {} failed", base, cause);
        return HttpReply.error(HttpResponseStatus.BAD_GATEWAY, message);
    }

    private static CompletableFuture<HttpReply> done(HttpReply reply) {
        return CompletableFuture.completedFuture(reply);
    }

    /** Requests Flink is working on for the proxy. */
    int atFlink() {
        return atFlink.running();
    }

    /** Requests of {@code client} not yet written to it. */
    int outstanding(InetAddress client) {
        return perClient.outstanding(client);
    }

    /** The client, made on first use so processes that never proxy start no threads. */
    private synchronized HttpClient client() {
        if (closed) {
            throw new IllegalStateException("the dashboard proxy is closed");
        }
        if (client == null) {
            executor =
                    new ThreadPoolExecutor(
                            2,
                            2,
                            30,
                            TimeUnit.SECONDS,
                            new LinkedBlockingQueue<>(),
                            InsightHttpServer.daemonThreads("flink-insight-proxy-"));
            executor.allowCoreThreadTimeOut(true);
            HttpClient.Builder builder =
                    HttpClient.newBuilder()
                            .connectTimeout(connectTimeout)
                            .followRedirects(HttpClient.Redirect.NEVER)
                            .executor(executor);
            SSLContext tls = upstream.tls();
            if (tls != null) {
                builder.sslContext(
                        tls); // Flink's REST truststore, and its certificate under mutual
                // authentication
            }
            client = builder.build();
        }
        return client;
    }

    /** Stops the proxy's threads; requests still in flight are abandoned with their connections. */
    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
        client = null;
    }
}
