package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.bench.InteractiveQueryBenchmark.Client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class CpuProfileTest {

    @TempDir Path dir;

    private static final List<CpuProfile.Part> JOBMANAGER =
            CpuProfile.PARTS.get(InteractiveQueryBenchmark.JM_CPU);

    @Test
    void aSampleBelongsToTheFirstPartThatHoldsAnyOfItsFrames() {
        // the JDK at the top, a REST handler below it, Netty's event loop at the bottom
        List<String> stack =
                List.of(
                        "java.util.HashMap.get",
                        "org.apache.flink.runtime.rest.handler.job.JobDetailsHandler.handleRequest",
                        "org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoop.run",
                        "java.lang.Thread.run");

        assertThat(CpuProfile.classify(JOBMANAGER, stack)).isEqualTo("REST handlers");
    }

    @Test
    void aClassNamedInAnEarlierPartWinsOverItsPackage() {
        List<String> stack =
                List.of(
                        "java.io.ObjectInputStream.readObject",
                        "org.apache.flink.runtime.rest.handler.job.JobSubmitHandler.loadJobGraph",
                        "org.apache.flink.runtime.rest.handler.AbstractRestHandler.respondToRequest");

        assertThat(CpuProfile.classify(JOBMANAGER, stack))
                .isEqualTo("job submission, JobMaster and scheduler");
    }

    @Test
    void theTaskManagerTellsInitialisationAndCompilationFromRunningTheOperators() {
        List<CpuProfile.Part> taskManager = CpuProfile.PARTS.get(InteractiveQueryBenchmark.TM_CPU);
        String task = "org.apache.flink.runtime.taskmanager.Task.doRun";
        String open = "org.apache.flink.table.runtime.operators.join.StreamingJoinOperator.open";

        assertThat(
                        CpuProfile.classify(
                                taskManager,
                                List.of(
                                        open,
                                        "org.apache.flink.streaming.runtime.tasks.StreamTask.restoreInternal",
                                        task)))
                .isEqualTo("task initialisation");
        assertThat(
                        CpuProfile.classify(
                                taskManager,
                                List.of(
                                        "org.codehaus.janino.UnitCompiler.compile",
                                        "org.apache.flink.table.runtime.generated.CompileUtils.compile",
                                        open,
                                        "org.apache.flink.streaming.runtime.tasks.StreamTask.restoreInternal",
                                        task)))
                .isEqualTo("operator code compilation (Janino)");
        assertThat(
                        CpuProfile.classify(
                                taskManager,
                                List.of(
                                        "org.apache.flink.table.runtime.operators.join.StreamingJoinOperator.processElement1",
                                        "org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop",
                                        "org.apache.flink.streaming.runtime.tasks.StreamTask.invoke",
                                        task)))
                .isEqualTo("running the operators");
    }

    @Test
    void aStackNoPartHoldsIsOther() {
        assertThat(
                        CpuProfile.classify(
                                JOBMANAGER,
                                List.of("java.util.HashMap.get", "java.lang.Thread.run")))
                .isEqualTo(CpuProfile.OTHER);
    }

    @Test
    void framesAreCountedOncePerSampleAndOnlyInTheSamplesOwnPart() {
        CpuProfile.Tally tally = new CpuProfile.Tally();
        tally.queries = 2;
        String trigger = "org.apache.flink.runtime.checkpoint.CheckpointCoordinator.trigger";
        String rpc = "org.apache.flink.runtime.rpc.pekko.PekkoRpcActor.handleRpcMessage";

        tally.add(
                JOBMANAGER,
                List.of("java.util.HashMap.get", trigger, trigger, rpc, "java.lang.Thread.run"));
        tally.add(JOBMANAGER, List.of("org.example.Unknown.run", "java.lang.Thread.run"));

        assertThat(tally.samples).isEqualTo(2);
        assertThat(tally.byPart)
                .containsEntry("checkpoint coordinator", 1L)
                .containsEntry(CpuProfile.OTHER, 1L);
        // the JDK and the RPC loop below the checkpoint coordinator are not counted
        assertThat(tally.byFrame)
                .containsOnlyKeys(trigger, "org.example.Unknown.run")
                .containsEntry(trigger, 1L);
        assertThat(tally.perQuery(tally.samples)).isEqualTo(1.0);
    }

    @Test
    void topFramesListOneFrameOfACallChainAndNotThoseInEverySampleOfTheirPart() {
        String netty = "org.apache.flink.shaded.netty4.io.netty.";
        CpuProfile.Tally stock = new CpuProfile.Tally();
        stock.queries = 1;
        stock.add(
                JOBMANAGER,
                List.of(netty + "Decoder.decode", netty + "Loop.processKeys", netty + "Loop.run"));
        stock.add(
                JOBMANAGER,
                List.of(netty + "Encoder.write", netty + "Loop.processKeys", netty + "Loop.run"));
        stock.add(JOBMANAGER, List.of(netty + "Selector.select", netty + "Loop.run"));
        CpuProfile.Tally interactive = new CpuProfile.Tally();
        interactive.queries = 1;

        // Loop.run is in every Netty sample; processKeys in two, decode, write and select in one
        // each
        assertThat(CpuProfile.topFrames(stock, interactive))
                .containsExactly(
                        netty + "Loop.processKeys",
                        netty + "Decoder.decode",
                        netty + "Encoder.write",
                        netty + "Selector.select");
    }

    @Test
    void recordsAProcessWithJcmdAndCountsItsSamplesPerQuery() throws Exception {
        // this JVM stands for the JobManager: jcmd attaches to it from outside, as to the cluster's
        // processes
        CpuProfile profile =
                new CpuProfile(
                        Map.of(InteractiveQueryBenchmark.JM_CPU, ProcessHandle.current().pid()),
                        dir);

        profile.start("test");
        // a thread that spins, then lives on until the recording is stopped (its CPU is counted by
        // its name)
        CountDownLatch stopped = new CountDownLatch(1);
        CompletableFuture<Long> sum = new CompletableFuture<>();
        Thread spinner =
                new Thread(
                        () -> {
                            sum.complete(spin(500_000_000L));
                            awaitUninterruptibly(stopped);
                        },
                        "spinner");
        spinner.start();
        sum.get();
        profile.stop(
                "test",
                "rest, concurrency 1, join",
                Client.STOCK,
                10,
                Map.of(InteractiveQueryBenchmark.JM_CPU, 1.0));
        stopped.countDown();
        spinner.join();

        assertThat(sum.get()).isNotZero();
        assertThat(dir.resolve("test-JobManager.jfr")).isNotEmptyFile();
        CpuProfile.Tally tally =
                profile.tally(
                        "rest, concurrency 1, join",
                        InteractiveQueryBenchmark.JM_CPU,
                        Client.STOCK);
        assertThat(tally.queries).isEqualTo(10);
        assertThat(tally.byFrame).containsKey(CpuProfileTest.class.getName() + ".spin");
        assertThat(tally.threadSeconds.get("spinner")).isGreaterThan(0.4);
        assertThat(profile.markdown())
                .contains(
                        "## rest, concurrency 1, join",
                        "### JobManager",
                        "| **all** |",
                        "| CPU ms / query, measured (`/proc`) | 100.00 |");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * CPU in Java code (not in a native call, which JFR does not sample) in a frame of this class.
     */
    /**
     * Spins until this thread has used {@code cpuNanos} of CPU (on a busy machine that takes
     * longer), at most 60 s.
     */
    private static long spin(long cpuNanos) {
        java.lang.management.ThreadMXBean threads =
                java.lang.management.ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + cpuNanos;
        long deadline = System.nanoTime() + 60_000_000_000L;
        long sum = 0;
        while (threads.getCurrentThreadCpuTime() < end && System.nanoTime() < deadline) {
            for (int i = 0; i < 1_000_000; i++) {
                sum = sum * 31 + Long.numberOfTrailingZeros(sum + i);
            }
        }
        return sum;
    }
}
