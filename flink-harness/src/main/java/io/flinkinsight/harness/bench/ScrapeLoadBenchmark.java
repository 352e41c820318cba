package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many scrapers at once against a real JobManager and TaskManager with the plugin (separate JVMs
 * from the harness, no job, so the scrapes are of the processes' own metrics): half the scrapers on
 * each process's {@code /metrics}, each scraping again as soon as it has the whole body, for a
 * fixed time. Prints per process the scrapes, the errors (any status but 200, or no answer) and the
 * latency percentiles as a Markdown table.
 *
 * <p>Arguments: {@code --plugin-jar <jar> --work-dir <dir> [--scrapers 64] [--seconds 60]}.
 */
public final class ScrapeLoadBenchmark {

    /**
     * Connections from one address the plugin accepts by default (32) would cut the 64 scrapers'
     * off.
     */
    static final String MAX_CONNECTIONS_PER_ADDRESS = "128";

    private ScrapeLoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path pluginJar = null;
        Path workDir = null;
        int scrapers = 64;
        int seconds = 60;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--plugin-jar" -> pluginJar = Path.of(args[i + 1]);
                case "--work-dir" -> workDir = Path.of(args[i + 1]);
                case "--scrapers" -> scrapers = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (pluginJar == null || workDir == null) {
            throw new IllegalArgumentException("--plugin-jar and --work-dir are required");
        }
        try (LocalFlinkCluster cluster =
                LocalFlinkCluster.builder()
                        .workDir(workDir)
                        .pluginJar(pluginJar)
                        .taskManagers(1)
                        .slotsPerTaskManager(1)
                        .config(
                                "metrics.reporter.insight.http.max-connections-per-address",
                                MAX_CONNECTIONS_PER_ADDRESS)
                        .start()) {
            Thread.sleep(5_000); // the TaskManager registered and its plugin serving
            List<Target> targets =
                    List.of(
                            new Target(
                                    "jobmanager", cluster.insightUrl(Role.JOBMANAGER) + "/metrics"),
                            new Target(
                                    "taskmanager",
                                    cluster.insightUrl(Role.TASKMANAGER) + "/metrics"));
            run(targets, scrapers, Duration.ofSeconds(seconds));
            System.out.println();
            System.out.println(
                    "Machine: "
                            + OverheadBenchmark.machine()
                            + "; load average (1 min) after: "
                            + String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    java.lang.management.ManagementFactory
                                            .getOperatingSystemMXBean()
                                            .getSystemLoadAverage()));
            System.out.println(
                    "Setup: 1 JobManager and 1 TaskManager (separate JVMs on 127.0.0.1) with the plugin,"
                            + " no job; "
                            + scrapers
                            + " scrapers (half per process) for "
                            + seconds
                            + " s, each on its own kept-alive connection, scraping again as soon as it has read the body;"
                            + " http.max-connections-per-address: "
                            + MAX_CONNECTIONS_PER_ADDRESS
                            + ", every other option at its default.");
            System.out.println();
            System.out.println(
                    "| process | scrapers | scrapes | errors | p50 (ms) | p99 (ms) | max (ms) | body (KB) |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
            for (Target t : targets) {
                long[] sorted = t.latenciesMicros();
                Arrays.sort(sorted);
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.0f |%n",
                        t.name,
                        scrapers / 2,
                        sorted.length,
                        t.errors.get(),
                        percentile(sorted, 0.50) / 1000.0,
                        percentile(sorted, 0.99) / 1000.0,
                        sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1000.0,
                        t.lastBodyBytes.get() / 1024.0);
            }
        }
    }

    /** One process's endpoint and what its scrapers measured. */
    private static final class Target {
        final String name;
        final URI uri;
        final AtomicLong errors = new AtomicLong();
        final AtomicLong lastBodyBytes = new AtomicLong();
        final List<long[]> perScraper = new ArrayList<>();

        Target(String name, String url) {
            this.name = name;
            this.uri = URI.create(url);
        }

        synchronized long[] latenciesMicros() {
            return perScraper.stream().flatMapToLong(Arrays::stream).toArray();
        }

        synchronized void add(long[] latencies) {
            perScraper.add(latencies);
        }
    }

    private static void run(List<Target> targets, int scrapers, Duration length)
            throws InterruptedException {
        long end = System.nanoTime() + length.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < scrapers; i++) {
            Target target = targets.get(i % targets.size());
            Thread t = new Thread(() -> scrapeUntil(target, end), "scraper-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(length.toMillis() + 60_000);
        }
    }

    private static void scrapeUntil(Target target, long endNanos) {
        // A client per scraper: its own kept-alive connection, as separate Prometheus servers would
        // have.
        HttpClient client =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        HttpRequest request =
                HttpRequest.newBuilder(target.uri)
                        .timeout(Duration.ofSeconds(10))
                        .header("Accept", "text/plain; version=0.0.4")
                        .GET()
                        .build();
        long[] latencies = new long[1024];
        int n = 0;
        while (System.nanoTime() < endNanos) {
            long start = System.nanoTime();
            try {
                HttpResponse<byte[]> response =
                        client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                long micros = (System.nanoTime() - start) / 1000;
                if (response.statusCode() != 200) {
                    target.errors.incrementAndGet();
                    continue;
                }
                target.lastBodyBytes.set(response.body().length);
                if (n == latencies.length) {
                    latencies = Arrays.copyOf(latencies, n * 2);
                }
                latencies[n++] = micros;
            } catch (Exception e) {
                target.errors.incrementAndGet();
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        target.add(Arrays.copyOf(latencies, n));
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }
}
