package io.flinkinsight.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

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
            {"DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "405"},
            {"POST /api/v1/overview HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", "405"},
            {"GET " + longPath + " HTTP/1.1\r\nHost: x\r\n\r\n", "4"},
            {"GET /metrics HTTP/1.1\r\nHost: x\r\n" + bigHeader + "\r\n\r\n", "4"},
            {"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "4"},
            {"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
            {"GET /api/v1/series?metric=x&from=yesterday-ish HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
            {"GET /api/v1/checkpoints?job=not-a-job-id HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
            {"GET /api/v1/metrics?prefix=%zz HTTP/1.1\r\nHost: x\r\n\r\n", "400"},
            {"GET /api/v1/no-such-endpoint HTTP/1.1\r\nHost: x\r\n\r\n", "404"},
        };
        for (Object[] c : cases) {
            String request = (String) c[0];
            String expected = (String) c[1];
            String status = send(host, port, request);
            String what = request.length() > 60 ? request.substring(0, 60) + "..." : request;
            if (!status.equals("closed")) {
                assertThat(status).as("status for %s", what).startsWith(expected);
            }
            assertThat(send(host, port, "GET /api/v1/overview HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                    .as("a good request after %s", what).isEqualTo("200");
        }
    }

    /** Sends raw bytes and returns the status code, or "closed" when the server closed without an answer. */
    private static String send(String host, int port, String request) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                return "closed"; // The server may close while a too-large request is still being written.
            }
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int b;
            try {
                while ((b = in.read()) != -1 && b != '\n' && line.length() < 200) {
                    line.append((char) b);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("no answer within 10 s to " + request.substring(0, Math.min(60, request.length())));
            } catch (IOException e) {
                return "closed";
            }
            String[] parts = line.toString().trim().split(" ");
            return parts.length >= 2 ? parts[1] : "closed";
        }
    }
}
