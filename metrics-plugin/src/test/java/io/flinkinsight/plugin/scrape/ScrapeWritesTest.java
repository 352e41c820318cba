package io.flinkinsight.plugin.scrape;

import io.flinkinsight.plugin.exposition.ExpositionFormat;
import io.flinkinsight.plugin.http.ClientConnection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.flinkinsight.plugin.exposition.ExpositionFormat.OPENMETRICS;
import static io.flinkinsight.plugin.exposition.ExpositionFormat.PROMETHEUS_TEXT;
import static org.assertj.core.api.Assertions.assertThat;

class ScrapeWritesTest {

    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final long SECOND = 1_000_000_000L;

    private final ScrapeFigures figures = new ScrapeFigures();
    private final AtomicLong now = new AtomicLong(5 * SECOND);

    private ScrapeWrites writes(int max) {
        return new ScrapeWrites(max, WINDOW, now::get, figures);
    }

    /**
     * A connection that counts its closes; a close fails its write, which (as Netty does) releases
     * its view of the body and ends the write.
     */
    private static final class Connection {
        final AtomicInteger closed = new AtomicInteger();
        ScrapeWrites.Body body;

        ClientConnection client(String ip) {
            return new ClientConnection(
                    address(ip),
                    () -> {
                        closed.incrementAndGet();
                        written();
                    });
        }

        /** The write ended: the body released, then the end run, as InsightHttpHandler does. */
        void written() {
            if (body.body().refCnt() > 0) {
                body.body().release();
            }
            body.end().run();
        }

        String text() {
            return body.body().toString(StandardCharsets.US_ASCII);
        }
    }

