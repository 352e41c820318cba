package io.flinkinsight.plugin.scrape;

import io.flinkinsight.plugin.http.ClientConnection;
import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.RequestFailureLog;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The scrape's sharing of rendered scrape bodies, under scrapes from many threads at once. */
class ScrapeSharingTest {

    private static final int THREADS = 8;
    private static final int SCRAPES = 200;
    private static final int LINES = 200;

    @Test
    void concurrentScrapesGetWholeRendersAndNeverABodyAlreadyReleased() throws Exception {
        AtomicLong now = new AtomicLong();
        AtomicInteger renders = new AtomicInteger();
        ScrapeHandler scrape =
                new ScrapeHandler(
                        (format, out) -> {
                            byte[] line =
                                    ("up " + renders.incrementAndGet() + "\n")
                                            .getBytes(StandardCharsets.US_ASCII);
                            for (int i = 0; i < LINES; i++) {
                                out.write(line);
                            }
                            out.drain();
                        },
                        2,
                        now::get,
                        new RequestFailureLog());
        String openMetrics = "application/openmetrics-text";
        String text = null;
        ClientConnection client = new ClientConnection(InetAddress.getLoopbackAddress(), () -> {});
        Set<ByteBuf> bodies =
                Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(t);
                done.add(
                        threads.submit(
                                () -> {
                                    ArrayDeque<HttpReply> unwritten = new ArrayDeque<>();
                                    for (int i = 0; i < SCRAPES; i++) {
                                        if (random.nextInt(8) == 0) {
                                            now.addAndGet(ScrapeHandler.SHARE_WINDOW.toNanos() / 2);
                                        }
                                        HttpReply reply =
                                                scrape.scrape(
                                                        random.nextBoolean() ? text : openMetrics,
                                                        client);
                                        assertThat(reply.status().code()).isEqualTo(200);
                                        bodies.add(reply.body().unwrap());
                                        String body =
                                                reply.body().toString(StandardCharsets.US_ASCII);
                                        assertThat(body)
                                                .as("a whole render's bytes")
                                                .isEqualTo(
                                                        body.substring(0, body.indexOf('\n') + 1)
                                                                .repeat(LINES));
                                        unwritten.add(reply);
                                        while (unwritten.size()
                                                > random.nextInt(
                                                        4)) { // writes end in another order than
                                            // begun
                                            (random.nextBoolean()
                                                            ? unwritten.pollFirst()
                                                            : unwritten.pollLast())
                                                    .discard();
                                        }
                                    }
                                    unwritten.forEach(HttpReply::discard);
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        scrape.close();

        ScrapeFigures figures = scrape.figures();
        assertThat(figures.served())
                .as("renders")
                .isEqualTo(renders.get())
                .isEqualTo(bodies.size());
        assertThat(figures.served() + figures.sharedCount()).isEqualTo(THREADS * SCRAPES);
        assertThat(figures.sharedCount())
                .as("most scrapes shared a render")
                .isGreaterThan(figures.served());
        assertThat(bodies)
                .as("every body released")
                .allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }
}
