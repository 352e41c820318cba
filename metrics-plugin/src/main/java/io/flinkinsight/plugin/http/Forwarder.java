package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.HttpHeaders;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * Answers the requests under one top-level path segment later, from threads of its own: the
 * dashboard proxy under {@code /flink}. The server hands it requests already decoded, admitted and
 * limited to GET and HEAD.
 */
public interface Forwarder extends AutoCloseable {

    /**
     * The first path segment this forwarder answers, itself and everything under it, e.g. {@code
     * flink}.
     */
    String segment();

    /**
     * The answer, later; the future never completes exceptionally.
     *
     * @param client the client as {@link ClientAddress} keys it, for per-client limits; null when
     *     unknown
     */
    CompletableFuture<HttpReply> forward(
            RequestTarget target, HttpHeaders headers, InetAddress client);

    /** Stops the forwarder's threads; requests in flight are abandoned. */
    @Override
    void close();
}
