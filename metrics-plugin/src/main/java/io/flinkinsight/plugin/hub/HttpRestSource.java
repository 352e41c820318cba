package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.http.LimitedBodySubscriber;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * {@link RestSource} over {@link HttpClient}, with connect and request timeouts so a poll can never
 * hang. The client's default executor uses daemon threads, so it never keeps a Flink process alive.
 */
final class HttpRestSource implements RestSource {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Larger bodies are refused, before they are read whole: the hub asks for small documents, a
     * huge one means something is wrong.
     */
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient client;
    private final Duration requestTimeout;
    private final HttpResponse.BodyHandler<byte[]> bodyHandler;

    HttpRestSource(String baseUrl) {
        this(baseUrl, null);
    }

    /**
     * @param tls for an {@code https} URL, or null for the JDK's defaults
     */
    HttpRestSource(String baseUrl, SSLContext tls) {
        this(baseUrl, newClient(CONNECT_TIMEOUT, tls), REQUEST_TIMEOUT, MAX_BODY_BYTES);
    }

    /** A source on a shared client (each {@link HttpClient} has a selector thread of its own). */
    HttpRestSource(String baseUrl, HttpClient client, Duration requestTimeout, int maxBodyBytes) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.client = client;
        this.requestTimeout = requestTimeout;
        this.bodyHandler = LimitedBodySubscriber.handler(maxBodyBytes);
    }

    /**
     * A client that never follows redirects and gives up connecting after {@code connectTimeout},
     * with {@code tls} for {@code https} (null: the JDK's default context).
     */
    static HttpClient newClient(Duration connectTimeout, SSLContext tls) {
        HttpClient.Builder builder =
                HttpClient.newBuilder()
                        .connectTimeout(connectTimeout)
                        .followRedirects(HttpClient.Redirect.NEVER);
        if (tls != null) {
            builder.sslContext(tls);
        }
        return builder.build();
    }

    String baseUrl() {
        return baseUrl;
    }

    @Override
    public JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
        return parse(pathAndQuery, client.send(request(pathAndQuery), bodyHandler));
    }

    /**
     * Like {@link #get}, without waiting: the future fails with the {@link IOException} {@code get}
     * would throw.
     */
    CompletableFuture<JsonNode> getAsync(String pathAndQuery) {
        return client.sendAsync(request(pathAndQuery), bodyHandler)
                .thenApply(
                        response -> {
                            try {
                                return parse(pathAndQuery, response);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
    }

    private HttpRequest request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery))
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .GET()
                .build();
    }

    private static JsonNode parse(String pathAndQuery, HttpResponse<byte[]> response)
            throws IOException {
        if (response.statusCode() / 100 != 2) {
            throw new RestStatusException(pathAndQuery, response.statusCode());
        }
        return MAPPER.readTree(response.body());
    }
}
