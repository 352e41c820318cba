package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.HttpHeaders;

import java.util.concurrent.CompletableFuture;

/**
 * What the server answers with, as prometheus/client_java's exporter hands its exchange to a
 * handler: the server decodes, admits and orders requests and writes the replies; the handler
 * decides what they say. Called on a worker thread, never the network thread.
 */
public interface RequestHandler extends AutoCloseable {

    /**
     * The reply to a GET or HEAD request already admitted by {@link PortAccess}; the future never
     * completes exceptionally.
     */
    CompletableFuture<HttpReply> handle(
            RequestTarget target, HttpHeaders headers, ClientConnection client);

    /** The server stopped: threads and held bodies are let go. */
    @Override
    void close();
}
