package io.flinkinsight.plugin.http;

import java.time.Duration;

/**
 * What the HTTP server needs from the reporter options: the transport's limits (the scrape's and
 * the JSON answers' are their handlers').
 *
 * @param maxRequestHeaderBytes larger header blocks are answered 431
 * @param idleTimeout connections without traffic this long are closed
 * @param maxConnections connections beyond this many are closed at once
 * @param threads threads rendering responses off the network thread
 * @param maxConnectionsPerAddress connections from one client address beyond this many are closed
 *     at once
 * @param requestHeadTimeout a request's head must arrive within this, from its first byte or the
 *     connection's start
 * @param access who may use what on the port
 * @param tls HTTPS with Flink's REST key (http.ssl.enabled), or null for plain HTTP
 */
public record HttpServerSettings(
        PortRange ports,
        String bindHost,
        int maxRequestHeaderBytes,
        Duration idleTimeout,
        int maxConnections,
        int threads,
        int maxConnectionsPerAddress,
        Duration requestHeadTimeout,
        PortAccess access,
        RestTls tls) {

    /** Plain HTTP. */
    public HttpServerSettings(
            PortRange ports,
            String bindHost,
            int maxRequestHeaderBytes,
            Duration idleTimeout,
            int maxConnections,
            int threads,
            int maxConnectionsPerAddress,
            Duration requestHeadTimeout,
            PortAccess access) {
        this(
                ports,
                bindHost,
                maxRequestHeaderBytes,
                idleTimeout,
                maxConnections,
                threads,
                maxConnectionsPerAddress,
                requestHeadTimeout,
                access,
                null);
    }

    /** Longest request target accepted; longer ones are answered 414. */
    public static final int MAX_URI_LENGTH = 4096;
}
