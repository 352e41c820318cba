package io.flinkinsight.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's package {@code prometheus}, which {@code scripts/test.sh}
 * installs) on loopback, scraping the given targets every second, with alerting rules loaded if
 * given; stopped by its PID. Used by the ecosystem tests and the series-churn benchmark.
 */
public final class PrometheusServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final String url;
    private final Path log;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, String url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    /**
     * Starts Prometheus in {@code workDir} with one scrape job per entry of {@code targetsByJob}
     * (host:port lists) and the rule file {@code rules}, or none when it is null.
     */
    public static PrometheusServer start(
            Path workDir, Map<String, List<String>> targetsByJob, Path rules) throws IOException {
        return start(workDir, targetsByJob, rules, Duration.ofSeconds(1), null, false);
    }

    /**
     * Starts Prometheus as {@link #start(Path, Map, Path)} does, scraping every {@code
     * scrapeInterval}, keeping only the scraped series whose name matches {@code keepNames} (a
     * {@code metric_relabel_configs} keep on {@code __name__}; all when null; Prometheus's own
     * {@code up} and {@code scrape_*} series are kept anyway) and with the admin API (snapshots)
     * when {@code adminApi}.
     */
    public static PrometheusServer start(
            Path workDir,
            Map<String, List<String>> targetsByJob,
            Path rules,
            Duration scrapeInterval,
            String keepNames,
            boolean adminApi)
            throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        StringBuilder config =
                new StringBuilder()
                        .append("global:\n  scrape_interval: ")
                        .append(scrapeInterval.toMillis())
                        .append("ms\n  evaluation_interval: ")
                        .append(scrapeInterval.toMillis())
                        .append("ms\n");
        if (rules != null) {
            config.append("rule_files:\n  - ").append(rules.toAbsolutePath()).append('\n');
        }
        config.append("scrape_configs:\n");
        targetsByJob.forEach(
                (job, targets) -> {
                    config.append("  - job_name: ")
                            .append(job)
                            .append("\n    static_configs:\n      - targets: [");
                    config.append(
                                    String.join(
                                            ", ",
                                            targets.stream().map(t -> "'" + t + "'").toList()))
                            .append("]\n");
                    if (keepNames != null) {
                        config.append(
                                        "    metric_relabel_configs:\n"
                                                + "      - source_labels: [__name__]\n"
                                                + "        regex: '")
                                .append(keepNames)
                                .append("'\n        action: keep\n");
                    }
                });
        Path configFile = workDir.resolve("prometheus.yml");
        Files.writeString(configFile, config);
        Path log = workDir.resolve("prometheus.log");
        List<String> command =
                new ArrayList<>(
                        List.of(
                                System.getProperty("insight.prometheus", "prometheus"),
                                "--config.file=" + configFile,
                                "--storage.tsdb.path=" + workDir.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port,
                                "--storage.tsdb.retention.time=1h"));
        if (adminApi) {
            command.add("--web.enable-admin-api");
        }
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the prometheus server is not installed (Debian's package 'prometheus': "
                            + "apt-get install prometheus, or run scripts/test.sh, which installs it): "
                            + e.getMessage(),
                    e);
        }
        PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port, log);
        Waits.until(
                "Prometheus ready on " + server.url,
                Duration.ofSeconds(60),
                Duration.ofMillis(500),
                () -> {
                    if (!process.isAlive()) {
                        throw new Waits.AbortException("prometheus exited:\n" + server.logTail());
                    }
                    return server.ready() ? Optional.of(true) : Optional.empty();
                },
                server::logTail);
        return server;
    }

    /** Its base URL, {@code http://127.0.0.1:<port>}. */
    public String url() {
        return url;
    }

    private boolean ready() {
        try {
            return http.send(
                                    HttpRequest.newBuilder(URI.create(url + "/-/ready"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The {@code data} of a successful API answer; anything else throws with Prometheus's error.
     */
    public JsonNode api(String pathAndQuery) {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url + pathAndQuery))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
                throw new IllegalStateException(
                        "Prometheus "
                                + pathAndQuery
                                + " answered "
                                + response.statusCode()
                                + ": "
                                + response.body());
            }
            return body.path("data");
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus " + pathAndQuery + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The value of one of Prometheus's own figures without labels, from its own {@code /metrics}
     * (e.g. {@code prometheus_tsdb_head_series_created_total}).
     */
    public double ownFigure(String name) {
        String body;
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url + "/metrics"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            body = response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus /metrics failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("Prometheus's /metrics has no " + name);
    }

    /** The result vector of an instant query. */
    public JsonNode query(String promQl) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promQl, StandardCharsets.UTF_8))
                .path("result");
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no prometheus log: " + e.getMessage() + ")";
        }
    }

    /** Every series of the result, one per line, for failure messages. */
    public static String describe(JsonNode result) {
        List<String> out = new ArrayList<>();
        result.forEach(r -> out.add(r.path("metric") + " " + r.path("value")));
        return String.join("\n", out);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The first line of {@code prometheus --version}, or "prometheus" when it cannot be run. */
    public static String version() {
        try {
            Process p =
                    new ProcessBuilder("prometheus", "--version").redirectErrorStream(true).start();
            String first =
                    new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("");
            p.waitFor(10, TimeUnit.SECONDS);
            return first.trim();
        } catch (Exception e) {
            return "prometheus";
        }
    }
}
