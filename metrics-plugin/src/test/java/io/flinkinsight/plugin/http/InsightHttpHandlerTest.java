package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.exposition.ExpositionWriter;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.TestingGroups;
import io.flinkinsight.plugin.scrape.ScrapeFigures;
import io.flinkinsight.plugin.scrape.ScrapeHandler;
import io.flinkinsight.plugin.serve.RequestRouter;
import io.flinkinsight.plugin.serve.StaticFiles;

import org.apache.flink.metrics.SimpleCounter;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.timeout.IdleStateEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPInputStream;

import static io.flinkinsight.plugin.http.TestingHttpChannel.body;
import static org.assertj.core.api.Assertions.assertThat;

class InsightHttpHandlerTest {

    private static final Executor DIRECT = Runnable::run;

    private final MetricIndex index = new MetricIndex(true);

    /** The clock that ages rendered scrape bodies, for the routers that take it. */
    private final java.util.concurrent.atomic.AtomicLong now =
            new java.util.concurrent.atomic.AtomicLong();

    private TestingHttpChannel http;

    InsightHttpHandlerTest() {
        SimpleCounter c = new SimpleCounter();
        c.inc(5);
        index.add(c, "numRecordsIn", TestingGroups.taskGroup("0"));
        http = channel(DIRECT);
    }

