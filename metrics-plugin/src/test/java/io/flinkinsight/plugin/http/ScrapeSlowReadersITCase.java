package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.serve.RequestRouter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Clients that ask for a large scrape and never read it, from loopback addresses of their own
 * (127.0.0.2, ...), while Prometheus (127.0.0.1) scrapes every half second: every one of its
 * scrapes is answered 200 with the whole body. The non-readers' writes stall (their receive buffers
 * are tiny) and would hold for the 30 s write timeout whatever they hold; the render turns are not
 * among it, and the non-readers coming within a second share one rendered body.
 */
class ScrapeSlowReadersITCase {

    private static final int BODY_BYTES = 16 * 1024 * 1024;
    private static final int SCRAPES = 12;
    private static final long SCRAPE_INTERVAL_MILLIS = 500;
    private static final int ATTACKERS = 6;

    @ParameterizedTest(name = "{0} non-readers from {1} addresses")
    @CsvSource({"3, 3", "6, 6", "6, 1"})
    void nonReadingClientsDoNotKeepPrometheusOut(int nonReaders, int addresses) throws Exception {
        int expected = ScrapeMemoryITCase.repeatedLineLength(BODY_BYTES);
        List<Socket> stalled = new ArrayList<>();
        RequestRouter router =
                TestingServers.router(
                        TestingServerSettings.loopback(),
                        ScrapeMemoryITCase.repeatedLine(BODY_BYTES),
                        Map.of(),
                        null);
        try (InsightHttpServer server =
                new InsightHttpServer(TestingServerSettings.loopback(), router)) {
            int port = server.start().getPort();
            for (int i = 0; i < nonReaders; i++) {
                stalled.add(askAndNeverRead(port, "127.0.0." + (2 + i % addresses)));
            }
            // Until the server has answered them all (bounded: before the fix, only two turns were
            // ever given),
            // so the reading client comes after them, and none of them displaces its body while it
            // reads.
            for (int i = 0; i < 100 && answered(router) < nonReaders; i++) {
                Thread.sleep(50);
            }
            assertThat(answered(router))
                    .as("scrapes answered for the non-readers")
                    .isGreaterThan(1);

            List<Long> lengths = new ArrayList<>();
            for (int i = 0; i < SCRAPES; i++) {
                lengths.add(ScrapeMemoryITCase.bodyLength(port));
                Thread.sleep(SCRAPE_INTERVAL_MILLIS);
            }

            assertThat(lengths)
                    .as("every scrape of the reading client, whole")
                    .hasSize(SCRAPES)
                    .containsOnly((long) expected);
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    /** Scrapes answered with a body: rendered or sharing a render. */
    private static long answered(RequestRouter router) {
        return router.scrapeFigures().served() + router.scrapeFigures().sharedCount();
    }

    /**
     * The reviewer's attack: clients from six addresses (127.0.0.2, ...) that never read, each
     * closing its scrape and scraping again in a loop (in either format), so that every address
     * holds one write and new ones keep coming, while Prometheus (127.0.0.1, OpenMetrics) reads
     * multi-MB scrapes slowly but steadily, 64 KiB every 20 ms (a second or two each): every one of
     * its scrapes is answered whole. Before scrapes shared their render and were bounded by
     * generations, the attackers' scrapes displaced Prometheus' write as soon as it was the oldest.
     */
    @Test
    void nonReadersRescrapingFromManyAddressesDoNotCutASlowSteadyReader() throws Exception {
        int bodyBytes = 4 * 1024 * 1024;
        int expected = ScrapeMemoryITCase.repeatedLineLength(bodyBytes);
        AtomicBoolean attacking = new AtomicBoolean(true);
        ExecutorService attackers = Executors.newFixedThreadPool(ATTACKERS);
        RequestRouter router =
                TestingServers.router(
                        TestingServerSettings.loopback(),
                        ScrapeMemoryITCase.repeatedLine(bodyBytes),
                        Map.of(),
                        null);
        try (InsightHttpServer server =
                new InsightHttpServer(TestingServerSettings.loopback(), router)) {
            int port = server.start().getPort();
            askAndNeverRead(port, "127.0.0.2", "")
                    .close(); // skips the test where only 127.0.0.1 is routed
            List<Future<Integer>> attacks = new ArrayList<>();
            for (int a = 0; a < ATTACKERS; a++) {
                String address = "127.0.0." + (2 + a);
                attacks.add(
                        attackers.submit(() -> rescrapeWithoutReading(port, address, attacking)));
            }
            Thread.sleep(1000); // the attack is under way

            List<Long> lengths = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                lengths.add(readSlowly(port));
            }
            attacking.set(false);
            int attackScrapes = 0;
            for (Future<Integer> attack : attacks) {
                attackScrapes += attack.get(30, TimeUnit.SECONDS);
            }

            assertThat(attackScrapes).as("scrapes of the attackers").isGreaterThan(3 * ATTACKERS);
            assertThat(lengths)
                    .as("every scrape of the slow but steady reader, whole")
                    .containsOnly((long) expected);
        } finally {
            attacking.set(false);
            attackers.shutdownNow();
        }
    }

    /**
     * Scrapes from {@code address} without reading, again and again, each closed before the next;
     * how many.
     */
    private static int rescrapeWithoutReading(int port, String address, AtomicBoolean attacking)
            throws Exception {
        int scrapes = 0;
        for (int i = 0; i < 1000 && attacking.get(); i++) { // at most 400 s
            String accept = i % 2 == 0 ? "Accept: application/openmetrics-text\r\n" : "";
            try (Socket s = askAndNeverRead(port, address, accept)) {
                scrapes++;
                Thread.sleep(300);
            }
            Thread.sleep(
                    100); // the server has seen the close (its stalled write failed) before the
            // next scrape
        }
        return scrapes;
    }

    /**
     * One OpenMetrics scrape, read 64 KiB every 20 ms; the body's length, short if the server cut
     * it.
     */
    private static long readSlowly(int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(64 * 1024); // the server's write goes at the reader's pace
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            InputStream in =
                    ScrapeMemoryITCase.askForScrape(
                            socket, "Accept: application/openmetrics-text\r\n");
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            try {
                for (int i = 0; i < 10_000; i++) {
                    int n = in.readNBytes(buffer, 0, buffer.length);
                    total += n;
                    if (n < buffer.length) {
                        break;
                    }
                    Thread.sleep(20);
                }
            } catch (SocketException e) {
                // Connection reset: the server closed it before the body's end.
            }
            return total;
        }
    }

    /**
     * Sends a scrape from {@code localAddress} on a connection that takes a few KiB of the answer,
     * then nothing.
     */
    private static Socket askAndNeverRead(int port, String localAddress) throws IOException {
        return askAndNeverRead(port, localAddress, "");
    }

    /** As above, with {@code headers} (each ending in CRLF). */
    private static Socket askAndNeverRead(int port, String localAddress, String headers)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReceiveBufferSize(4096);
            try {
                socket.bind(new InetSocketAddress(localAddress, 0));
            } catch (BindException e) {
                assumeTrue(false, "this system routes only 127.0.0.1 to itself: " + e);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.getOutputStream()
                    .write(
                            ("GET /metrics HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
