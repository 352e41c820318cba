package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.SqlSession;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Sends the demo's short queries (source, wordcount, join) through the gateway one after another,
 * one every interval, until stopped.
 */
final class QueryTrickle implements AutoCloseable {

    private final Supplier<SqlSession> sessions;
    private final Duration interval;
    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong lastLatencyMillis = new AtomicLong(-1);
    private volatile String lastError = "";
    private volatile boolean running = true;
    private final Thread thread;

    QueryTrickle(Supplier<SqlSession> sessions, Duration interval) {
        this.sessions = sessions;
        this.interval = interval;
        this.thread = new Thread(this::run, "insight-demo-queries");
        // Daemon: a demo killed with Ctrl-C must not wait for a query in flight.
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        List<String> queries = DemoWorkload.shortQueries();
        SqlSession session = null;
        for (long n = 0; running; n++) {
            long started = System.nanoTime();
            try {
                if (session == null) {
                    session = sessions.get();
                    DemoWorkload.prepareShortQueries(session);
                }
                session.query(queries.get((int) (n % queries.size())));
                lastLatencyMillis.set((System.nanoTime() - started) / 1_000_000);
                succeeded.incrementAndGet();
            } catch (RuntimeException e) {
                failed.incrementAndGet();
                lastError = String.valueOf(e.getMessage());
                // A broken session is replaced on the next round rather than retried.
                closeQuietly(session);
                session = null;
            }
            sleep(interval);
        }
        closeQuietly(session);
    }

    String status() {
        return "short queries: "
                + succeeded.get()
                + " ok, "
                + failed.get()
                + " failed"
                + (lastLatencyMillis.get() >= 0
                        ? ", last took " + lastLatencyMillis.get() + " ms"
                        : "")
                + (failed.get() > 0 ? " (last error: " + abbreviate(lastError) + ")" : "");
    }

    long succeeded() {
        return succeeded.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            running = false;
        }
    }

    private static void closeQuietly(SqlSession session) {
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                // The session is gone either way.
            }
        }
    }

    private static String abbreviate(String text) {
        String line = text.lines().findFirst().orElse("");
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }
}
