package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.TestingFlinkWeb;
import io.flinkinsight.plugin.TestingHttpClient;
import io.flinkinsight.plugin.http.InsightHttpServer;
import io.flinkinsight.plugin.http.RefusalReason;
import io.flinkinsight.plugin.http.TestingServerSettings;
import io.flinkinsight.plugin.http.TestingServers;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static io.flinkinsight.plugin.TestingHttpClient.freePort;
import static io.flinkinsight.plugin.TestingHttpClient.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's server on 127.0.0.1 proxying a stand-in for Flink's web server, also on 127.0.0.1.
 */
class FlinkDashboardProxyITCase {

    private static final String FLINK_INDEX =
            "<!DOCTYPE html><html lang=\"en\"><head><base href=\"./\"></head>"
                    + "<body><flink-root></flink-root><script src=\"main.6cd446413e0aff84.js\" type=\"module\"></script>"
                    + "</body></html>";
    private static final String MAIN_JS = "console.log('</body>');";
    private static final String JOBS_OVERVIEW = "{\"jobs\":[]}";

    private TestingFlinkWeb flink;
    private InsightHttpServer server;
    private FlinkDashboardProxy proxy;

    private int start(String flinkUrl, Duration requestTimeout, long maxBody) {
        DashboardUpstream upstream =
                new DashboardUpstream() {
                    @Override
                    public boolean available() {
                        return true;
                    }

                    @Override
                    public String baseUrl() {
                        return flinkUrl;
                    }
                };
        proxy =
                new FlinkDashboardProxy(
                        upstream, true, Duration.ofSeconds(2), requestTimeout, maxBody);
        server =
                TestingServers.server(
                        TestingServerSettings.loopback(),
                        (format, out) -> {},
                        Map.of("/api/v1/ping", q -> Map.of("pong", true)),
                        proxy);
        assertThat(server.start()).isNotNull();
        return server.port();
    }

    private int startWithFlink() throws IOException {
        flink =
                new TestingFlinkWeb()
                        .on("/", TestingFlinkWeb.Answer.of("text/html", FLINK_INDEX))
                        .on("/index.html", TestingFlinkWeb.Answer.of("text/html", FLINK_INDEX))
                        .on(
                                "/main.6cd446413e0aff84.js",
                                TestingFlinkWeb.Answer.of("application/javascript", MAIN_JS))
                        .on(
                                "/jobs/overview",
                                TestingFlinkWeb.Answer.of(
                                        "application/json; charset=UTF-8", JOBS_OVERVIEW));
        return start(flink.baseUrl(), Duration.ofSeconds(10), FlinkDashboardProxy.MAX_BODY_BYTES);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (flink != null) {
            flink.close();
        }
    }

    private static String body(String raw) {
        return raw.substring(raw.indexOf("\r\n\r\n") + 4);
    }

