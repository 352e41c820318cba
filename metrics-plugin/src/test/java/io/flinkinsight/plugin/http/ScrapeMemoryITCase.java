package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.scrape.ScrapeSource;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scrape far larger than direct memory may hold, to several scrapers at once, on a real socket:
 * every scrape is answered whole, and the direct memory Netty uses (its pooled allocator, and the
 * JDK's direct buffer pool) stays a small fraction of one body, because bodies are rendered in heap
 * and written in slices.
 */
class ScrapeMemoryITCase {

    private static final int BODY_BYTES = 40 * 1024 * 1024;
    private static final long DIRECT_BOUND = 16L * 1024 * 1024;
    private static final byte[] LINE =
            "flink_taskmanager_job_task_numRecordsIn{task_name=\"x\",subtask_index=\"0\"} 42\n"
                    .getBytes(StandardCharsets.US_ASCII);

    /** A scrape of one line repeated to at least {@code bytes}. */
    static ScrapeSource repeatedLine(int bytes) {
        return (format, out) -> {
            for (int written = 0; written < bytes; written += LINE.length) {
                out.write(LINE);
            }
            out.drain();
        };
    }

    /** The length of {@link #repeatedLine}'s body. */
    static int repeatedLineLength(int bytes) {
        return ((bytes + LINE.length - 1) / LINE.length) * LINE.length;
    }

    @Test
    void largeScrapesToManyScrapersStayOutOfDirectMemory() throws Exception {
        ScrapeSource big = repeatedLine(BODY_BYTES);
        int expected = repeatedLineLength(BODY_BYTES);
        AtomicLong maxDirect = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        BufferPoolMXBean jdkDirect =
                ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                        .filter(b -> b.getName().equals("direct"))
                        .findFirst()
                        .orElseThrow();
        long jdkBaseline = jdkDirect.getMemoryUsed();
        Thread sampler =
                new Thread(
                        () -> {
                            while (sampling.get()) {
                                long used =
                                        PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()
                                                + Math.max(
                                                        0, jdkDirect.getMemoryUsed() - jdkBaseline);
                                maxDirect.accumulateAndGet(used, Math::max);
                                try {
                                    Thread.sleep(2);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        });
        sampler.setDaemon(true);
        sampler.start();
        ExecutorService scrapers = Executors.newFixedThreadPool(4);
        try (InsightHttpServer server =
                TestingServers.server(TestingServerSettings.loopback(), big, Map.of())) {
            int port = server.start().getPort();
            List<Future<Long>> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                answers.add(scrapers.submit(() -> bodyLength(port)));
            }
            for (Future<Long> answer : answers) {
                assertThat(answer.get(60, TimeUnit.SECONDS))
                        .as("bytes of a whole scrape")
                        .isEqualTo(expected);
            }
        } finally {
            sampling.set(false);
            sampler.join(1000);
            scrapers.shutdownNow();
        }
        assertThat(maxDirect.get())
                .as("most direct memory in use while four 40 MB scrapes were served")
                .isLessThan(DIRECT_BOUND);
    }

    /**
     * One scrape over a raw socket: the status must be 200; returns the body's length (the server
     * closes).
     */
    static long bodyLength(int port) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            InputStream in = askForScrape(socket, "");
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
            }
            return total;
        }
    }

    /**
     * Sends a scrape (with {@code headers}, each ending in CRLF) on a connected socket that the
     * server closes after the answer, and reads the answer's head: the status must be 200. Returns
     * the stream at the body's start.
     */
    static InputStream askForScrape(Socket socket, String headers) throws Exception {
        socket.setSoTimeout(30_000);
        String request =
                "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers + "\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("closed in the head: " + head);
            }
            head.append((char) b);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 200");
        return in;
    }
}
