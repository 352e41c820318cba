package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.TestingLogCapture;
import io.flinkinsight.plugin.exposition.ExpositionWriter;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.TestingGroups;

import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.flinkinsight.plugin.TestingHttpClient.exchange;
import static io.flinkinsight.plugin.TestingHttpClient.freePort;
import static io.flinkinsight.plugin.TestingHttpClient.get;
import static io.flinkinsight.plugin.TestingHttpClient.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server on a real socket on 127.0.0.1: binding, the log line tests parse, and hostile bytes.
 */
class InsightHttpServerITCase {

    /** The regex the harness uses to find the server in a Flink process's log. */
    private static final Pattern LISTENING =
            Pattern.compile("Flink Insight HTTP server listening on http://([^:/\\s]+):(\\d+)");

    private static InsightHttpServer server(String ports, int maxConnections) {
        return server(ports, maxConnections, maxConnections, Duration.ofSeconds(10));
    }

    private static InsightHttpServer server(
            String ports, int maxConnections, int perAddress, Duration headTimeout) {
        MetricIndex index = new MetricIndex(true);
        index.add(new SimpleCounter(), "numRecordsIn", TestingGroups.taskGroup("0"));
        ExpositionWriter writer = new ExpositionWriter(new LongAdder());
        HttpServerSettings settings =
                new HttpServerSettings(
                        PortRange.parse(ports),
                        "127.0.0.1",
                        8192,
                        Duration.ofSeconds(60),
                        maxConnections,
                        2,
                        perAddress,
                        headTimeout,
                        PortAccess.OPEN);
        return TestingServers.server(
                settings,
                (f, out) -> writer.write(index.families(), f, out),
                Map.of("/api/v1/ping", q -> Map.of("pong", true)));
    }

    @Test
    void bindsLoopbackAndLogsTheLineTheHarnessParses() throws Exception {
        try (TestingLogCapture log = new TestingLogCapture();
                InsightHttpServer s = server("0", 16)) {
            InetSocketAddress address = s.start();

            assertThat(address).isNotNull();
            List<String> info =
                    log.linesAt("INFO").stream().filter(l -> LISTENING.matcher(l).find()).toList();
            assertThat(info).hasSize(1);
            Matcher m = LISTENING.matcher(info.get(0));
            assertThat(m.find()).isTrue();
            assertThat(m.group(1)).isEqualTo("127.0.0.1");
            assertThat(Integer.parseInt(m.group(2))).isEqualTo(s.port());
            String response = get(s.port(), "/metrics");
            assertThat(status(response)).isEqualTo(200);
            assertThat(response).contains("flink_taskmanager_job_task_numRecordsIn{");
        }
    }

    @Test
    void serverKeepsServingAfterHostileBytes() throws Exception {
        try (InsightHttpServer s = server("0", 16)) {
            s.start();
            int port = s.port();

            // Leading control characters are skipped (as HTTP allows); the binary line after them
            // is not HTTP.
            assertThat(
                            status(
                                    exchange(
                                            port,
                                            new byte[] {
                                                0,
                                                1,
                                                'G',
                                                'A',
                                                'R',
                                                'B',
                                                (byte) 0xff,
                                                (byte) 0xfe,
                                                '\r',
                                                '\n',
                                                '\r',
                                                '\n'
                                            })))
                    .isEqualTo(400);
            assertThat(
                            status(
                                    exchange(
                                            port,
                                            "GET /../../etc/passwd HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                                                    .getBytes(StandardCharsets.US_ASCII))))
                    .isEqualTo(400);
            assertThat(
                            status(
                                    exchange(
                                            port,
                                            ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nX: "
                                                            + "y".repeat(10_000)
                                                            + "\r\n\r\n")
                                                    .getBytes(StandardCharsets.US_ASCII))))
                    .isEqualTo(431);
            assertThat(
                            status(
                                    exchange(
                                            port,
                                            ("GET /" + "a".repeat(9000) + " HTTP/1.1\r\n\r\n")
                                                    .getBytes(StandardCharsets.US_ASCII))))
                    .isEqualTo(414);
            assertThat(
                            status(
                                    exchange(
                                            port,
                                            "POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc"
                                                    .getBytes(StandardCharsets.US_ASCII))))
                    .isEqualTo(405);
            // A client that sends half a request and disappears.
            try (Socket half = new Socket("127.0.0.1", port)) {
                half.getOutputStream().write("GET /met".getBytes(StandardCharsets.US_ASCII));
            }

            String good = get(port, "/api/v1/ping");
            assertThat(status(good)).isEqualTo(200);
            assertThat(good).endsWith("{\"pong\":true}");
        }
    }

    @Test
    void nextPortOfTheRangeIsUsedWhenTheFirstIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int first = taken.getLocalPort();
            try (InsightHttpServer s = server(first + "," + freePort(), 16)) {
                assertThat(s.start()).isNotNull();
                assertThat(s.port()).isNotEqualTo(first);
                assertThat(status(get(s.port(), "/metrics"))).isEqualTo(200);
            }
        }
    }

