package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.FlinkDistribution;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.PrometheusServer;
import io.flinkinsight.harness.Role;
import io.flinkinsight.harness.SqlSession;
import io.flinkinsight.harness.demo.DemoWorkload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * History on disk: a cluster with the plugin writing its stores to a local {@code stores.dir}
 * (JobManager, N TaskManagers, SQL Gateway on the stock {@code remote} executor), the demo's
 * checkpointing RocksDB job and a short query every few seconds, and a real Prometheus (Debian's
 * package) scraping the JobManager's {@code /metrics} at the same interval as the hub's {@code
 * history.resolution} (5 s), keeping only the {@code flink_jobmanager_*} series — the series the
 * JobManager samples into its own history. After {@code --minutes}: the bytes written to the
 * directory per hour ({@code flink_insight_stores_dir_written_bytes_total}), the CPU time of the
 * writer thread ({@value #WRITER_THREAD}, from {@code jcmd Thread.print}) per hour and as a share
 * of the JobManager's ({@code /proc/<pid>/stat}), the bytes per sample of those series in the
 * directory's files, and Prometheus's on the same series: a snapshot of its TSDB (admin API, head
 * included) gives a block whose {@code meta.json} counts the samples and chunks, beside its head
 * figures and the sizes of {@code chunks_head/} and {@code wal/}.
 *
 * <p>Arguments: {@code --plugin-jar <jar> [--minutes 60] [--task-managers 3] [--query-every-seconds
 * 10] (0: none) [--write-interval <duration>] (the plugin's default when absent) [--work-dir dir]
 * [--output file.md]}.
 */
public final class StoresDirBenchmark {

    static final String WRITER_THREAD = "flink-insight-stores-dir";
    static final String PREFIX = "flink_jobmanager_";
    private static final Duration RESOLUTION = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Path pluginJar;
    private int minutes = 60;
    private int taskManagers = 3;
    private int queryEverySeconds = 10;
    private String writeInterval;
    private Path workDir = Path.of("flink-harness", "target", "bench-stores-dir");
    private Path output = Path.of("flink-harness", "target", "bench-stores-dir.md");

    /** The figures read at the start and the end of the measured time. */
    record Point(
            long nanos,
            double writtenBytes,
            double dirBytes,
            double failures,
            double writerCpuMillis,
            double jobManagerCpuMillis) {}

    public static void main(String[] args) throws Exception {
        StoresDirBenchmark bench = new StoresDirBenchmark();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--plugin-jar" -> bench.pluginJar = Path.of(value);
                case "--minutes" -> bench.minutes = Integer.parseInt(value);
                case "--task-managers" -> bench.taskManagers = Integer.parseInt(value);
                case "--query-every-seconds" -> bench.queryEverySeconds = Integer.parseInt(value);
                case "--write-interval" -> bench.writeInterval = value;
                case "--work-dir" -> bench.workDir = Path.of(value);
                case "--output" -> bench.output = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (bench.pluginJar == null || !Files.isRegularFile(bench.pluginJar)) {
            throw new IllegalArgumentException(
                    "--plugin-jar <built metrics-plugin jar> is required");
        }
        if (bench.minutes <= 0 || bench.taskManagers <= 0 || bench.queryEverySeconds < 0) {
            throw new IllegalArgumentException("--minutes and --task-managers must be positive");
        }
        bench.workDir = bench.workDir.toAbsolutePath();
        String report = bench.run();
        System.out.println();
        System.out.println(report);
        Files.createDirectories(bench.output.toAbsolutePath().getParent());
        Files.writeString(bench.output, report);
        System.out.println("written to " + bench.output);
    }

    private String run() throws Exception {
        deleteRecursively(workDir);
        Path storesDir = workDir.resolve("stores");
        Files.createDirectories(storesDir);
        var builder =
                LocalFlinkCluster.builder()
                        .workDir(workDir.resolve("cluster"))
                        .pluginJar(pluginJar)
                        .sqlGateway(true)
                        .taskManagers(taskManagers)
                        .slotsPerTaskManager(2)
                        .config(ProductionShapeBenchmark.FLINK_ARCHIVES)
                        .config("metrics.reporter.insight.stores.dir", storesDir.toUri().toString())
                        .config(
                                "metrics.reporter.insight.history.resolution",
                                RESOLUTION.toSeconds() + " s");
        if (writeInterval != null) {
            builder.config("metrics.reporter.insight.stores.dir.write-interval", writeInterval);
        }
        try (LocalFlinkCluster cluster = builder.start()) {
            String target = cluster.insightUrl(Role.JOBMANAGER).replaceFirst("^https?://", "");
            Path promDir = workDir.resolve("prometheus");
            Files.createDirectories(promDir);
            try (PrometheusServer prometheus =
                            PrometheusServer.start(
                                    promDir,
                                    Map.of("flink", List.of(target)),
                                    null,
                                    RESOLUTION,
                                    PREFIX + ".*",
                                    true);
                    SqlSession streaming = cluster.sqlSession()) {
                String job =
                        DemoWorkload.startStreamingJob(cluster, streaming, Duration.ofMinutes(2));
                System.out.println("Checkpointing job " + job + " running.");
                return measure(cluster, prometheus, storesDir, promDir.resolve("data"));
            }
        }
    }

    private String measure(
            LocalFlinkCluster cluster, PrometheusServer prometheus, Path storesDir, Path promData)
            throws Exception {
        long pid = cluster.process(Role.JOBMANAGER).pid();
        AtomicBoolean querying = new AtomicBoolean(queryEverySeconds > 0);
        AtomicInteger queries = new AtomicInteger();
        AtomicInteger queryFailures = new AtomicInteger();
        Thread queryThread =
                new Thread(
                        () -> runQueries(cluster, querying, queries, queryFailures),
                        "short-queries");
        queryThread.setDaemon(true);
        queryThread.start();
        Point start = point(cluster, prometheus, pid);
        Instant startedAt = Instant.now();
        long end = start.nanos() + TimeUnit.MINUTES.toNanos(minutes);
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(60_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            double written = metric(cluster, "flink_insight_stores_dir_written_bytes_total");
            System.out.printf(
                    Locale.ROOT,
                    "  %.1f min: %.0f bytes written, %.0f in the directory, %d queries (%d failed)%n",
                    (System.nanoTime() - start.nanos()) / 60e9,
                    written,
                    metric(cluster, "flink_insight_stores_dir_bytes"),
                    queries.get(),
                    queryFailures.get());
        }
        Point stop = point(cluster, prometheus, pid);
        querying.set(false);
        queryThread.join(60_000);
        StoreFileStats.Stats files = StoreFileStats.read(storesDir, k -> k.startsWith(PREFIX));
        Set<String> promSeries = prometheusSeries(prometheus);
        StoreFileStats.Stats same = StoreFileStats.read(storesDir, promSeries::contains);
        long seconds = (long) Math.ceil((stop.nanos() - start.nanos()) / 1e9);
        Head head =
                new Head(
                        promFigure(prometheus, "prometheus_tsdb_head_series"),
                        promFigure(prometheus, "prometheus_tsdb_head_chunks"),
                        scalar(
                                prometheus.query(
                                        "sum(sum_over_time(scrape_samples_post_metric_relabeling["
                                                + seconds
                                                + "s])) + 5 * sum(count_over_time(up["
                                                + seconds
                                                + "s]))")),
                        directoryBytes(promData.resolve("chunks_head")),
                        directoryBytes(promData.resolve("wal")));
        Snapshot all = snapshot(prometheus, promData);
        post(
                prometheus,
                "/api/v1/admin/tsdb/delete_series?match%5B%5D="
                        + URLEncoder.encode(
                                "{__name__=~\"up|scrape_.*\"}", StandardCharsets.UTF_8));
        Snapshot jobManagerOnly = snapshot(prometheus, promData);
        return report(
                startedAt,
                start,
                stop,
                queries.get(),
                queryFailures.get(),
                files,
                same,
                promSeries.size(),
                head,
                all,
                jobManagerOnly);
    }

    private void runQueries(
            LocalFlinkCluster cluster,
            AtomicBoolean running,
            AtomicInteger done,
            AtomicInteger failed) {
        if (!running.get()) {
            return;
        }
        List<String> sql = DemoWorkload.shortQueries();
        try (SqlSession session = cluster.sqlSession()) {
            DemoWorkload.prepareShortQueries(session);
            long next = System.nanoTime();
            while (running.get()) {
                try {
                    if (session.query(sql.get(done.get() % sql.size())).size() != 1) {
                        failed.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                }
                done.incrementAndGet();
                next += TimeUnit.SECONDS.toNanos(queryEverySeconds);
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            System.err.println("short queries stopped: " + e);
        }
    }

    private Point point(LocalFlinkCluster cluster, PrometheusServer prometheus, long pid)
            throws Exception {
        return new Point(
                System.nanoTime(),
                metric(cluster, "flink_insight_stores_dir_written_bytes_total"),
                metric(cluster, "flink_insight_stores_dir_bytes"),
                metric(cluster, "flink_insight_stores_dir_failures_total"),
                threadCpuMillis(pid, WRITER_THREAD),
                processCpuMillis(pid));
    }

    /** A figure of the JobManager's {@code /metrics}, summed over its label sets. */
    private static double metric(LocalFlinkCluster cluster, String name) {
        return sumOf(cluster.insightGet(Role.JOBMANAGER, "/metrics"), name);
    }

    private static double promFigure(PrometheusServer prometheus, String name) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(prometheus.url() + "/metrics"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return sumOf(response.body(), name);
    }

    /**
     * The sum of the samples of {@code name} in a Prometheus text body, over its label sets; NaN
     * when it has none.
     */
    static double sumOf(String body, String name) {
        double sum = 0;
        boolean found = false;
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                String rest =
                        line.charAt(name.length()) == '{'
                                ? line.substring(line.lastIndexOf('}') + 1)
                                : line.substring(name.length());
                sum += Double.parseDouble(rest.trim().split(" ")[0]);
                found = true;
            }
        }
        return found ? sum : Double.NaN;
    }

    private static final Pattern THREAD_LINE =
            Pattern.compile("^\"(?<name>[^\"]*)\" .*?\\bcpu=(?<cpu>[0-9.]+)ms", Pattern.MULTILINE);

    /** A thread's CPU time (user and system) from {@code jcmd <pid> Thread.print}; 0 if absent. */
    static double threadCpuMillis(long pid, String thread) throws Exception {
        Process p =
                new ProcessBuilder(jcmd(), Long.toString(pid), "Thread.print")
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " Thread.print failed: " + out);
        }
        return threadCpuMillis(out, thread);
    }

    static double threadCpuMillis(String threadDump, String thread) {
        Matcher m = THREAD_LINE.matcher(threadDump);
        double sum = 0;
        while (m.find()) {
            if (m.group("name").equals(thread)) {
                sum += Double.parseDouble(m.group("cpu"));
            }
        }
        return sum;
    }

    private static String jcmd() {
        Path sibling = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        return Files.isExecutable(sibling) ? sibling.toString() : "jcmd";
    }

    /** The process's user and system CPU time from {@code /proc/<pid>/stat}. */
    static double processCpuMillis(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // after the name: state is field 3, utime field 14, stime field 15 (1-based)
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * 1000.0 / clockTicks();
    }

    private static long clockTicks() throws Exception {
        Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(10, TimeUnit.SECONDS);
        return out.matches("\\d+") ? Long.parseLong(out) : 100;
    }

    /** A Prometheus TSDB snapshot with its head: the blocks' counts and sizes. */
    record Snapshot(
            int blocks,
            long series,
            long samples,
            long chunks,
            long chunkBytes,
            long indexBytes,
            long minTime,
            long maxTime) {}

    /**
     * The {@code flink_jobmanager_*} series Prometheus stored, keyed as {@link StoreFileStats} keys
     * ours: without the {@code instance} and {@code job} labels Prometheus adds.
     */
    private static Set<String> prometheusSeries(PrometheusServer prometheus) {
        Set<String> keys = new HashSet<>();
        JsonNode series =
                prometheus.api(
                        "/api/v1/series?start=0&match%5B%5D="
                                + URLEncoder.encode(
                                        "{__name__=~\"" + PREFIX + ".*\"}",
                                        StandardCharsets.UTF_8));
        for (JsonNode labels : series) {
            Map<String, String> map = new TreeMap<>();
            labels.fields()
                    .forEachRemaining(
                            e -> {
                                if (!e.getKey().equals("instance")
                                        && !e.getKey().equals("job")
                                        && !e.getKey().equals("__name__")) {
                                    map.put(e.getKey(), e.getValue().asText());
                                }
                            });
            keys.add(StoreFileStats.key(labels.path("__name__").asText(), map));
        }
        return keys;
    }

    /** Prometheus's head at the end. */
    record Head(
            double series,
            double chunks,
            double samplesInRun,
            long chunksHeadBytes,
            long walBytes) {}

    private static double scalar(JsonNode result) {
        return result.isEmpty() ? Double.NaN : result.get(0).path("value").path(1).asDouble();
    }

    private static JsonNode post(PrometheusServer prometheus, String pathAndQuery)
            throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(prometheus.url() + pathAndQuery))
                                .timeout(Duration.ofSeconds(120))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(
                    "Prometheus " + pathAndQuery + " answered " + response.body());
        }
        return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
    }

    private static Snapshot snapshot(PrometheusServer prometheus, Path data) throws Exception {
        JsonNode body = post(prometheus, "/api/v1/admin/tsdb/snapshot");
        String name = body.path("data").path("name").asText();
        if (name.isEmpty()) {
            throw new IllegalStateException("Prometheus snapshot failed: " + body);
        }
        Path dir = data.resolve("snapshots").resolve(name);
        int blocks = 0;
        long series = 0;
        long samples = 0;
        long chunks = 0;
        long chunkBytes = 0;
        long indexBytes = 0;
        long minTime = Long.MAX_VALUE;
        long maxTime = Long.MIN_VALUE;
        try (Stream<Path> list = Files.list(dir)) {
            for (Path block : list.toList()) {
                Path meta = block.resolve("meta.json");
                if (!Files.isRegularFile(meta)) {
                    continue;
                }
                JsonNode m = JSON.readTree(meta.toFile());
                blocks++;
                series += m.path("stats").path("numSeries").asLong();
                samples += m.path("stats").path("numSamples").asLong();
                chunks += m.path("stats").path("numChunks").asLong();
                minTime = Math.min(minTime, m.path("minTime").asLong());
                maxTime = Math.max(maxTime, m.path("maxTime").asLong());
                chunkBytes += directoryBytes(block.resolve("chunks"));
                indexBytes += Files.size(block.resolve("index"));
            }
        }
        return new Snapshot(
                blocks, series, samples, chunks, chunkBytes, indexBytes, minTime, maxTime);
    }

    static long directoryBytes(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            long sum = 0;
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.delete(f);
            }
        }
    }

    private String report(
            Instant startedAt,
            Point start,
            Point stop,
            int queries,
            int queryFailures,
            StoreFileStats.Stats files,
            StoreFileStats.Stats same,
            int promSeries,
            Head head,
            Snapshot all,
            Snapshot jobManagerOnly) {
        double seconds = (stop.nanos() - start.nanos()) / 1e9;
        double perHour = 3600 / seconds;
        double written = stop.writtenBytes() - start.writtenBytes();
        double writerCpu = stop.writerCpuMillis() - start.writerCpuMillis();
        double jmCpu = stop.jobManagerCpuMillis() - start.jobManagerCpuMillis();
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%s (started %s), Flink %s. %s. A cluster on 127.0.0.1 (JobManager, %d TaskManagers"
                                + " of 2 slots, SQL Gateway on the stock `remote` executor) with the plugin,"
                                + " `stores.dir` a local directory, `history.resolution` %d s,"
                                + " `stores.dir.write-interval` %s; the demo's checkpointing RocksDB job (2 s"
                                + " checkpoints) and %s; a real Prometheus (`%s`) scraping the JobManager's"
                                + " `/metrics` every %d s, keeping only `%s*` (plus its own `up` and 4"
                                + " `scrape_*` series). Measured over %.1f min from the streaming job's start;"
                                + " *per hour* figures are that rate times %.2f, not an hour's run.%n%n",
                        LocalDate.now(),
                        startedAt,
                        FlinkDistribution.PRIMARY_VERSION,
                        OverheadBenchmark.machine(),
                        taskManagers,
                        RESOLUTION.toSeconds(),
                        writeInterval == null ? "the default (1 min)" : "`" + writeInterval + "`",
                        queryEverySeconds == 0
                                ? "no short queries"
                                : String.format(
                                        Locale.ROOT,
                                        "a short query every %d s through the gateway (%d run, %d failed)",
                                        queryEverySeconds,
                                        queries,
                                        queryFailures),
                        PrometheusServer.version(),
                        RESOLUTION.toSeconds(),
                        PREFIX,
                        seconds / 60,
                        perHour));
        out.append("**Writing** (the JobManager's self-metrics; CPU times of its threads)\n\n");
        out.append("| figure | over the run | per hour |\n|---|---:|---:|\n");
        row(
                out,
                "bytes written (`flink_insight_stores_dir_written_bytes_total`)",
                written,
                perHour);
        out.append(
                String.format(
                        Locale.ROOT,
                        "| bytes in the directory at the end (`flink_insight_stores_dir_bytes`) | %,.0f | |%n",
                        stop.dirBytes()));
        out.append(
                String.format(
                        Locale.ROOT,
                        "| write failures (`flink_insight_stores_dir_failures_total`) | %.0f | |%n",
                        stop.failures() - start.failures()));
        row(out, "CPU ms of the writer thread `" + WRITER_THREAD + "`", writerCpu, perHour);
        row(out, "CPU ms of the JobManager process", jmCpu, perHour);
        out.append(
                String.format(
                        Locale.ROOT,
                        "| writer's share of the JobManager's CPU | %.2f %% | |%n%n",
                        100 * writerCpu / jmCpu));
        out.append(
                String.format(
                        Locale.ROOT,
                        "The directory at the end (%d segments and the newest tail, read before the"
                                + " cluster stopped): %,d bytes, of which the tail %,d; checkpoints and jobs"
                                + " as JSON %,d bytes; chunk records of all series %,d bytes (%d series, %,d"
                                + " samples, %.2f B/sample).%n%n",
                        files.segmentFiles(),
                        files.fileBytes(),
                        files.tailBytes(),
                        files.jsonRecordBytes(),
                        files.all().recordBytes,
                        files.all().series.size(),
                        files.all().samples,
                        files.all().recordPerSample()));
        out.append(
                "**Bytes per sample on disk.** Ours: the chunk records of the directory's segments"
                        + " and newest tail; *payload* the Gorilla words (8 bytes each, holding the"
                        + " chunk's first timestamp and value too), *with keys* the whole records (the"
                        + " key strings, count, first and last timestamp, word count and words)."
                        + " Prometheus: a snapshot of its TSDB with the head at the end (one block);"
                        + " *payload* its `chunks/` files, *with keys* adds the block's `index` (series,"
                        + " label strings, postings); once with everything it stored, once after"
                        + " deleting its own `up` and `scrape_*` series (admin API) before the"
                        + " snapshot.\n\n");
        out.append(
                "| store | series | samples | chunks | samples/chunk | span (min) | payload (bytes) |"
                        + " B/sample | with keys (bytes) | B/sample |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        ours(out, "Insight, `" + PREFIX + "*`", files.matching());
        ours(
                out,
                "Insight, the series Prometheus stored too (of its "
                        + promSeries
                        + " `"
                        + PREFIX
                        + "*`)",
                same.matching());
        theirs(out, "Prometheus, all it stored", all);
        theirs(out, "Prometheus, without `up` and `scrape_*`", jobManagerOnly);
        out.append(
                String.format(
                        Locale.ROOT,
                        "%nPrometheus's head at the end: %.0f series, %.0f chunks; samples over the"
                                + " measured time (`scrape_samples_post_metric_relabeling` summed, plus 5 per scrape) %,.0f (%,.0f per hour); directory"
                                + " sizes `chunks_head/` (full chunks, memory-mapped) %,d bytes, `wal/` %,d"
                                + " bytes.%n",
                        head.series(),
                        head.chunks(),
                        head.samplesInRun(),
                        head.samplesInRun() * perHour,
                        head.chunksHeadBytes(),
                        head.walBytes()));
        return out.toString();
    }

    private static void ours(StringBuilder out, String title, StoreFileStats.Sums s) {
        out.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %d | %,d | %,d | %.1f | %.1f | %,d | %.2f | %,d | %.2f |%n",
                        title,
                        s.series.size(),
                        s.samples,
                        s.chunks,
                        s.samplesPerChunk(),
                        (s.lastTimestamp - s.firstTimestamp) / 60e3,
                        s.payloadBytes,
                        s.payloadPerSample(),
                        s.recordBytes,
                        s.recordPerSample()));
    }

    private static void theirs(StringBuilder out, String title, Snapshot s) {
        out.append(
                String.format(
                        Locale.ROOT,
                        "| %s (%d block) | %d | %,d | %,d | %.1f | %.1f | %,d | %.2f | %,d | %.2f |%n",
                        title,
                        s.blocks(),
                        s.series(),
                        s.samples(),
                        s.chunks(),
                        (double) s.samples() / s.chunks(),
                        (s.maxTime() - s.minTime()) / 60e3,
                        s.chunkBytes(),
                        (double) s.chunkBytes() / s.samples(),
                        s.chunkBytes() + s.indexBytes(),
                        (double) (s.chunkBytes() + s.indexBytes()) / s.samples()));
    }

    private static void row(StringBuilder out, String figure, double value, double perHour) {
        out.append(
                String.format(
                        Locale.ROOT, "| %s | %,.0f | %,.0f |%n", figure, value, value * perHour));
    }
}
