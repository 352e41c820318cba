package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One server connection on Netty's EmbeddedChannel: raw request bytes in, decoded responses out.
 */
final class TestingHttpChannel implements AutoCloseable {

    private final EmbeddedChannel channel = new EmbeddedChannel();

    private final RefusalReason.Counts refusals = new RefusalReason.Counts();

    TestingHttpChannel(RequestHandler handler, Executor workers) {
        this(handler, workers, TestingServerSettings.loopback());
    }

    TestingHttpChannel(RequestHandler handler, Executor workers, HttpServerSettings settings) {
        InsightChannelInitializer.configure(
                channel.pipeline(), settings, handler, refusals, workers);
    }

    /** The requests this connection did not serve, by reason. */
    RefusalReason.Counts refusals() {
        return refusals;
    }

    /** Sends raw bytes and returns every complete response the server wrote. */
    List<FullHttpResponse> send(String raw) {
        channel.writeInbound(Unpooled.copiedBuffer(raw, StandardCharsets.ISO_8859_1));
        channel.runPendingTasks();
        return readResponses();
    }

    /**
     * Sends {@code GET path} with extra header lines (each ending in CRLF) and returns the one
     * response.
     */
    FullHttpResponse get(String path, String headers) {
        List<FullHttpResponse> responses =
                send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n");
        if (responses.size() != 1) {
            throw new AssertionError("expected one response, got " + responses.size());
        }
        return responses.get(0);
    }

    FullHttpResponse get(String path) {
        return get(path, "");
    }

    /** Sends raw bytes and returns the raw bytes the server wrote, as text. */
    String sendRaw(String raw) {
        channel.writeInbound(Unpooled.copiedBuffer(raw, StandardCharsets.ISO_8859_1));
        channel.runPendingTasks();
        StringBuilder sb = new StringBuilder();
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            sb.append(out.toString(StandardCharsets.ISO_8859_1));
            out.release();
        }
        return sb.toString();
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    EmbeddedChannel channel() {
        return channel;
    }

    private List<FullHttpResponse> readResponses() {
        EmbeddedChannel decoder =
                new EmbeddedChannel(new HttpResponseDecoder(), new HttpObjectAggregator(64 << 20));
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            decoder.writeInbound(out);
        }
        decoder.finish();
        List<FullHttpResponse> responses = new ArrayList<>();
        Object msg;
        while ((msg = decoder.readInbound()) != null) {
            responses.add((FullHttpResponse) msg);
        }
        return responses;
    }

    static String body(FullHttpResponse response) {
        return response.content().toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        channel.finishAndReleaseAll();
    }
}
