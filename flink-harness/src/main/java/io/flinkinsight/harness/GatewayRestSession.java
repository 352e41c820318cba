package io.flinkinsight.harness;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One session on the SQL Gateway through its REST API, as tools other than the JDBC driver use it:
 * open a session, submit each statement, poll its result every {@link #POLL_INTERVAL} until the end
 * of the result, close the operation. Requests ride one kept-alive HTTP/1.1 connection pool per
 * session.
 */
public final class GatewayRestSession implements GatewaySession {

    /** The wait after a result fetch that brought no rows. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(10);

    /** Longest time one statement may take before the session gives up on it. */
    private static final Duration STATEMENT_TIMEOUT = Duration.ofMinutes(2);

    private static final String API = "/v2";

    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private final String gatewayUrl;
    private final String sessionPath;

    private GatewayRestSession(HttpClient http, String gatewayUrl, String sessionHandle) {
        this.http = http;
        this.gatewayUrl = gatewayUrl;
        this.sessionPath = API + "/sessions/" + sessionHandle;
    }

    /**
     * Opens a session on the gateway at {@code gatewayUrl} (e.g. {@code http://127.0.0.1:8083}).
     */
    public static GatewayRestSession open(String gatewayUrl) {
        return open(gatewayUrl, null);
    }

    /**
     * Opens a session on the gateway at {@code gatewayUrl}, over HTTPS with {@code ssl} when the
     * gateway's REST endpoint has TLS (e.g. {@link RestTls#clientContext()}); null uses the JDK's
     * default context.
     */
    public static GatewayRestSession open(String gatewayUrl, SSLContext ssl) {
        HttpClient http = FlinkRestClient.httpClient(ssl);
        JsonNode opened =
                send(
                        http,
                        new ObjectMapper(),
                        "POST",
                        gatewayUrl + API + "/sessions",
                        Map.of("properties", Map.of()));
        return new GatewayRestSession(http, gatewayUrl, opened.path("sessionHandle").asText());
    }

    @Override
    public void execute(String sql) {
        run(sql);
    }

    @Override
    public List<List<Object>> query(String sql) {
        return run(sql);
    }

    /** Submits the statement, fetches every row of its result, closes the operation. */
    private List<List<Object>> run(String sql) {
        JsonNode submitted = post(sessionPath + "/statements", Map.of("statement", sql));
        String operationPath =
                sessionPath + "/operations/" + submitted.path("operationHandle").asText();
        List<List<Object>> rows = new ArrayList<>();
        try {
            String next = operationPath + "/result/0?rowFormat=JSON";
            long deadline = System.nanoTime() + STATEMENT_TIMEOUT.toNanos();
            while (next != null) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(
                            "No end of the result within " + STATEMENT_TIMEOUT + ": " + sql);
                }
                JsonNode page = send(http, json, "GET", gatewayUrl + next, null);
                String type = page.path("resultType").asText();
                JsonNode data = page.path("results").path("data");
                for (JsonNode row : data) {
                    List<Object> fields = new ArrayList<>();
                    row.path("fields")
                            .forEach(field -> fields.add(field.isNull() ? null : field.asText()));
                    rows.add(fields);
                }
                if ("EOS".equals(type)) {
                    break;
                }
                if (!"NOT_READY".equals(type)) {
                    JsonNode nextUri = page.path("nextResultUri");
                    next = nextUri.isMissingNode() || nextUri.isNull() ? null : nextUri.asText();
                }
                if (next != null && data.isEmpty()) {
                    sleep(POLL_INTERVAL);
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("SQL failed: " + sql + ": " + e.getMessage(), e);
        } finally {
            try {
                send(http, json, "DELETE", gatewayUrl + operationPath + "/close", null);
            } catch (RuntimeException e) {
                // the operation may already be gone with a failed statement; the session's close
                // removes it anyway
            }
        }
        return rows;
    }

    @Override
    public void close() {
        try {
            send(http, json, "DELETE", gatewayUrl + sessionPath, null);
        } catch (RuntimeException e) {
            // the gateway may be gone already
        }
    }

    private JsonNode post(String path, Object body) {
        return send(http, json, "POST", gatewayUrl + path, body);
    }

    private static JsonNode send(
            HttpClient http, ObjectMapper json, String method, String url, Object body) {
        try {
            HttpRequest.BodyPublisher publisher =
                    body == null
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body));
            HttpRequest request =
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(60))
                            .header("Content-Type", "application/json")
                            .method(method, publisher)
                            .build();
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        method
                                + " "
                                + url
                                + " answered "
                                + response.statusCode()
                                + ": "
                                + response.body());
            }
            return response.body().isEmpty()
                    ? json.createObjectNode()
                    : json.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + method + " " + url, e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while polling a result", e);
        }
    }
}
