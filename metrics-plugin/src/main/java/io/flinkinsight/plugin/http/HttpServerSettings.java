package io.flinkinsight.plugin.http;

import java.time.Duration;

/**
 * What the HTTP server needs from the reporter options.
 *
 * @param maxRequestHeaderBytes larger header blocks are answered 431
 * @param idleTimeout connections without traffic this long are closed
 * @param maxConnections connections beyond this many are closed at once
 * @param threads threads rendering responses off the network thread
 */
public record HttpServerSettings(
        PortRange ports,
        String bindHost,
        int maxRequestHeaderBytes,
        Duration idleTimeout,
        int maxConnections,
        int threads) {

    /** Longest request target accepted; longer ones are answered 414. */
    public static final int MAX_URI_LENGTH = 4096;

    /** Loopback, any free port, defaults otherwise: for tests. */
    public static HttpServerSettings loopbackForTests() {
        return new HttpServerSettings(PortRange.parse("0"), "127.0.0.1", 8192, Duration.ofSeconds(60), 128, 2);
    }
}
