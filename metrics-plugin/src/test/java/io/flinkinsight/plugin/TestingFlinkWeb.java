package io.flinkinsight.plugin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stand-in for Flink's web server on 127.0.0.1 (JDK {@code HttpServer}): answers registered paths
 * with fixed responses and records every request it receives, so tests see exactly what the proxy
 * forwarded.
 */
public final class TestingFlinkWeb implements AutoCloseable {

    /**
     * One canned answer, sent after {@code delayMillis}; {@code chunked} announces no
     * Content-Length.
     */
    public record Answer(
            int status,
            String contentType,
            byte[] body,
            Map<String, String> headers,
            long delayMillis,
            boolean chunked) {
        public static Answer of(String contentType, String body) {
            return new Answer(
                    200, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of(), 0, false);
        }
    }

    /** What Flink received. */
    public record Received(String method, String uri, Map<String, List<String>> headers) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();

    public TestingFlinkWeb() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", this::answer);
        server.setExecutor(executor);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public TestingFlinkWeb on(String pathAndQuery, Answer answer) {
        answers.put(pathAndQuery, answer);
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String uri = exchange.getRequestURI().toString();
        received.add(
                new Received(
                        exchange.getRequestMethod(),
                        uri,
                        Map.copyOf(exchange.getRequestHeaders())));
        Answer a = answers.getOrDefault(uri, answers.get(exchange.getRequestURI().getPath()));
        if (a == null) {
            byte[] notFound =
                    ("{\"errors\":[\"Not found: " + uri + "\"]}").getBytes(StandardCharsets.UTF_8);
            a = new Answer(404, "application/json", notFound, Map.of(), 0, false);
        }
        try {
            Thread.sleep(a.delayMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.getResponseHeaders().set("Content-Type", a.contentType());
        a.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(
                a.status(),
                head ? -1 : a.chunked() ? 0 : a.body().length == 0 ? -1 : a.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(a.body());
            }
        } catch (IOException e) {
            // the proxy gave up on the body (size limit or timeout)
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
