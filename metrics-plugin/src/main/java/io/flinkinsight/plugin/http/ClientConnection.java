package io.flinkinsight.plugin.http;

import java.net.InetAddress;

/**
 * The connection a request is answered on: its client as {@link ClientAddress} keys it (null when
 * unknown), for per-client limits, and how to close it (from any thread), which fails a write still
 * under way on it.
 */
public record ClientConnection(InetAddress address, Runnable close) {}
