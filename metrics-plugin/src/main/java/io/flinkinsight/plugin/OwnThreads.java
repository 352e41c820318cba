package io.flinkinsight.plugin;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/** The plugin's own threads: named, so a thread dump tells them from Flink's, and daemons. */
public final class OwnThreads {

    private OwnThreads() {}

    /**
     * One daemon thread named {@code name} running scheduled tasks; cancelled tasks leave its queue
     * at once.
     */
    public static ScheduledThreadPoolExecutor scheduler(String name) {
        ScheduledThreadPoolExecutor executor =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, name);
                            t.setDaemon(true);
                            return t;
                        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