    /**
     * A scrape as the router does it: the shared body if there is one, else a render of {@code
     * text}.
     */
    private static Connection scrape(
            ScrapeWrites writes, ExpositionFormat format, String ip, String text) {
        Connection c = new Connection();
        ClientConnection client = c.client(ip);
        c.body = writes.share(format, client);
        if (c.body == null) {
            c.body =
                    writes.rendered(
                            format, Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII), client);
        }
        return c;
    }

    @Test
    void scrapesWithinTheWindowShareTheNewestBodyAndOneAfterItRenders() {
        ScrapeWrites writes = writes(4);
        Connection first = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up 1\n");
        now.addAndGet(SECOND - 1);
        Connection second = scrape(writes, PROMETHEUS_TEXT, "10.0.0.2", "up 2\n");
        Connection otherFormat = scrape(writes, OPENMETRICS, "10.0.0.2", "up 3\n# EOF\n");

        assertThat(second.text()).as("the first render's body, shared").isEqualTo("up 1\n");
        assertThat(otherFormat.text())
                .as("a format shares only its own")
                .isEqualTo("up 3\n# EOF\n");
        assertThat(second.body.body().unwrap()).isSameAs(first.body.body().unwrap());
        first.body.body().readByte();
        assertThat(second.body.body().readerIndex()).as("each write reads its own view").isZero();
        assertThat(figures.sharedCount()).isEqualTo(1);

        now.addAndGet(1);
        Connection third = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up 4\n");

        assertThat(third.text())
                .as("the window has passed: a render of its own")
                .isEqualTo("up 4\n");
        assertThat(figures.sharedCount()).isEqualTo(1);
        ByteBuf firstBody = first.body.body().unwrap();
        first.written();
        assertThat(firstBody.refCnt()).as("still written to the second").isEqualTo(1);
        second.written();
        assertThat(firstBody.refCnt())
                .as("no longer the newest, and every write of it ended")
                .isZero();
        assertThat(writes.held()).as("the newest of each format").isEqualTo(2);
        List.of(third, otherFormat).forEach(Connection::written);
        assertThat(writes.writes()).isZero();
        assertThat(writes.held()).isEqualTo(2);
    }

    @Test
    void aRenderBeyondTheBoundClosesEveryWriteOfTheFormatsOldestGeneration() {
        ScrapeWrites writes = writes(4);
        List<Connection> oldest = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            oldest.add(scrape(writes, PROMETHEUS_TEXT, "10.0.0." + (1 + i), "up 0\n"));
        }
        Connection openMetrics = scrape(writes, OPENMETRICS, "10.0.0.9", "# EOF\n");
        List<Connection> newer = new ArrayList<>();
        for (int g = 1; g < 4; g++) {
            now.addAndGet(SECOND);
            newer.add(scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up " + g + "\n"));
        }
        assertThat(writes.held()).as("four text generations and one OpenMetrics").isEqualTo(5);
        assertThat(figures.writesAborted()).isZero();
        ByteBuf oldestBody = oldest.get(0).body.body().unwrap();

        now.addAndGet(SECOND);
        Connection fifth = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up 4\n");

        assertThat(oldest)
                .as("every write of the oldest generation")
                .allSatisfy(c -> assertThat(c.closed).hasValue(1));
        assertThat(oldestBody.refCnt()).as("its body freed").isZero();
        assertThat(newer).allSatisfy(c -> assertThat(c.closed).hasValue(0));
        assertThat(List.of(fifth.closed.get(), openMetrics.closed.get())).containsOnly(0);
        assertThat(figures.writesAborted()).isEqualTo(3);
        assertThat(writes.held()).isEqualTo(5);

        oldest.get(0).written(); // its write ends late (the close failed it): nothing more happens
        assertThat(writes.held()).isEqualTo(5);
        newer.forEach(Connection::written);
        assertThat(writes.held()).as("the newest of each format").isEqualTo(2);
    }

    @Test
    void aGenerationWhoseWritesEndedTakesNoPlace() {
        ScrapeWrites writes = writes(2);
        Connection reader = null;
        for (int g = 0; g < 10; g++) {
            now.addAndGet(SECOND);
            Connection c = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up " + g + "\n");
            if (g == 0) {
                reader = c; // never written
            } else {
                c.written();
            }
            assertThat(writes.held()).isLessThanOrEqualTo(2);
        }
        assertThat(reader.closed)
                .as("the written generations went as soon as newer ones came")
                .hasValue(0);
        assertThat(figures.writesAborted()).isZero();
    }

    @Test
    void aWriteIsNeverDisplacedWithinMaxWindowsOfItsRender() {
        int max = 4;
        ScrapeWrites writes = writes(max);
        Random random = new Random(25);
        List<Connection> open = new ArrayList<>();
        Map<ByteBuf, Long> renderedAt = new IdentityHashMap<>();
        for (int i = 0;
                i < 2000;
                i++) { // 100 s of scrapes every 50 ms, from 200 addresses, none of them read
            now.addAndGet(50_000_000L);
            ExpositionFormat format = random.nextBoolean() ? PROMETHEUS_TEXT : OPENMETRICS;
            Connection c =
                    scrape(
                            writes,
                            format,
                            "10.0." + random.nextInt(2) + "." + random.nextInt(100),
                            "x");
            renderedAt.putIfAbsent(c.body.body().unwrap(), now.get());
            open.add(c);
            for (Iterator<Connection> it = open.iterator(); it.hasNext(); ) {
                Connection o = it.next();
                if (o.closed.get() > 0) {
                    assertThat(now.get() - renderedAt.get(o.body.body().unwrap()))
                            .as("age of a displaced write's body")
                            .isGreaterThanOrEqualTo(max * WINDOW.toNanos());
                    it.remove();
                }
            }
            assertThat(writes.held())
                    .as("generations held, of two formats")
                    .isLessThanOrEqualTo(2 * max);
        }
        assertThat(figures.writesAborted())
                .as("the non-readers' writes were displaced")
                .isGreaterThan(1000);
        assertThat(figures.sharedCount()).isGreaterThan(1000);
    }

    @Test
    void aCloseThatThrowsStillFreesTheGeneration() {
        ScrapeWrites writes = writes(2);
        ByteBuf first = Unpooled.copiedBuffer("up 1\n", StandardCharsets.US_ASCII);
        ScrapeWrites.Body never =
                writes.rendered(
                        PROMETHEUS_TEXT,
                        first,
                        new ClientConnection(
                                address("10.0.0.1"),
                                () -> {
                                    throw new IllegalStateException("closing failed");
                                }));
        now.addAndGet(SECOND);
        Connection second = scrape(writes, PROMETHEUS_TEXT, "10.0.0.2", "up 2\n");
        now.addAndGet(SECOND);
        scrape(writes, PROMETHEUS_TEXT, "10.0.0.2", "up 3\n").written();

        assertThat(figures.writesAborted()).isEqualTo(1);
        assertThat(writes.held()).isEqualTo(2);
        second.written();
        assertThat(writes.held()).isEqualTo(1);
        never.body().release();
        assertThat(first.refCnt()).isZero();
    }

    @Test
    void closingDropsTheSharedBodiesAndShareNoMore() {
        ScrapeWrites writes = writes(2);
        Connection text = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up 1\n");
        Connection openMetrics = scrape(writes, OPENMETRICS, "10.0.0.1", "# EOF\n");
        writes.close();
        Connection after = scrape(writes, PROMETHEUS_TEXT, "10.0.0.1", "up 2\n");

        assertThat(after.text()).as("rendered, not shared").isEqualTo("up 2\n");
        for (Connection c : List.of(text, openMetrics, after)) {
            ByteBuf body = c.body.body().unwrap() != null ? c.body.body().unwrap() : c.body.body();
            c.written();
            assertThat(body.refCnt()).isZero();
        }
        assertThat(writes.held()).isZero();
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
