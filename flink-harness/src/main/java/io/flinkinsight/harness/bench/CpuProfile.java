package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;
import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.ProcessCpu;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * CPU profiles of the JobManager, TaskManager and SQL Gateway over the benchmark's blocks: which
 * part of which process holds the CPU a query costs. Each block is recorded with JFR in each
 * process ({@code jcmd <pid> JFR.start settings=profile}: a stack of every thread running Java code
 * every 10 ms, {@code jdk.ExecutionSample}); the samples are sorted into named parts per process
 * ({@link #PARTS}) and counted per query, stock against interactive. JFR sees only threads running
 * Java code, so the CPU per query of each thread (by name, from {@code /proc}) goes beside it: the
 * JIT compiler, GC and native I/O too. The recordings stay in the work directory for {@code jfr
 * print} or JDK Mission Control.
 */
final class CpuProfile {

    /**
     * A named part of a process: the frames whose class name starts with one of {@code prefixes}.
     */
    record Part(String name, List<String> prefixes) {

        boolean holds(String frame) {
            return prefixes.stream().anyMatch(frame::startsWith);
        }
    }

    static final String OTHER = "other";
    private static final String SAMPLE_EVENT = "jdk.ExecutionSample";
    private static final int TOP_FRAMES = 12;
    static final int TOP_FRAMES_PER_PART = 4;
    private static final int TOP_THREADS = 8;

    /**
     * The parts of each profiled process, from the most specific work (Janino compiling an
     * operator's code, the checkpoint coordinator) to the most general (the RPC and Netty event
     * loops at the bottom of most threads): a sample belongs to the first part that holds any frame
     * of its stack ({@link #classify}).
     */
    static final Map<String, List<Part>> PARTS =
            Map.of(
                    InteractiveQueryBenchmark.JM_CPU,
                            List.of(
                                    new Part(
                                            "checkpoint coordinator",
                                            List.of("org.apache.flink.runtime.checkpoint")),
                                    new Part(
                                            "metrics",
                                            List.of(
                                                    "org.apache.flink.runtime.rest.handler.legacy.metrics",
                                                    "org.apache.flink.runtime.metrics",
                                                    "org.apache.flink.metrics",
                                                    "io.flinkinsight.plugin")),
                                    new Part(
                                            "result collection (collect sink coordinator)",
                                            List.of(
                                                    "org.apache.flink.streaming.api.operators.collect")),
                                    new Part(
                                            "job submission, JobMaster and scheduler",
                                            List.of(
                                                    "org.apache.flink.runtime.rest.handler.job.JobSubmitHandler",
                                                    "org.apache.flink.runtime.dispatcher",
                                                    "org.apache.flink.runtime.jobmaster",
                                                    "org.apache.flink.runtime.scheduler",
                                                    "org.apache.flink.runtime.executiongraph",
                                                    "org.apache.flink.runtime.jobgraph",
                                                    "org.apache.flink.streaming.api.graph",
                                                    "org.apache.flink.runtime.blob")),
                                    new Part(
                                            "resource manager and slots",
                                            List.of(
                                                    "org.apache.flink.runtime.resourcemanager",
                                                    "org.apache.flink.runtime.slots")),
                                    new Part(
                                            "REST handlers",
                                            List.of("org.apache.flink.runtime.rest")),
                                    new Part(
                                            "RPC",
                                            List.of(
                                                    "org.apache.flink.runtime.rpc",
                                                    "org.apache.pekko")),
                                    new Part(
                                            "Netty I/O",
                                            List.of("org.apache.flink.shaded.netty4"))),
                    InteractiveQueryBenchmark.TM_CPU,
                            List.of(
                                    new Part(
                                            "operator code compilation (Janino)",
                                            List.of(
                                                    "org.codehaus",
                                                    "org.apache.flink.table.runtime.generated")),
                                    new Part(
                                            "task initialisation",
                                            List.of(
                                                    "org.apache.flink.streaming.runtime.tasks.StreamTask.<init>",
                                                    "org.apache.flink.streaming.runtime.tasks.StreamTask.restore",
                                                    "org.apache.flink.runtime.taskmanager.Task.<init>",
                                                    "org.apache.flink.runtime.taskexecutor.TaskExecutor.submitTask",
                                                    "org.apache.flink.runtime.execution.librarycache",
                                                    "org.apache.flink.runtime.blob")),
                                    new Part(
                                            "running the operators",
                                            List.of(
                                                    "org.apache.flink.streaming.runtime.tasks.StreamTask.invoke",
                                                    "org.apache.flink.streaming.runtime.tasks.mailbox",
                                                    "org.apache.flink.streaming.runtime.io",
                                                    "org.apache.flink.streaming.api.operators",
                                                    "org.apache.flink.table.runtime",
                                                    "org.apache.flink.connector")),
                                    new Part(
                                            "other task lifecycle (deployment, clean-up)",
                                            List.of(
                                                    "org.apache.flink.runtime.taskexecutor",
                                                    "org.apache.flink.runtime.taskmanager",
                                                    "org.apache.flink.streaming.runtime.tasks")),
                                    new Part(
                                            "metrics",
                                            List.of(
                                                    "org.apache.flink.runtime.metrics",
                                                    "org.apache.flink.metrics",
                                                    "io.flinkinsight.plugin")),
                                    new Part(
                                            "RPC",
                                            List.of(
                                                    "org.apache.flink.runtime.rpc",
                                                    "org.apache.pekko")),
                                    new Part(
                                            "Netty I/O",
                                            List.of("org.apache.flink.shaded.netty4"))),
                    InteractiveQueryBenchmark.GATEWAY_CPU,
                            List.of(
                                    new Part(
                                            "result fetching",
                                            List.of(
                                                    "org.apache.flink.streaming.api.operators.collect",
                                                    "org.apache.flink.table.gateway.service.result")),
                                    new Part(
                                            "job graph translation",
                                            List.of(
                                                    "org.apache.flink.streaming.api.graph",
                                                    "org.apache.flink.runtime.jobgraph")),
                                    new Part(
                                            "executor and cluster client (REST calls to the JobManager)",
                                            List.of(
                                                    "io.flinkinsight.client",
                                                    "org.apache.flink.client",
                                                    "org.apache.flink.runtime.rest.RestClient")),
                                    new Part(
                                            "SQL parsing and planning",
                                            List.of(
                                                    "org.apache.flink.table.planner",
                                                    "org.apache.calcite",
                                                    "org.apache.flink.sql.parser",
                                                    "org.codehaus")),
                                    new Part(
                                            "gateway REST handlers and operations",
                                            List.of(
                                                    "org.apache.flink.table.gateway",
                                                    "org.apache.flink.runtime.rest")),
                                    new Part(
                                            "Netty I/O",
                                            List.of("org.apache.flink.shaded.netty4"))));

    private final Map<String, Long> pids;
    private final Path dir;

    /** Per "gateway client, concurrency, query", process and executor: what the recordings held. */
    private final Map<String, Map<String, Map<Client, Tally>>> tallies = new LinkedHashMap<>();

    /** Per process, its threads' CPU at the start of the block being recorded. */
    private final Map<String, Threads> threadsAtStart = new HashMap<>();

    /**
     * CPU ticks of a process and of each of its threads by thread id, with the thread's name
     * (digits as N, so a pool's threads add up).
     */
    record Threads(long processTicks, Map<Long, String> names, Map<Long, Long> ticks) {

        static Threads of(long pid) throws IOException {
            Map<Long, String> names = new HashMap<>();
            Map<Long, Long> ticks = new HashMap<>();
            Path proc = Path.of("/proc", Long.toString(pid));
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
                for (Path task : tasks) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"));
                    } catch (NoSuchFileException ended) {
                        continue;
                    }
                    long tid = Long.parseLong(task.getFileName().toString());
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    names.put(tid, name.replaceAll("\\d+", "N"));
                    ticks.put(tid, ProcessCpu.ticks(stat));
                }
            }
            return new Threads(
                    ProcessCpu.ticks(Files.readString(proc.resolve("stat"))), names, ticks);
        }

        /**
         * CPU seconds per thread name since {@code before}; threads ended in between as {@link
         * #ENDED_THREADS}.
         */
        Map<String, Double> secondsSince(Threads before) {
            Map<String, Double> seconds = new HashMap<>();
            long counted = 0;
            for (Map.Entry<Long, Long> thread : ticks.entrySet()) {
                long delta = thread.getValue() - before.ticks.getOrDefault(thread.getKey(), 0L);
                counted += delta;
                seconds.merge(
                        names.get(thread.getKey()),
                        delta / ProcessCpu.TICKS_PER_SECOND,
                        Double::sum);
            }
            seconds.put(
                    ENDED_THREADS,
                    (processTicks - before.processTicks - counted) / ProcessCpu.TICKS_PER_SECOND);
            return seconds;
        }
    }

    static final String ENDED_THREADS = "(threads that ended during the block)";

    /**
     * Profiles the processes of {@code pids} (by the names of {@link #PARTS}), recordings in {@code
     * dir}.
     */
    CpuProfile(Map<String, Long> pids, Path dir) throws IOException {
        this.pids = Map.copyOf(pids);
        this.dir = Files.createDirectories(dir);
    }

    /**
     * The part a sample's stack belongs to: the first of {@code parts} that holds any of its
     * frames. So library code (the JDK, Jackson) counts for the part that called it, and work that
     * an event loop ran for a part (a REST handler on a Netty thread, the Dispatcher on an RPC
     * thread) for that part.
     */
    static String classify(List<Part> parts, List<String> stack) {
        for (Part part : parts) {
            if (stack.stream().anyMatch(part::holds)) {
                return part.name();
            }
        }
        return OTHER;
    }

    /** Starts a recording named {@code tag} in each process. */
    void start(String tag) throws IOException, InterruptedException {
        for (Map.Entry<String, Long> process : pids.entrySet()) {
            jcmd(process.getValue(), "JFR.start", "name=" + tag, "settings=profile");
            threadsAtStart.put(process.getKey(), Threads.of(process.getValue()));
        }
    }

    /**
     * Stops the recordings of {@code tag}, writes them to the work directory and counts their
     * samples; {@code cpuSeconds}: each process's CPU time over the block, as measured outside JFR.
     */
    void stop(
            String tag, String section, Client client, int queries, Map<String, Double> cpuSeconds)
            throws IOException, InterruptedException {
        for (Map.Entry<String, Long> process : pids.entrySet()) {
            Path file = dir.resolve(tag + "-" + process.getKey().replace(' ', '-') + ".jfr");
            Map<String, Double> threadSeconds =
                    Threads.of(process.getValue())
                            .secondsSince(threadsAtStart.get(process.getKey()));
            jcmd(process.getValue(), "JFR.stop", "name=" + tag, "filename=" + file);
            read(
                    file,
                    process.getKey(),
                    section,
                    client,
                    queries,
                    cpuSeconds.get(process.getKey()));
            tally(section, process.getKey(), client).addThreads(threadSeconds);
        }
    }

    /**
     * Counts the samples of a recording of {@code process} over {@code queries} of {@code client}.
     */
    void read(
            Path file,
            String process,
            String section,
            Client client,
            int queries,
            double cpuSeconds)
            throws IOException {
        Tally tally = tally(section, process, client);
        tally.queries += queries;
        tally.cpuSeconds += cpuSeconds;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals(SAMPLE_EVENT)
                        && event.getStackTrace() != null) {
                    tally.add(PARTS.get(process), frames(event));
                }
            }
        }
    }

    private static List<String> frames(RecordedEvent sample) {
        List<String> stack = new ArrayList<>();
        for (RecordedFrame frame : sample.getStackTrace().getFrames()) {
            stack.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
        }
        return stack;
    }

    private static void jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // jcmd reports a refused JFR command in its output, with exit code 0
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)
                || jcmd.exitValue() != 0
                || out.contains("Could not")) {
            jcmd.destroy();
            throw new IllegalStateException(String.join(" ", line) + " failed: " + out);
        }
    }

    /** The samples of one process and executor. */
    static final class Tally {
        int queries;
        double cpuSeconds;

        /** CPU seconds per thread name, from {@link Threads}. */
        final Map<String, Double> threadSeconds = new HashMap<>();

        long samples;
        final Map<String, Long> byPart = new HashMap<>();

        /**
         * Per frame outside the JDK, the samples whose stack holds it in their own part (each frame
         * once per sample): inclusive counts of the code that did the work. The frames of other
         * parts further down (the Netty loop that called a REST handler, the RPC loop that ran the
         * Dispatcher) are where the work came from.
         */
        final Map<String, Long> byFrame = new HashMap<>();

        final Map<String, String> partOfFrame = new HashMap<>();

        /**
         * Per frame, its least distance from the top of a stack: the more specific of frames always
         * seen together.
         */
        final Map<String, Integer> depth = new HashMap<>();

        /**
         * Per frame, the sum of a hash of each sample that holds it: equal for frames always seen
         * together.
         */
        final Map<String, Long> samplesHeld = new HashMap<>();

        void addThreads(Map<String, Double> seconds) {
            seconds.forEach((name, s) -> threadSeconds.merge(name, s, Double::sum));
        }

        void add(List<Part> parts, List<String> stack) {
            samples++;
            String part = classify(parts, stack);
            byPart.merge(part, 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < stack.size(); i++) {
                String frame = stack.get(i);
                if (!isJdk(frame)
                        && classify(parts, List.of(frame)).equals(part)
                        && seen.add(frame)) {
                    byFrame.merge(frame, 1L, Long::sum);
                    partOfFrame.put(frame, part);
                    depth.merge(frame, i, Math::min);
                    samplesHeld.merge(frame, hash(samples), Long::sum);
                }
            }
        }

        /** MurmurHash3's finaliser: sums of distinct samples' hashes practically never collide. */
        private static long hash(long sample) {
            long h = (sample ^ (sample >>> 33)) * 0xff51afd7ed558ccdL;
            h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return h ^ (h >>> 33);
        }

        private static boolean isJdk(String frame) {
            return frame.startsWith("java.")
                    || frame.startsWith("jdk.")
                    || frame.startsWith("sun.");
        }

        double perQuery(long count) {
            return queries == 0 ? Double.NaN : (double) count / queries;
        }
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("CPU profiles (JFR `")
                .append(SAMPLE_EVENT)
                .append(
                        "`, `settings=profile`: a stack of each thread"
                                + " running Java code every 10 ms, so a sample stands for about 10 ms of CPU; GC, JIT and native code"
                                + " are not sampled). Samples per query by part of each process; a sample belongs to the first part"
                                + " (in the order listed) that holds any frame of its stack. Recordings: ")
                .append(dir)
                .append("\n");
        tallies.forEach(
                (section, byProcess) -> {
                    md.append("\n## ").append(section).append("\n");
                    byProcess.forEach(
                            (process, byClient) -> {
                                Tally stock = byClient.getOrDefault(Client.STOCK, new Tally());
                                Tally fast = byClient.getOrDefault(Client.INTERACTIVE, new Tally());
                                md.append("\n### ").append(process).append("\n\n");
                                md.append(
                                        "| part | `remote` samples / query | `remote-interactive` samples / query"
                                                + " | interactive / stock |\n");
                                md.append("|---|---:|---:|---:|\n");
                                List<String> names =
                                        new ArrayList<>(
                                                PARTS.get(process).stream()
                                                        .map(Part::name)
                                                        .toList());
                                names.add(OTHER);
                                for (String name : names) {
                                    row(
                                            md,
                                            name,
                                            stock.perQuery(stock.byPart.getOrDefault(name, 0L)),
                                            fast.perQuery(fast.byPart.getOrDefault(name, 0L)));
                                }
                                row(
                                        md,
                                        "**all**",
                                        stock.perQuery(stock.samples),
                                        fast.perQuery(fast.samples));
                                row(
                                        md,
                                        "CPU ms / query, measured (`/proc`)",
                                        1000 * stock.cpuSeconds / stock.queries,
                                        1000 * fast.cpuSeconds / fast.queries);
                                md.append(
                                        "\nCPU ms / query by thread (`/proc/<pid>/task`, digits in names as N), the most:\n\n");
                                md.append(
                                        "| thread | `remote` | `remote-interactive` |\n|---|---:|---:|\n");
                                for (String thread : topThreads(stock, fast)) {
                                    md.append(
                                            String.format(
                                                    Locale.ROOT,
                                                    "| %s | %.1f | %.1f |%n",
                                                    thread,
                                                    1000
                                                            * stock.threadSeconds.getOrDefault(
                                                                    thread, 0.0)
                                                            / stock.queries,
                                                    1000
                                                            * fast.threadSeconds.getOrDefault(
                                                                    thread, 0.0)
                                                            / fast.queries));
                                }
                                md.append(
                                        "\nTop frames by inclusive samples per query (each frame once per sample, within its own"
                                                + " part; of frames always seen together only the one nearest the top):\n\n");
                                md.append(
                                        "| frame | part | `remote` | `remote-interactive` |\n|---|---|---:|---:|\n");
                                for (String frame : topFrames(stock, fast)) {
                                    String part =
                                            stock.partOfFrame.getOrDefault(
                                                    frame, fast.partOfFrame.get(frame));
                                    md.append(
                                            String.format(
                                                    Locale.ROOT,
                                                    "| `%s` | %s | %.2f | %.2f |%n",
                                                    frame,
                                                    part,
                                                    stock.perQuery(
                                                            stock.byFrame.getOrDefault(frame, 0L)),
                                                    fast.perQuery(
                                                            fast.byFrame.getOrDefault(frame, 0L))));
                                }
                            });
                });
        return md.toString();
    }

    private static void row(StringBuilder md, String name, double stock, double fast) {
        md.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %.2f | %.2f | %.2f |%n",
                        name,
                        stock,
                        fast,
                        fast / stock));
    }

    /**
     * The frames with the most samples per query of both executors together. Of frames seen in
     * exactly the same samples (one call chain: a compiler's frames) only the one nearest the top
     * is listed; frames in every sample of their part (its event loop) are left out, the part's row
     * says as much; at most {@link #TOP_FRAMES_PER_PART} of one part, so that one part's call chain
     * does not hide the others.
     */
    static List<String> topFrames(Tally stock, Tally fast) {
        Map<String, Double> score = new HashMap<>();
        for (Tally tally : List.of(stock, fast)) {
            tally.byFrame.forEach(
                    (frame, count) -> score.merge(frame, tally.perQuery(count), Double::sum));
        }
        List<String> ranked =
                score.keySet().stream()
                        .sorted(
                                Comparator.comparing((String frame) -> -score.get(frame))
                                        .thenComparing(
                                                frame ->
                                                        Math.min(
                                                                stock.depth.getOrDefault(
                                                                        frame, Integer.MAX_VALUE),
                                                                fast.depth.getOrDefault(
                                                                        frame, Integer.MAX_VALUE)))
                                        .thenComparing(Comparator.naturalOrder()))
                        .toList();
        Set<List<Long>> chains = new HashSet<>();
        Map<String, Integer> perPart = new HashMap<>();
        List<String> top = new ArrayList<>();
        for (String frame : ranked) {
            String part = stock.partOfFrame.getOrDefault(frame, fast.partOfFrame.get(frame));
            if (top.size() < TOP_FRAMES
                    && perPart.getOrDefault(part, 0) < TOP_FRAMES_PER_PART
                    && !(inWholePart(stock, frame) && inWholePart(fast, frame))
                    && chains.add(
                            List.of(
                                    stock.samplesHeld.getOrDefault(frame, 0L),
                                    fast.samplesHeld.getOrDefault(frame, 0L)))) {
                top.add(frame);
                perPart.merge(part, 1, Integer::sum);
            }
        }
        return top;
    }

    private static boolean inWholePart(Tally tally, String frame) {
        String part = tally.partOfFrame.get(frame);
        return part == null || tally.byFrame.get(frame).equals(tally.byPart.get(part));
    }

    /** The thread names with the most CPU per query of both executors together. */
    private static List<String> topThreads(Tally stock, Tally fast) {
        Map<String, Double> score = new HashMap<>();
        for (Tally tally : List.of(stock, fast)) {
            tally.threadSeconds.forEach(
                    (thread, s) -> score.merge(thread, s / tally.queries, Double::sum));
        }
        return score.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(TOP_THREADS)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** What the recordings of one section, process and executor held. */
    Tally tally(String section, String process, Client client) {
        return tallies.computeIfAbsent(section, s -> new LinkedHashMap<>())
                .computeIfAbsent(process, p -> new HashMap<>())
                .computeIfAbsent(client, c -> new Tally());
    }
}
