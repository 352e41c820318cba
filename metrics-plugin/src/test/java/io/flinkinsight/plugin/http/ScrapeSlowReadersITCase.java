package io.flinkinsight.plugin.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Clients that ask for a large scrape and never read it, from loopback addresses of their own (127.0.0.2, ...), while
 * Prometheus (127.0.0.1) scrapes every half second: every one of its scrapes is answered 200 with the whole body. The
 * non-readers' writes stall (their receive buffers are tiny) and would hold for the 30 s write timeout whatever they
 * hold; the render turns are not among it. With more non-readers than places for bodies on their way (four), some
 * are closed to make room: from six addresses the oldest, from one its own.
 */
class ScrapeSlowReadersITCase {

    private static final int BODY_BYTES = 16 * 1024 * 1024;
    private static final int SCRAPES = 12;
    private static final long SCRAPE_INTERVAL_MILLIS = 500;

    @ParameterizedTest(name = "{0} non-readers from {1} addresses")
    @CsvSource({"3, 3", "6, 6", "6, 1"})
    void nonReadingClientsDoNotKeepPrometheusOut(int nonReaders, int addresses) throws Exception {
        int expected = ScrapeMemoryITCase.repeatedLineLength(BODY_BYTES);
        List<Socket> stalled = new ArrayList<>();
        try (InsightHttpServer server = new InsightHttpServer(TestingServerSettings.loopback(),
                ScrapeMemoryITCase.repeatedLine(BODY_BYTES), Map.of())) {
            int port = server.start().getPort();
            for (int i = 0; i < nonReaders; i++) {
                stalled.add(askAndNeverRead(port, "127.0.0." + (2 + i % addresses)));
            }
            // Until the server has rendered for them all (bounded: before the fix, only two turns were ever given),
            // so the reading client comes after them, and none of them displaces its body while it reads.
            for (int i = 0; i < 100 && server.scrapeFigures().served() < nonReaders; i++) {
                Thread.sleep(50);
            }
            assertThat(server.scrapeFigures().served()).as("scrapes rendered for the non-readers").isGreaterThan(1);

            List<Long> lengths = new ArrayList<>();
            for (int i = 0; i < SCRAPES; i++) {
                lengths.add(ScrapeMemoryITCase.bodyLength(port));
                Thread.sleep(SCRAPE_INTERVAL_MILLIS);
            }

            assertThat(lengths).as("every scrape of the reading client, whole").hasSize(SCRAPES)
                    .containsOnly((long) expected);
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    /** Sends a scrape from {@code localAddress} on a connection that takes a few KiB of the answer, then nothing. */
    private static Socket askAndNeverRead(int port, String localAddress) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReceiveBufferSize(4096);
            try {
                socket.bind(new InetSocketAddress(localAddress, 0));
            } catch (BindException e) {
                assumeTrue(false, "this system routes only 127.0.0.1 to itself: " + e);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
