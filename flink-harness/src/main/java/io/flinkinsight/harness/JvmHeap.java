package io.flinkinsight.harness;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap of a process of a harness cluster, as tests and benchmarks compare it before and after a
 * workload.
 */
public final class JvmHeap {

    /** The plugin's ScrapeHandler.SHARE_WINDOW. */
    private static final long SCRAPE_SHARE_WINDOW_MILLIS = 1_000;

    private JvmHeap() {}

    /**
     * Bytes of heap in use in the process of {@code role} right after a full GC: {@code jcmd <pid>
     * GC.run}, then the process's own {@code Status.JVM.Memory.Heap.Used} gauge from its plugin's
     * {@code /metrics}; the least of three, so that what the process allocated between the two
     * readings counts as little as possible.
     */
    public static double usedAfterFullGc(LocalFlinkCluster cluster, Role role)
            throws IOException, InterruptedException {
        Pattern heapUsed =
                Pattern.compile(
                        "(?m)^flink_"
                                + role.name()
                                + "_Status_JVM_Memory_Heap_Used(?:\\{[^}]*})? (\\S+)$");
        long pid = cluster.process(role).pid();
        double least = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            Process gc =
                    new ProcessBuilder("jcmd", Long.toString(pid), "GC.run")
                            .redirectErrorStream(true)
                            .start();
            gc.getInputStream().readAllBytes();
            if (!gc.waitFor(60, TimeUnit.SECONDS)) {
                gc.destroy();
                throw new IllegalStateException("jcmd " + pid + " GC.run did not finish in 60 s");
            }
            // The plugin answers a scrape within 1 s of its last render with that render's body:
            // wait it out, so the
            // gauge is read after this GC, not before it.
            Thread.sleep(SCRAPE_SHARE_WINDOW_MILLIS + 100);
            Matcher m = heapUsed.matcher(cluster.insightGet(role, "/metrics"));
            if (!m.find()) {
                throw new IllegalStateException(
                        "no heap-used gauge in the " + role.name() + "'s scrape");
            }
            least = Math.min(least, Double.parseDouble(m.group(1)));
        }
        return least;
    }
}
