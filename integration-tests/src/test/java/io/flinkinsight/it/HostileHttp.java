package io.flinkinsight.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Raw-socket requests a browser would never send, against a running plugin HTTP server. */
final class HostileHttp {

    private HostileHttp() {}

    static void assertRefusesHostileInputAndKeepsServing(String baseUrl) throws IOException {
        URI uri = URI.create(baseUrl);
        String host = uri.getHost();
        int port = uri.getPort();
        String longPath = "/" + "a".repeat(10_000);
        String bigHeader = "X-Big: " + "b".repeat(20_000);
        Object[][] cases = {
            {"GARBAGE\r\n\r\n", "4"},
            {"DELETE /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", "405"},
            {
                "POST /api/v1/overview HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}",
                "405"
            },
            {"GET " + longPath + " HTTP/1.1\r\nHost: localhost\r\n\r\n", "4"},
            {"GET /metrics HTTP/1.1\r\nHost: localhost\r\n" + bigHeader + "\r\n\r\n", "4"},
            {"GET /../../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n", "4"},
            {"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {
                "GET /api/v1/series?metric=x&from=yesterday-ish HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "400"
            },
            {"GET /api/v1/checkpoints?job=not-a-job-id HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {"GET /api/v1/metrics?prefix=%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {"GET /api/v1/no-such-endpoint HTTP/1.1\r\nHost: localhost\r\n\r\n", "404"},
            // Overlong and invalid UTF-8: '/' and '.' spelled in two bytes, a lone continuation
            // byte, a surrogate.
            {
                "GET /%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "400"
            },
            {"GET /flink%C0%AFjobs/overview HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {"GET /api/v1/%FF HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {"GET /api/v1/overview?x=%ED%A0%80 HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {"GET /api/v1/\u00ff HTTP/1.1\r\nHost: localhost\r\n\r\n", "400"},
            {
                "OPTIONS /api/v1/overview HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n\r\n",
                "405"
            },
        };
        for (Object[] c : cases) {
            String request = (String) c[0];
            String expected = (String) c[1];
            String status = send(host, port, request);
            String what = request.length() > 60 ? request.substring(0, 60) + "..." : request;
            if (!status.equals("closed")) {
                assertThat(status).as("status for %s", what).startsWith(expected);
            }
            assertThat(
                            send(
                                    host,
                                    port,
                                    "GET /api/v1/overview HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
                    .as("a good request after %s", what)
                    .isEqualTo("200");
        }
    }

    /**
     * A client that sends one header line every 3 s never completes its request head: the server
     * cuts it within the default request-head deadline (10 s), well before 30 s, and answers others
     * meanwhile.
     */
    static void assertSlowHeaderClientIsCut(String baseUrl) throws Exception {
        URI uri = URI.create(baseUrl);
        try (Socket slow = new Socket(uri.getHost(), uri.getPort())) {
            slow.setSoTimeout(3_000);
            OutputStream out = slow.getOutputStream();
            long started = System.nanoTime();
            boolean cut = false;
            for (int line = 0; line < 10 && !cut; line++) {
                try {
                    out.write(
                            (line == 0 ? "GET /metrics HTTP/1.1\r\n" : "X-Slow-" + line + ": y\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    cut =
                            slow.getInputStream().read()
                                    == -1; // waits up to 3 s, the pace of the header lines
                } catch (SocketTimeoutException e) {
                    cut = false;
                } catch (IOException e) {
                    cut = true;
                }
                assertThat(
                                send(
                                        uri.getHost(),
                                        uri.getPort(),
                                        "GET /metrics HTTP/1.1\r\nHost: localhost\r\n"
                                                + "Connection: close\r\n\r\n"))
                        .as("a scrape while the slow client trickles")
                        .isEqualTo("200");
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(cut).as("slow client cut off").isTrue();
            assertThat(seconds).as("seconds until the slow client was cut").isLessThan(30);
        }
    }

    /**
     * 150 idle connections from one address (127.0.0.1) take at most the per-address cap; a scrape
     * from another address (127.0.0.2, as Prometheus would come from) is still answered, and once
     * they go the address is served again.
     */
    static void assertOneAddressCannotStarveTheScrape(String baseUrl) throws Exception {
        URI uri = URI.create(baseUrl);
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 150; i++) {
                flood.add(new Socket(uri.getHost(), uri.getPort()));
            }
            try (Socket scrape = new Socket()) {
                scrape.bind(new InetSocketAddress("127.0.0.2", 0));
                scrape.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
                scrape.setSoTimeout(10_000);
                scrape.getOutputStream()
                        .write(
                                "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                                        .getBytes(StandardCharsets.US_ASCII));
                String answer =
                        new String(
                                scrape.getInputStream().readAllBytes(),
                                StandardCharsets.ISO_8859_1);
                assertThat(answer)
                        .as("scrape from 127.0.0.2 during the flood")
                        .startsWith("HTTP/1.1 200");
            }
        } finally {
            for (Socket socket : flood) {
                socket.close();
            }
        }
        String after = "closed";
        for (int attempt = 0; attempt < 50 && !after.equals("200"); attempt++) {
            after =
                    send(
                            uri.getHost(),
                            uri.getPort(),
                            "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            if (!after.equals("200")) {
                Thread.sleep(100);
            }
        }
        assertThat(after).as("127.0.0.1 served again after the flood").isEqualTo("200");
    }

    /**
     * Sends raw bytes and returns the status code, or "closed" when the server closed without an
     * answer.
     */
    private static String send(String host, int port, String request) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                return "closed"; // The server may close while a too-large request is still being
                // written.
            }
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int b;
            try {
                while ((b = in.read()) != -1 && b != '\n' && line.length() < 200) {
                    line.append((char) b);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError(
                        "no answer within 10 s to "
                                + request.substring(0, Math.min(60, request.length())));
            } catch (IOException e) {
                return "closed";
            }
            String[] parts = line.toString().trim().split(" ");
            return parts.length >= 2 ? parts[1] : "closed";
        }
    }
}
