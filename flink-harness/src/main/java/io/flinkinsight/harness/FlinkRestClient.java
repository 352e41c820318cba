package io.flinkinsight.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.SSLContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * A small HTTP client for Flink's REST API, the gateway's and the plugin's: GET text or JSON, POST
 * JSON, upload.
 */
public final class FlinkRestClient {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();

    /** A client for plain HTTP (and HTTPS with the JDK's default trust). */
    public FlinkRestClient() {
        this(null);
    }

    /**
     * A client whose HTTPS connections use {@code ssl} (e.g. {@link RestTls#clientContext()}:
     * presents the cluster's certificate and trusts it), or the JDK's default context when null.
     */
    public FlinkRestClient(SSLContext ssl) {
        this.http = httpClient(ssl);
    }

    /**
     * The HTTP/1.1 client of the harness: 5 s connect timeout, {@code ssl} for HTTPS when not null.
     */
    static HttpClient httpClient(SSLContext ssl) {
        HttpClient.Builder builder =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .version(HttpClient.Version.HTTP_1_1);
        if (ssl != null) {
            builder.sslContext(ssl);
        }
        return builder.build();
    }

    /** GET and return the body; fails on any status but 200. */
    public String getString(String url) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url)).GET());
        return expectOk(url, response);
    }

    /** GET and return the full response, whatever its status. */
    public HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET());
    }

    /** GET a JSON body. */
    public JsonNode getJson(String url) {
        return parse(url, getString(url));
    }

    /** POST a JSON body and return the JSON answer. */
    public JsonNode postJson(String url, Object body) {
        try {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Content-Type", "application/json")
                            .POST(
                                    HttpRequest.BodyPublishers.ofString(
                                            json.writeValueAsString(body)));
            return parse(url, expectOk(url, send(request)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * POST a file as {@code multipart/form-data}, the way Flink's {@code /jars/upload} expects it.
     */
    public JsonNode uploadFile(String url, String field, Path file) {
        String boundary = "----flink-insight-" + UUID.randomUUID();
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.write(
                    ("--"
                                    + boundary
                                    + "\r\nContent-Disposition: form-data; name=\""
                                    + field
                                    + "\"; filename=\""
                                    + file.getFileName()
                                    + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                            .getBytes(StandardCharsets.UTF_8));
            body.write(Files.readAllBytes(file));
            body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
            return parse(url, expectOk(url, send(request)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest built = request.timeout(REQUEST_TIMEOUT).build();
        try {
            return http.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    built.method() + " " + built.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "Interrupted: " + built.method() + " " + built.uri(), e);
        }
    }

    private static String expectOk(String url, HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    response.request().method()
                            + " "
                            + url
                            + " answered "
                            + response.statusCode()
                            + ": "
                            + response.body());
        }
        return response.body();
    }

    private JsonNode parse(String url, String body) {
        try {
            return json.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(url + " did not answer JSON: " + body, e);
        }
    }
}