    private TestingHttpChannel channel(Executor workers) {
        ExpositionWriter writer = new ExpositionWriter(new LongAdder());
        Map<String, JsonEndpoint> endpoints = new LinkedHashMap<>();
        endpoints.put("/api/v1/echo", q -> Map.of("n", q.getLong("n", 0, 0, 10)));
        endpoints.put(
                "/api/v1/boom",
                q -> {
                    throw new IllegalStateException("secret detail");
                });
        endpoints.put(
                "/api/v1/assert",
                q -> {
                    throw new AssertionError("an endpoint's bug");
                });
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> writer.write(index.families(), format, out),
                        endpoints,
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()));
        return new TestingHttpChannel(router, workers);
    }

    @AfterEach
    void close() {
        http.close();
    }

    @Test
    void metricsAreServedAsPrometheusText() {
        FullHttpResponse r = http.get("/metrics");

        assertThat(r.status().code()).isEqualTo(200);
        assertThat(r.headers().get("Content-Type"))
                .isEqualTo("text/plain; version=0.0.4; charset=utf-8");
        assertThat(body(r)).contains("# TYPE flink_taskmanager_job_task_numRecordsIn counter\n");
        assertThat(body(r)).doesNotContain("# EOF");
    }

    @Test
    void metricsAreServedAsOpenMetricsWhenAccepted() {
        FullHttpResponse r =
                http.get(
                        "/metrics",
                        "Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n");

        assertThat(r.headers().get("Content-Type"))
                .startsWith("application/openmetrics-text; version=1.0.0");
        assertThat(body(r)).endsWith("# EOF\n");
    }

    @Test
    void metricsAreGzippedWhenAsked() throws IOException {
        for (int i = 1; i < 50; i++) {
            index.add(
                    new SimpleCounter(),
                    "numRecordsIn",
                    TestingGroups.taskGroup(String.valueOf(i)));
        }
        FullHttpResponse r = http.get("/metrics", "Accept-Encoding: gzip\r\n");

        assertThat(r.headers().get("Content-Encoding")).isEqualTo("gzip");
        byte[] compressed = new byte[r.content().readableBytes()];
        r.content().readBytes(compressed);
        String text =
                new String(
                        new GZIPInputStream(new ByteArrayInputStream(compressed)).readAllBytes(),
                        StandardCharsets.UTF_8);
        assertThat(text).contains("subtask_index=\"49\"");
    }

    @Test
    void jsonEndpointAnswersWithJsonAndBadParameterWith400() {
        FullHttpResponse ok = http.get("/api/v1/echo?n=3");
        assertThat(ok.status().code()).isEqualTo(200);
        assertThat(ok.headers().get("Content-Type")).isEqualTo("application/json; charset=utf-8");
        assertThat(body(ok)).isEqualTo("{\"n\":3}");

        FullHttpResponse bad = http.get("/api/v1/echo?n=11");
        assertThat(bad.status().code()).isEqualTo(400);
        assertThat(body(bad))
                .isEqualTo(
                        "{\"error\":\"parameter 'n' must be an integer in [0, 10]\",\"status\":400}");
    }

    @Test
    void failingEndpointAnswers500WithoutDetails() {
        FullHttpResponse r = http.get("/api/v1/boom");

        assertThat(r.status().code()).isEqualTo(500);
        assertThat(body(r)).contains("\"status\":500").doesNotContain("secret");
    }

    @Test
    void endpointThrowingAnErrorAnswers500AndTheConnectionGoesOn() {
        List<FullHttpResponse> r =
                http.send(
                        "GET /api/v1/assert HTTP/1.1\r\nHost: localhost\r\n\r\n"
                                + "GET /api/v1/echo?n=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(r).extracting(response -> response.status().code()).containsExactly(500, 200);
        assertThat(body(r.get(0))).contains("\"status\":500").doesNotContain("bug");
        assertThat(http.isOpen()).isTrue();
    }

    @Test
    void unknownApiPathIs404Json() {
        FullHttpResponse r = http.get("/api/v1/nope");

        assertThat(r.status().code()).isEqualTo(404);
        assertThat(body(r)).startsWith("{\"error\":").endsWith("\"status\":404}");
    }

    @Test
    void rootServesThePanelWithAContentSecurityPolicy() {
        FullHttpResponse r = http.get("/");

        assertThat(r.status().code()).isEqualTo(200);
        assertThat(r.headers().get("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(r.headers().get("Content-Security-Policy")).contains("default-src 'self'");
        assertThat(body(r)).contains("Flink Insight");
    }

    @Test
    void panelRoutesLiveInTheFragmentSoOtherPathsAre404() {
        for (String path :
                List.of(
                        "/checkpoints/abc",
                        "/jobs/0123456789abcdef0123456789abcdef/yarn-cancel",
                        "/missing.js",
                        "/overview")) {
            FullHttpResponse r = http.get(path);
            assertThat(r.status().code()).as(path).isEqualTo(404);
            assertThat(body(r)).as(path).doesNotContain("<html");
        }
    }

    @Test
    void tabScriptIsServedAsJavaScript() {
        FullHttpResponse r = http.get(RequestRouter.TAB_PATH + "tab.js");

        assertThat(r.status().code()).isEqualTo(200);
        assertThat(r.headers().get("Content-Type")).startsWith("text/javascript");
        assertThat(body(r)).contains("MutationObserver", "nz-menu-item");
        assertThat(http.get("/insight-tab/missing.js").status().code()).isEqualTo(404);
    }

    @Test
    void withoutAForwarderItsPathsAre404Json() {
        for (String path : List.of("/flink", "/flink/", "/flink/jobs/overview")) {
            FullHttpResponse r = http.get(path);
            assertThat(r.status().code()).as(path).isEqualTo(404);
            assertThat(body(r)).as(path).contains("\"status\":404");
        }
    }

    @Test
    void traversalFromTheDashboardPathIs400() {
        for (String path :
                List.of("/flink/../metrics", "/flink/%2e%2e/metrics", "/flink/..%2fmetrics")) {
            TestingHttpChannel c = channel(DIRECT);
            assertThat(c.get(path).status().code()).as(path).isEqualTo(400);
            c.close();
        }
    }

    @Test
    void traversalAndEncodedSeparatorsAre400() {
        for (String path :
                List.of(
                        "/../etc/passwd",
                        "/%2e%2e/x",
                        "/%2E%2e/x",
                        "/a%2fb",
                        "/a%5cb",
                        "/a\\b",
                        "/a%00b",
                        "/index.html/..")) {
            TestingHttpChannel c = channel(DIRECT);
            FullHttpResponse r = c.get(path);
            assertThat(r.status().code()).as(path).isEqualTo(400);
            assertThat(body(r)).as(path).contains("\"status\":400");
            c.close();
        }
    }

    @Test
    void malformedPercentEscapeIs400() {
        assertThat(http.get("/api/v1/echo?n=%zz").status().code()).isEqualTo(400);
        assertThat(http.get("/a%2").status().code()).isEqualTo(400);
    }

    @Test
    void otherMethodsAre405WithAllow() {
        List<FullHttpResponse> r = http.send("DELETE /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(r.get(0).status().code()).isEqualTo(405);
        assertThat(r.get(0).headers().get("Allow")).isEqualTo("GET, HEAD");
    }

    @Test
    void everyMethodButGetAndHeadIs405OnEveryPath() {
        for (String method :
                List.of(
                        "POST",
                        "PUT",
                        "PATCH",
                        "DELETE",
                        "OPTIONS",
                        "TRACE",
                        "CONNECT",
                        "PROPFIND",
                        "get",
                        "Get",
                        "FOO")) {
            for (String path :
                    List.of("/metrics", "/api/v1/echo", "/", "/flink/jobs/overview", "/nope")) {
                TestingHttpChannel c = channel(DIRECT);
                List<FullHttpResponse> r =
                        c.send(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThat(r).as("%s %s", method, path).hasSize(1);
                assertThat(r.get(0).status().code()).as("%s %s", method, path).isEqualTo(405);
                assertThat(r.get(0).headers().get("Allow")).isEqualTo("GET, HEAD");
                c.close();
            }
        }
    }

    @Test
    void noAnswerCarriesCorsHeadersByDefault() {
        FullHttpResponse own = http.get("/api/v1/echo", "Origin: http://localhost\r\n");
        FullHttpResponse other = http.get("/api/v1/echo", "Origin: http://evil.example\r\n");

        assertThat(own.status().code()).isEqualTo(200);
        assertThat(own.headers().contains("Access-Control-Allow-Origin")).isFalse();
        assertThat(other.status().code()).as("another origin's page").isEqualTo(403);
        assertThat(other.headers().contains("Access-Control-Allow-Origin")).isFalse();
    }

    @Test
    void headAnswersHeadersWithoutBody() {
        String raw = http.sendRaw("HEAD /api/v1/echo?n=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(raw)
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("content-length: 7\r\n")
                .endsWith("\r\n\r\n");
    }

    @Test
    void requestBodyIs413AndClosesTheConnection() {
        List<FullHttpResponse> r =
                http.send(
                        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello");

        assertThat(r.get(0).status().code()).isEqualTo(413);
        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void overlongUriIs414() {
        FullHttpResponse r = http.get("/api/v1/echo?x=" + "a".repeat(5000));

        assertThat(r.status().code()).isEqualTo(414);
        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void uriJustOverTheLimitIs414Too() {
        // Short enough for the decoder's line limit, caught by the explicit request-target check.
        FullHttpResponse r =
                http.get("/api/v1/echo?x=" + "a".repeat(HttpServerSettings.MAX_URI_LENGTH - 10));

        assertThat(r.status().code()).isEqualTo(414);
    }

    @Test
    void overlongHeadersAre431() {
        FullHttpResponse r = http.get("/metrics", "X-Big: " + "b".repeat(9000) + "\r\n");

        assertThat(r.status().code()).isEqualTo(431);
        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void malformedRequestLineIs400AndCloses() {
        List<FullHttpResponse> r = http.send("THIS IS NOT HTTP\r\n\r\n");

        assertThat(r).hasSize(1);
        assertThat(r.get(0).status().code()).isEqualTo(400);
        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() {
        List<FullHttpResponse> r =
                http.send(
                        "GET /api/v1/echo?n=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                                + "GET /api/v1/echo?n=2 HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(r)
                .extracting(TestingHttpChannel::body)
                .containsExactly("{\"n\":1}", "{\"n\":2}");
        assertThat(http.isOpen()).isTrue();
    }

    @Test
    void rejectedWorkIs503() {
        TestingHttpChannel busy =
                channel(
                        task -> {
                            throw new RejectedExecutionException();
                        });
        FullHttpResponse r = busy.get("/metrics");

        assertThat(r.status().code()).isEqualTo(503);
        assertThat(body(r)).contains("\"status\":503");
        busy.close();
    }

    @Test
    void idleConnectionIsClosed() {
        http.channel().pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);

        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void connectionCloseIsHonoured() {
        http.get("/metrics", "Connection: close\r\n");

        assertThat(http.isOpen()).isFalse();
    }

    @Test
    void aScrapeLargerThanOneSliceArrivesWholeAndGzipped() throws IOException {
        byte[] line = "flink_x{a=\"b\"} 1\n".getBytes(StandardCharsets.US_ASCII);
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> {
                            for (int i = 0; i < 40_000; i++) {
                                out.write(line);
                            }
                            out.drain();
                        },
                        Map.of(),
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()));
        try (TestingHttpChannel c = new TestingHttpChannel(router, DIRECT)) {
            FullHttpResponse plain = c.get("/metrics");
            assertThat(plain.status().code()).isEqualTo(200);
            assertThat(plain.content().readableBytes()).isEqualTo(40_000 * line.length);
            assertThat(plain.headers().getInt("Content-Length")).isEqualTo(40_000 * line.length);

            FullHttpResponse gzipped = c.get("/metrics", "Accept-Encoding: gzip\r\n");
            byte[] unzipped =
                    new GZIPInputStream(
                                    new ByteArrayInputStream(
                                            ByteBufUtil.getBytes(gzipped.content())))
                            .readAllBytes();
            assertThat(unzipped).hasSize(40_000 * line.length);
        }
    }

    /** An endpoint whose answer grows with {@code n}: n numbers of about 8 bytes each. */
    private static final JsonEndpoint GROWING =
            new JsonEndpoint() {
                @Override
                public Object handle(QueryParameters query) throws BadRequestException {
                    long n = query.getLong("n", 0, 0, 10_000_000);
                    return Map.of(
                            "values",
                            java.util.stream.LongStream.range(10_000_000, 10_000_000 + n)
                                    .iterator());
                }

                @Override
                public List<String> narrowedBy() {
                    return List.of("n (fewer values)");
                }
            };

    @Test
    void anAnswerOverTheBudgetIs413NamingWhatNarrowsItAndOneWithinIsWhole() throws IOException {
        long budget = 64 * 1024;
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> {},
                        Map.of("/api/v1/growing", GROWING),
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()),
                        null,
                        null,
                        1,
                        budget,
                        System::nanoTime);
        try (TestingHttpChannel c = new TestingHttpChannel(router, DIRECT)) {
            FullHttpResponse small = c.get("/api/v1/growing?n=1000");
            assertThat(small.status().code()).isEqualTo(200);
            assertThat(
                            Json.mapper()
                                    .readTree(ByteBufUtil.getBytes(small.content()))
                                    .get("values")
                                    .size())
                    .isEqualTo(1000);

            // Ten million values would be ~90 MB: the serialisation stops at the budget.
            FullHttpResponse big = c.get("/api/v1/growing?n=10000000");
            assertThat(big.status().code()).isEqualTo(413);
            var error = Json.mapper().readTree(ByteBufUtil.getBytes(big.content()));
            assertThat(error.get("error").asText())
                    .contains("http.max-answer-bytes", String.valueOf(budget), "n (fewer values)");
            assertThat(error.get("narrowBy").get(0).asText()).isEqualTo("n (fewer values)");
        }
    }

    @Test
    void refusalsAreCountedByReasonAndServedRequestsAreNot() {
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> {},
                        Map.of("/api/v1/growing", GROWING),
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()),
                        null,
                        null,
                        1,
                        64 * 1024,
                        System::nanoTime);
        Map<RefusalReason, Long> counts;
        try (TestingHttpChannel c = new TestingHttpChannel(router, DIRECT)) {
            c.get("/api/v1/growing?n=10");
            c.get("/metrics");
            c.get("/api/v1/nothing");
            c.get("/api/v1/growing?n=10000000");
            c.get("/api/v1/growing?n=-1");
            c.send("DELETE /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
            counts = c.refusals().snapshot();
        }

        assertThat(counts)
                .containsEntry(RefusalReason.NOT_FOUND, 1L)
                .containsEntry(RefusalReason.ANSWER_TOO_LARGE, 1L)
                .containsEntry(RefusalReason.BAD_REQUEST, 1L)
                .containsEntry(RefusalReason.METHOD_NOT_ALLOWED, 1L)
                .containsEntry(RefusalReason.TOO_MANY_SCRAPES, 0L)
                .hasSize(RefusalReason.values().length);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(4);
    }

    @Test
    void scrapesBeyondTheLimitWaitThenGet503AndATurnEndsWithItsRender() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> {
                            try {
                                release.await(10, java.util.concurrent.TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            out.write("up 1\n".getBytes(StandardCharsets.US_ASCII));
                            out.drain();
                        },
                        Map.of(),
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()),
                        null,
                        null,
                        1,
                        RequestRouter.DEFAULT_MAX_ANSWER_BYTES,
                        now::get);
        RequestTarget metrics = RequestTarget.parse("/metrics");
        var headers = new io.netty.handler.codec.http.DefaultHttpHeaders();
        var first =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> router.handle(metrics, headers, client("10.0.0.1")).join());
        Thread.sleep(200); // the first scrape holds the only turn, blocked in its render

        // The other format needs a turn of its own, and there is only one.
        var openMetrics =
                new io.netty.handler.codec.http.DefaultHttpHeaders()
                        .add("Accept", "application/openmetrics-text; version=1.0.0");
        HttpReply second = router.handle(metrics, openMetrics, client("10.0.0.2")).join();
        assertThat(second.status().code()).isEqualTo(503);
        assertThat(second.headers()).containsEntry("Retry-After", "1");
        assertThat(router.scrapeFigures().refusedCount()).isEqualTo(1);
        second.discard();
        // The same format waits for the render under way and shares its body.
        var sameFormat =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> router.handle(metrics, headers, client("10.0.0.3")).join());
        Thread.sleep(200);

        release.countDown();
        HttpReply firstReply = first.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(firstReply.status().code()).isEqualTo(200);
        HttpReply shared = sameFormat.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(shared.status().code()).isEqualTo(200);
        assertThat(router.scrapeFigures().sharedCount()).isEqualTo(1);
        shared.discard();
        now.addAndGet(ScrapeHandler.SHARE_WINDOW.toNanos()); // not shared: rendered again
        HttpReply whileWritten = router.handle(metrics, headers, client("10.0.0.2")).join();
        assertThat(whileWritten.status().code())
                .as("the first body is not written yet, but its render ended")
                .isEqualTo(200);
        whileWritten.discard();
        firstReply.discard();
        ScrapeFigures figures = router.scrapeFigures();
        assertThat(figures.served()).as("scrapes rendered").isEqualTo(2);
        assertThat(figures.bytes()).as("their bytes: two bodies of 'up 1\\n'").isEqualTo(10);
        assertThat(figures.refusedCount()).isEqualTo(1);
        assertThat(figures.waiting()).as("no scrape waits for a turn any more").isZero();
        assertThat(figures.writesAborted()).as("two addresses, one body each").isZero();
        assertThat(figures.renderSeconds())
                .as("the first render waited for its latch")
                .isGreaterThan(0.1);
    }

    @Test
    void scrapesWithinASecondShareARenderAndANewRenderClosesTheOldestGenerationsConnections()
            throws Exception {
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> {
                            out.write("up 1\n".getBytes(StandardCharsets.US_ASCII));
                            out.drain();
                        },
                        Map.of(),
                        new StaticFiles(InsightHttpHandlerTest.class.getClassLoader()),
                        null,
                        null,
                        2,
                        RequestRouter.DEFAULT_MAX_ANSWER_BYTES,
                        now::get);
        RequestTarget metrics = RequestTarget.parse("/metrics");
        var headers = new io.netty.handler.codec.http.DefaultHttpHeaders();
        java.util.concurrent.atomic.AtomicInteger closed =
                new java.util.concurrent.atomic.AtomicInteger();
        List<HttpReply> unread = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) { // one render, shared
            unread.add(
                    router.handle(
                                    metrics,
                                    headers,
                                    new ClientConnection(
                                            address("10.0.0.1"), closed::incrementAndGet))
                            .join());
        }
        for (int i = 0; i < 3; i++) { // two turns: four generations of a format held
            now.addAndGet(ScrapeHandler.SHARE_WINDOW.toNanos());
            unread.add(router.handle(metrics, headers, client("10.0.0.2")).join());
        }
        assertThat(closed).hasValue(0);
        assertThat(router.scrapeFigures().served()).isEqualTo(4);
        assertThat(router.scrapeFigures().sharedCount()).isEqualTo(1);

        now.addAndGet(ScrapeHandler.SHARE_WINDOW.toNanos());
        HttpReply next = router.handle(metrics, headers, client("10.0.0.3")).join();

        assertThat(next.status().code()).isEqualTo(200);
        assertThat(closed).as("both writes of the oldest generation were closed").hasValue(2);
        assertThat(router.scrapeFigures().writesAborted()).isEqualTo(2);
        unread.forEach(
                HttpReply::discard); // what the closed connections' failed writes do, and the
        // others'
        next.discard();
        router.close();
        assertThat(next.body().refCnt()).as("every body released").isZero();
    }

    private static ClientConnection client(String ip) {
        return new ClientConnection(address(ip), () -> {});
    }

    private static java.net.InetAddress address(String ip) {
        try {
            return java.net.InetAddress.getByName(ip);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }

    @Test
    void requestsAfterConnectionCloseAreNeitherAnsweredNorQueued() {
        TestingHttpChannel c = channel(DIRECT);
        List<FullHttpResponse> r =
                c.send("GET /api/v1/echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(r).hasSize(1);
        // Nothing more is read from a connection about to close, so a client that keeps sending
        // while it does not
        // read its answer cannot make the decoders queue requests up.
        assertThat(c.channel().config().isAutoRead()).isFalse();
        assertThat(c.isOpen()).isFalse();
    }
}