    private static String header(String raw, String name) {
        for (String line : raw.substring(0, raw.indexOf("\r\n\r\n")).split("\r\n")) {
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    private static String request(int port, String method, String path, String extraHeaders)
            throws IOException {
        return TestingHttpClient.exchange(
                port,
                (method
                                + " "
                                + path
                                + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + extraHeaders
                                + "Connection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void flinksIndexIsServedWithTheTabScriptInjectedOnce() throws Exception {
        int port = startWithFlink();

        for (String path : new String[] {"/flink/", "/flink/index.html"}) {
            String raw = TestingHttpClient.get(port, path);
            assertThat(status(raw)).as(path).isEqualTo(200);
            assertThat(body(raw))
                    .as(path)
                    .isEqualTo(FLINK_INDEX.replace("</body>", TabInjection.SCRIPT_TAG + "</body>"));
            assertThat(header(raw, "Content-Type")).as(path).isEqualTo("text/html");
            assertThat(header(raw, "Content-Security-Policy")).as(path).isNull();
            assertThat(header(raw, "Cache-Control")).as(path).isEqualTo("no-cache");
        }
        String script = TestingHttpClient.get(port, "/insight-tab/tab.js");
        assertThat(status(script)).isEqualTo(200);
        assertThat(body(script)).contains("nz-menu-item", "MutationObserver");
    }

    @Test
    void otherFilesAndRestAnswersPassThroughUnchanged() throws Exception {
        int port = startWithFlink();

        String js = TestingHttpClient.get(port, "/flink/main.6cd446413e0aff84.js");
        assertThat(body(js)).isEqualTo(MAIN_JS);
        assertThat(header(js, "Content-Type")).isEqualTo("application/javascript");
        String json = TestingHttpClient.get(port, "/flink/jobs/overview");
        assertThat(body(json)).isEqualTo(JOBS_OVERVIEW);
        assertThat(header(json, "Content-Type")).isEqualTo("application/json; charset=UTF-8");
        String missing =
                TestingHttpClient.get(port, "/flink/jobs/0123456789abcdef0123456789abcdef");
        assertThat(status(missing)).isEqualTo(404);
        assertThat(body(missing)).contains("Not found: /jobs/0123456789abcdef0123456789abcdef");
        assertThat(status(TestingHttpClient.get(port, "/flink/jobmanager/logs"))).isEqualTo(403);
        assertThat(server.refusals())
                .as("Flink's own 404 is its answer, the allowlist's 403 a refusal")
                .containsEntry(RefusalReason.NOT_FOUND, 0L)
                .containsEntry(RefusalReason.FORBIDDEN, 1L);
    }

    @Test
    void flinkWithoutTrailingSlashRedirectsSoRelativeUrlsResolveUnderTheProxy() throws Exception {
        int port = startWithFlink();

        String raw = TestingHttpClient.get(port, "/flink");

        assertThat(status(raw)).isEqualTo(302);
        assertThat(header(raw, "Location"))
                .as("relative, so a path prefix in front of the port is kept")
                .isEqualTo("flink/");
        assertThat(flink.received()).isEmpty();
    }

    @Test
    void queriesAreForwardedAsDecodedAndOnlyGetReachesFlink() throws Exception {
        int port = startWithFlink();

        String subtaskRanges =
                request(
                        port,
                        "GET",
                        "/flink/jobs/"
                                + "0".repeat(32)
                                + "/vertices/"
                                + "1".repeat(32)
                                + "/subtasks/metrics?get=x&subtasks=0-2147483647,0-2147483647",
                        "");
        String unknown = request(port, "GET", "/flink/jobs/overview?a=b", "");
        request(
                port,
                "GET",
                "/flink/jobmanager/metrics?get=Status.JVM.CPU.Load%2CStatus.JVM.Memory.Heap.Used",
                "Accept: application/json\r\nCookie: secret=1\r\nAuthorization: Basic eDp5\r\n");
        String head = request(port, "HEAD", "/flink/jobs/overview", "");
        String post =
                TestingHttpClient.exchange(
                        port,
                        ("POST /flink/jars/upload HTTP/1.1\r\nHost: localhost\r\n"
                                        + "Content-Length: 2\r\nConnection: close\r\n\r\n{}")
                                .getBytes(StandardCharsets.US_ASCII));
        String delete = request(port, "DELETE", "/flink/jobs/overview", "");

        assertThat(status(head)).isEqualTo(200);
        assertThat(header(head, "Content-Length"))
                .isEqualTo(String.valueOf(JOBS_OVERVIEW.length()));
        assertThat(body(head)).isEmpty();
        assertThat(status(post)).isEqualTo(405);
        assertThat(status(delete)).isEqualTo(405);
        assertThat(status(subtaskRanges)).isEqualTo(400);
        assertThat(body(subtaskRanges)).contains("'subtasks'", "get, agg");
        assertThat(status(unknown)).isEqualTo(400);
        assertThat(body(unknown)).contains("'a'", "takes none");
        assertThat(flink.received()).as("refused queries never reach Flink").hasSize(2);
        TestingFlinkWeb.Received get = flink.received().get(0);
        assertThat(get.method()).isEqualTo("GET");
        assertThat(get.uri())
                .as("re-encoded from what was matched")
                .isEqualTo(
                        "/jobmanager/metrics?get=Status.JVM.CPU.Load%2CStatus.JVM.Memory.Heap.Used");
        assertThat(get.headers())
                .containsKey("Accept")
                .doesNotContainKeys("Cookie", "Authorization");
        assertThat(flink.received().get(1).method()).isEqualTo("GET");
    }

    @Test
    void traversalAndRoutesOffTheAllowlistNeverReachFlink() throws Exception {
        int port = startWithFlink();

        for (String path :
                new String[] {
                    "/flink/../metrics",
                    "/flink/%2e%2e/api/v1/ping",
                    "/flink//x",
                    "/flink/jobs/0123456789abcdef0123456789abcdef/yarn%2Dcancel%2F"
                }) {
            assertThat(status(TestingHttpClient.get(port, path))).as(path).isEqualTo(400);
        }
        for (String path :
                new String[] {
                    "/flink/jobs/0123456789abcdef0123456789abcdef/yarn-cancel",
                    "/flink/jobs/0123456789abcdef0123456789abcdef/yarn%2Dcancel",
                    "/flink/jobs/0123456789abcdef0123456789abcdef/%79arn-cancel",
                    "/flink/jobmanager/logs",
                    "/flink/jobs/overview/",
                    "/flink/JOBS/overview"
                }) {
            String raw = TestingHttpClient.get(port, path);
            assertThat(status(raw)).as(path).isEqualTo(403);
            assertThat(body(raw)).as(path).contains("allowlist");
        }
        assertThat(flink.received()).isEmpty();
    }

    @Test
    void redirectsFromFlinkStayUnderTheProxy() throws Exception {
        int port = startWithFlink();
        flink.on(
                "/old.html",
                new TestingFlinkWeb.Answer(
                        302,
                        "text/plain",
                        new byte[0],
                        Map.of("Location", flink.baseUrl() + "/index.html"),
                        0,
                        false));

        String raw = TestingHttpClient.get(port, "/flink/old.html");

        assertThat(status(raw)).isEqualTo(302);
        assertThat(header(raw, "Location")).isEqualTo("/flink/index.html");
    }

    @Test
    void unreachableFlinkIs502WithAClearJsonError() throws Exception {
        int port = start("http://127.0.0.1:" + freePort(), Duration.ofSeconds(5), 1024);

        String raw = TestingHttpClient.get(port, "/flink/jobs/overview");

        assertThat(status(raw)).isEqualTo(502);
        assertThat(header(raw, "Content-Type")).startsWith("application/json");
        assertThat(body(raw)).contains("unreachable", "\"status\":502", "hub.flink-rest-url");
        assertThat(status(TestingHttpClient.get(port, "/api/v1/ping"))).isEqualTo(200);
    }

    @Test
    void anIndexPageLargerThanTheLimitIs502WhileOtherAnswersOfAnySizeStreamThrough()
            throws Exception {
        String bigIndex = "<html><body>" + "x".repeat(4096) + "</body></html>";
        flink =
                new TestingFlinkWeb()
                        .on("/index.html", TestingFlinkWeb.Answer.of("text/html", bigIndex))
                        .on(
                                "/big.js",
                                new TestingFlinkWeb.Answer(
                                        200, "text/plain", new byte[4096], Map.of(), 0, false))
                        .on(
                                "/big-chunked.js",
                                new TestingFlinkWeb.Answer(
                                        200, "text/plain", new byte[4096], Map.of(), 0, true));
        int port = start(flink.baseUrl(), Duration.ofSeconds(5), 1024);

        String index = TestingHttpClient.get(port, "/flink/index.html");
        assertThat(status(index)).isEqualTo(502);
        assertThat(body(index)).contains("larger than");
        String announced = TestingHttpClient.get(port, "/flink/big.js");
        assertThat(status(announced)).isEqualTo(200);
        assertThat(header(announced, "Content-Length")).isEqualTo("4096");
        assertThat(body(announced)).hasSize(4096);
        String chunked = TestingHttpClient.get(port, "/flink/big-chunked.js");
        assertThat(status(chunked)).isEqualTo(200);
        assertThat(header(chunked, "Transfer-Encoding")).isEqualTo("chunked");
        assertThat(dechunk(body(chunked))).hasSize(4096);
    }

    @Test
    void aLargeAnswerStreamsThroughAndASlowReaderHoldsFlinkBackInsteadOfFillingMemory()
            throws Exception {
        long bodyBytes = 64L * 1024 * 1024;
        try (FlowingUpstream upstream = new FlowingUpstream(bodyBytes)) {
            int port = start(upstream.baseUrl(), Duration.ofSeconds(30), 1024);
            try (Socket browser = new Socket()) {
                browser.setReceiveBufferSize(64 * 1024);
                browser.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                browser.setSoTimeout(10_000);
                browser.getOutputStream()
                        .write(
                                ("GET /flink/assets/big.js HTTP/1.1\r\nHost: localhost\r\n"
                                                + "Connection: close\r\n\r\n")
                                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = browser.getInputStream();
                String head = readHead(in);
                assertThat(head)
                        .startsWith("HTTP/1.1 200")
                        .contains("content-length: " + bodyBytes);

                // The browser reads nothing more: Flink must stop being read, not the proxy buffer
                // its answer.
                long sent = awaitSteady(upstream::sent);
                long directWhileStalled =
                        PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
                assertThat(sent)
                        .as("bytes Flink could send to a stalled reader")
                        .isLessThan(bodyBytes / 4);
                assertThat(directWhileStalled)
                        .as("Netty's pooled direct memory")
                        .isLessThan(32L * 1024 * 1024);
                assertThat(proxy.outstanding(InetAddress.getByName("127.0.0.1")))
                        .as("an answer waiting for its reader holds its client's place")
                        .isEqualTo(1);
                assertThat(proxy.atFlink())
                        .as("but no place at Flink, which has answered")
                        .isZero();

                long received = 0;
                long mismatches = 0;
                byte[] buffer = new byte[64 * 1024];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] != FlowingUpstream.byteAt(received + i)) {
                            mismatches++;
                        }
                    }
                    received += n;
                }
                assertThat(received).isEqualTo(bodyBytes);
                assertThat(mismatches).isZero();
            }
            InetAddress browser = InetAddress.getByName("127.0.0.1");
            for (int i = 0; i < 100 && proxy.outstanding(browser) > 0; i++) {
                Thread.sleep(50);
            }
            assertThat(proxy.outstanding(browser))
                    .as("the place is given back once the answer was written")
                    .isZero();
        }
    }

    /** The body of a chunked answer, its chunks joined. */
    private static String dechunk(String framed) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = framed.indexOf("\r\n", at);
            int size = Integer.parseInt(framed.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(framed, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    /**
     * Waits (at most 10 s) until {@code counter} stopped growing for half a second; returns its
     * value then.
     */
    private static long awaitSteady(LongSupplier counter) throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 20; i++) {
            Thread.sleep(500);
            long now = counter.getAsLong();
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed in the head: " + head);
            }
            head.append((char) c);
        }
        return head.toString().toLowerCase(java.util.Locale.ROOT).replace("http/1.1", "HTTP/1.1");
    }