    @Test
    void noFreePortLogsOneErrorNamingTheOptionAndDoesNotThrow() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                TestingLogCapture log = new TestingLogCapture();
                InsightHttpServer s = server(String.valueOf(taken.getLocalPort()), 16)) {
            assertThat(s.start()).isNull();

            assertThat(s.isRunning()).isFalse();
            assertThat(log.linesAt("ERROR"))
                    .singleElement()
                    .asString()
                    .contains("metrics.reporter.insight.port=" + taken.getLocalPort())
                    .contains("127.0.0.1");
        }
    }

    @Test
    void connectionsBeyondTheLimitAreClosed() throws Exception {
        try (InsightHttpServer s = server("0", 1)) {
            s.start();
            try (Socket first = new Socket("127.0.0.1", s.port());
                    Socket second = new Socket("127.0.0.1", s.port())) {
                second.setSoTimeout(5000);
                InputStream in = second.getInputStream();
                assertThat(in.read()).isEqualTo(-1);
                assertThat(first.isClosed()).isFalse();
            }
            // The limit counts open connections only: once they are gone, new ones are served.
            String response = null;
            for (int attempt = 0; attempt < 50 && response == null; attempt++) {
                String r = get(s.port(), "/metrics");
                if (!r.isEmpty()) {
                    response = r;
                } else {
                    Thread.sleep(20);
                }
            }
            assertThat(response).isNotNull();
            assertThat(status(response)).isEqualTo(200);
        }
    }

    @Test
    void aClientTricklingItsHeadersIsCutAtTheHeadDeadline() throws Exception {
        try (InsightHttpServer s = server("0", 16, 16, Duration.ofSeconds(1));
                Socket slow = new Socket("127.0.0.1", s.start().getPort())) {
            slow.setSoTimeout(5000);
            long started = System.nanoTime();
            boolean cut = false;
            // One header line every 200 ms keeps the connection busy, so the idle timeout never
            // fires.
            for (int line = 0; line < 40 && !cut; line++) {
                try {
                    slow.getOutputStream()
                            .write(
                                    (line == 0
                                                    ? "GET /metrics HTTP/1.1\r\n"
                                                    : "X-" + line + ": y\r\n")
                                            .getBytes(StandardCharsets.US_ASCII));
                    slow.getOutputStream().flush();
                    Thread.sleep(200);
                } catch (java.io.IOException e) {
                    cut = true;
                }
                cut = cut || closedByPeer(slow);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(cut).as("connection closed while its headers still trickled in").isTrue();
            assertThat(took).isLessThan(Duration.ofSeconds(6));
            assertThat(status(get(s.port(), "/metrics"))).isEqualTo(200);
        }
    }

    @Test
    void oneAddressCannotHoldEveryConnectionAndStarvePrometheus() throws Exception {
        try (InsightHttpServer s = server("0", 64, 8, Duration.ofSeconds(10))) {
            int port = s.start().getPort();
            List<Socket> flood = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 150; i++) {
                    flood.add(new Socket("127.0.0.1", port));
                }
                int open = 0;
                for (Socket socket : flood) {
                    open += closedByPeer(socket) ? 0 : 1;
                }
                assertThat(open).as("connections from 127.0.0.1 left open").isEqualTo(8);
                // Prometheus, from another address, is still answered.
                try (Socket scrape = new Socket()) {
                    scrape.bind(new InetSocketAddress("127.0.0.2", 0));
                    scrape.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                    scrape.setSoTimeout(5000);
                    scrape.getOutputStream()
                            .write(
                                    "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                                            .getBytes(StandardCharsets.US_ASCII));
                    String answer =
                            new String(
                                    scrape.getInputStream().readAllBytes(),
                                    StandardCharsets.ISO_8859_1);
                    assertThat(status(answer)).isEqualTo(200);
                }
            } finally {
                for (Socket socket : flood) {
                    socket.close();
                }
            }
        }
    }

    /**
     * Whether the server closed {@code socket}: a read sees end of stream (waits at most 1 s for
     * it).
     */
    private static boolean closedByPeer(Socket socket) throws Exception {
        socket.setSoTimeout(1000);
        try {
            return socket.getInputStream().read() == -1;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (java.io.IOException e) {
            return true;
        }
    }

    @Test
    void closeFreesThePort() throws Exception {
        InsightHttpServer s = server("0", 16);
        s.start();
        int port = s.port();
        s.close();

        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }
}
