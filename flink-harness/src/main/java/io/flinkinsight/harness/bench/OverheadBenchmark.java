package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.JvmOptions;
import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.Role;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The per-record cost of the plugin: the chained-maps job ({@code
 * io.flinkinsight.workloads.ChainedMapsJob}, CPU-bound, one task) on a real cluster with the plugin
 * (and a 1 Hz scraper on the JobManager's and TaskManager's {@code /metrics}) and without it:
 * interleaved rounds, a fresh cluster per run, a warm-up job before each measured one, throughput =
 * records / task time; prints and writes a Markdown table with the ratio of medians.
 */
public final class OverheadBenchmark {

    static final String JOB_CLASS = "io.flinkinsight.workloads.ChainedMapsJob";
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);

    private final BenchOptions options;

    OverheadBenchmark(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        OverheadReport report = new OverheadBenchmark(options).run();
        String markdown = report.markdown();
        System.out.println();
        System.out.println(markdown);
        Files.createDirectories(options.output().toAbsolutePath().getParent());
        Files.writeString(options.output(), markdown, StandardCharsets.UTF_8);
        System.out.println("Written to " + options.output());
    }

    OverheadReport run() {
        List<BenchRun> runs = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            // ABBA order: neither condition always runs first, so a drift in machine load hits both
            // alike.
            boolean pluginFirst = round % 2 == 1;
            for (boolean withPlugin : new boolean[] {pluginFirst, !pluginFirst}) {
                BenchRun run = runOnce(round, withPlugin);
                System.out.printf(
                        Locale.ROOT,
                        "round %d, %s: %.3f M records/s (task %.2f s)%n",
                        round,
                        run.condition(),
                        run.throughput() / 1e6,
                        run.taskMillis() / 1000.0);
                runs.add(run);
            }
        }
        return new OverheadReport(runs, machine(), setup());
    }

    private BenchRun runOnce(int round, boolean withPlugin) {
        Path work =
                options.workDir()
                        .resolve("round-" + round + (withPlugin ? "-plugin" : "-baseline"));
        try (LocalFlinkCluster cluster =
                LocalFlinkCluster.builder()
                        .workDir(work)
                        .pluginJar(withPlugin ? options.pluginJar() : null)
                        .taskManagers(1)
                        .slotsPerTaskManager(1)
                        .start()) {
            String jarId = cluster.uploadJar(options.workloadJar());
            MetricsScraper scraper = null;
            if (withPlugin && options.scrape()) {
                scraper =
                        new MetricsScraper(
                                        cluster.http(),
                                        List.of(
                                                cluster.insightUrl(Role.JOBMANAGER) + "/metrics",
                                                cluster.insightUrl(Role.TASKMANAGER) + "/metrics"),
                                        Duration.ofSeconds(1))
                                .start();
            }
            try {
                // The warm-up lets the TaskManager's JIT compile the chain before the measured run.
                runJob(cluster, jarId, options.warmupRecords(), "warmup");
                long scrapesBefore = scraper == null ? 0 : scraper.scrapes();
                long failuresBefore = scraper == null ? 0 : scraper.failures();
                JsonNode job = runJob(cluster, jarId, options.records(), "measured");
                // Task time is only the records' time if everything chained into one task.
                if (job.path("vertices").size() != 1) {
                    throw new IllegalStateException(
                            "Expected the job to chain into 1 task, got "
                                    + job.path("vertices").size()
                                    + " vertices: "
                                    + job.path("vertices"));
                }
                long taskMillis = job.path("vertices").get(0).path("duration").asLong();
                return new BenchRun(
                        round,
                        withPlugin,
                        scraper != null,
                        options.records(),
                        taskMillis,
                        job.path("duration").asLong(),
                        scraper == null ? 0 : scraper.scrapes() - scrapesBefore,
                        scraper == null ? 0 : scraper.failures() - failuresBefore,
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            } finally {
                if (scraper != null) {
                    scraper.close();
                }
            }
        }
    }

    private static JsonNode runJob(
            LocalFlinkCluster cluster, String jarId, long records, String label) {
        String jobId =
                cluster.runJar(
                        jarId, JOB_CLASS, List.of(Long.toString(records), "chained-maps-" + label));
        return cluster.awaitJobState(jobId, "FINISHED", JOB_TIMEOUT);
    }

    private String setup() {
        return String.format(
                Locale.ROOT,
                "Job: `fromSequence(1, %,d)` -> %d chained `map(x -> x)` -> discarding"
                        + " sink, parallelism 1, object reuse (`workloads` module, `%s`). Each run on a fresh cluster"
                        + " (1 JobManager, 1 TaskManager with 1 slot, separate JVMs on 127.0.0.1), after a warm-up"
                        + " job of %,d records; %d rounds, the order of the two conditions alternating (ABBA)."
                        + " Throughput = records / task time (the single chained task's duration from REST"
                        + " `/jobs/:id`). %s",
                options.records(),
                10,
                JOB_CLASS,
                options.warmupRecords(),
                options.rounds(),
                options.scrape()
                        ? "With the plugin, a scraper fetches `/metrics` of the JobManager and the TaskManager every"
                                + " second during the runs."
                        : "With the plugin, nothing scrapes it (`--scrape false`): the plugin's own cost.");
    }

    /** What {@code nproc} and {@code java -version} say, plus the OS. */
    static String machine() {
        String cores =
                command(List.of("nproc")).orElse(Runtime.getRuntime().availableProcessors() + "");
        String java =
                command(List.of(JvmOptions.javaExecutable(), "-version"))
                        .orElse(
                                System.getProperty("java.vm.name")
                                        + " "
                                        + System.getProperty("java.runtime.version"));
        return "`nproc` = "
                + cores.trim()
                + "; `java -version`: "
                + String.join(" / ", java.trim().lines().toList())
                + "; "
                + System.getProperty("os.name")
                + " "
                + System.getProperty("os.version")
                + " "
                + System.getProperty("os.arch");
    }

    private static java.util.Optional<String> command(List<String> cmd) {
        try {
            Process process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0) {
                return java.util.Optional.of(output);
            }
            process.destroyForcibly();
            return java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }
}
