package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@link RestSource} over {@link HttpClient}, with connect and request timeouts so a poll can never hang. The
 * client's default executor uses daemon threads, so it never keeps a Flink process alive.
 */
final class HttpRestSource implements RestSource {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    /** Larger bodies are refused: the hub asks for small documents, a huge one means something is wrong. */
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient client;

    HttpRestSource(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.client = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    String baseUrl() {
        return baseUrl;
    }

    @Override
    public JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("GET " + pathAndQuery + " answered " + response.statusCode());
        }
        byte[] body = response.body();
        if (body.length > MAX_BODY_BYTES) {
            throw new IOException("GET " + pathAndQuery + " answered " + body.length + " bytes, more than allowed");
        }
        return MAPPER.readTree(body);
    }
}