    /**
     * Flink's stand-in for one large answer: writes a body of {@code length} known bytes to the
     * first request on a small send buffer, counting what the kernel took, so a test sees how far
     * the proxy let it get.
     */
    private static final class FlowingUpstream implements AutoCloseable {
        private final ServerSocket socket;
        private final AtomicLong sent = new AtomicLong();
        private final Thread thread;

        FlowingUpstream(long length) throws IOException {
            socket = new ServerSocket();
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            thread = new Thread(() -> serve(length), "flowing-upstream");
            thread.setDaemon(true);
            thread.start();
        }

        static byte byteAt(long position) {
            return (byte) (position * 31 + (position >>> 16));
        }

        String baseUrl() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        long sent() {
            return sent.get();
        }

        private void serve(long length) {
            try (Socket s = socket.accept()) {
                s.setSendBufferSize(64 * 1024);
                readHead(s.getInputStream());
                OutputStream out = s.getOutputStream();
                out.write(
                        ("HTTP/1.1 200 OK\r\nContent-Type: application/javascript\r\nContent-Length: "
                                        + length
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                byte[] chunk = new byte[16 * 1024];
                long position = 0;
                while (position < length) {
                    int n = (int) Math.min(chunk.length, length - position);
                    for (int i = 0; i < n; i++) {
                        chunk[i] = byteAt(position + i);
                    }
                    out.write(chunk, 0, n);
                    position += n;
                    sent.set(position);
                }
                out.flush();
            } catch (IOException e) {
                // the proxy gave up on the body
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            thread.interrupt();
        }
    }

    @Test
    void flinkTooSlowToAnswerIs504() throws Exception {
        flink =
                new TestingFlinkWeb()
                        .on(
                                "/slow.js",
                                new TestingFlinkWeb.Answer(
                                        200, "text/plain", new byte[1], Map.of(), 3_000, false));
        int port = start(flink.baseUrl(), Duration.ofMillis(300), 1024);

        long started = System.nanoTime();
        String raw = TestingHttpClient.get(port, "/flink/slow.js");

        assertThat(status(raw)).isEqualTo(504);
        assertThat(body(raw)).contains("did not answer in time");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isLessThan(Duration.ofMillis(2_500));
    }
}
