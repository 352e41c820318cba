package io.flinkinsight.client.transport;

import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.apache.flink.shaded.netty4.io.netty.bootstrap.ServerBootstrap;
import org.apache.flink.shaded.netty4.io.netty.buffer.Unpooled;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelFutureListener;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandlerContext;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelInitializer;
import org.apache.flink.shaded.netty4.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.socket.SocketChannel;
import org.apache.flink.shaded.netty4.io.netty.channel.socket.nio.NioServerSocketChannel;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultFullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpObjectAggregator;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpServerCodec;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpUtil;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpVersion;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 server on 127.0.0.1 that answers like Flink's REST endpoint does (JSON bodies,
 * {@code {"errors": [...]}} on errors, keep-alive honoured) and counts the TCP connections it
 * accepts. Routes:
 *
 * <ul>
 *   <li>{@code /v1/echo}: 200 {@code {"path", "connection", "body"}} (connection = index of the
 *       server-side connection, from 1);
 *   <li>{@code /v1/error}: 404 {@code {"errors":["no such thing"]}};
 *   <li>{@code /v1/plain}: 500 with a plain-text body;
 *   <li>{@code /v1/too-large}: 413;
 *   <li>{@code /v1/close}: 200 echo, then {@code Connection: close};
 *   <li>{@code /v1/hold}: no answer until {@link #releaseHeld()};
 *   <li>{@code /v1/jobs/overview}: no jobs (for RestClusterClient#listJobs).
 * </ul>
 */
final class TestingRestServer implements AutoCloseable {

    private final NioEventLoopGroup group =
            new NioEventLoopGroup(1, new ExecutorThreadFactory("testing-rest-server"));
    private final Channel serverChannel;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final Map<Channel, Integer> open = new ConcurrentHashMap<>();
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean dropNext = new AtomicBoolean();
    private volatile FullHttpRequestSnapshot lastRequest;

    record FullHttpRequestSnapshot(
            String method, String uri, String connection, String host, String contentType) {}

    private record Held(ChannelHandlerContext ctx, boolean keepAlive, String body) {}

    TestingRestServer() throws InterruptedException {
        serverChannel =
                new ServerBootstrap()
                        .group(group)
                        .channel(NioServerSocketChannel.class)
                        .childHandler(
                                new ChannelInitializer<SocketChannel>() {
                                    @Override
                                    protected void initChannel(SocketChannel ch) {
                                        int index = accepted.incrementAndGet();
                                        open.put(ch, index);
                                        ch.closeFuture().addListener(ignored -> open.remove(ch));
                                        ch.pipeline()
                                                .addLast(new HttpServerCodec())
                                                .addLast(new HttpObjectAggregator(10 * 1024 * 1024))
                                                .addLast(new Router(index));
                                    }
                                })
                        .bind(new InetSocketAddress("127.0.0.1", 0))
                        .sync()
                        .channel();
    }

    int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** TCP connections accepted so far. */
    int acceptedConnections() {
        return accepted.get();
    }

    /** TCP connections open now. */
    int openConnections() {
        return open.size();
    }

    int requests() {
        return requests.get();
    }

    int heldRequests() {
        return held.size();
    }

    FullHttpRequestSnapshot lastRequest() {
        return lastRequest;
    }

    /** Answers every held request. */
    void releaseHeld() {
        for (Held h; (h = held.poll()) != null; ) {
            Held request = h;
            request.ctx()
                    .executor()
                    .execute(
                            () ->
                                    respond(
                                            request.ctx(),
                                            request.keepAlive(),
                                            HttpResponseStatus.OK,
                                            echo(
                                                    "/v1/hold",
                                                    connectionOf(request.ctx()),
                                                    request.body()),
                                            false));
        }
    }

    /**
     * The next request that arrives on a connection that already served one is dropped with its
     * connection.
     */
    void dropNextRequestOnUsedConnection() {
        dropNext.set(true);
    }

    /**
     * Accepts no new connection from now on (connects are refused), while open connections stay as
     * they are: what a client sees of a host that vanished, apart from the refusal coming at once
     * rather than after a timeout.
     */
    void stopAccepting() throws InterruptedException {
        serverChannel.close().await(5, TimeUnit.SECONDS);
    }

    /**
     * Closes every open connection from the server side, as a restarted JobManager or a proxy
     * would.
     */
    void closeAllConnections() throws InterruptedException {
        for (Channel channel : open.keySet()) {
            channel.close().await(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        serverChannel.close().await(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private int connectionOf(ChannelHandlerContext ctx) {
        return open.getOrDefault(ctx.channel(), -1);
    }

    private static String echo(String path, int connection, String body) {
        return "{\"path\":\""
                + path
                + "\",\"connection\":"
                + connection
                + ",\"body\":"
                + quote(body)
                + "}";
    }

    private static String quote(String text) {
        return "\""
                + text.replace("\\", "\\\\")
                        .replace("\"", "\\\"")
                        .replace("\r", "\\r")
                        .replace("\n", "\\n")
                + "\"";
    }

    private static void respond(
            ChannelHandlerContext ctx,
            boolean keepAlive,
            HttpResponseStatus status,
            String body,
            boolean plainText) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1,
                        status,
                        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers()
                .set(
                        HttpHeaderNames.CONTENT_TYPE,
                        plainText ? "text/plain" : "application/json; charset=UTF-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Answers one connection's requests, in order. */
    private final class Router extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final int connection;
        private int served;

        Router(int connection) {
            this.connection = connection;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (served > 0 && dropNext.compareAndSet(true, false)) {
                ctx.close();
                return;
            }
            served++;
            requests.incrementAndGet();
            lastRequest =
                    new FullHttpRequestSnapshot(
                            request.method().name(),
                            request.uri(),
                            request.headers().get(HttpHeaderNames.CONNECTION),
                            request.headers().get(HttpHeaderNames.HOST),
                            request.headers().get(HttpHeaderNames.CONTENT_TYPE));
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            String body = request.content().toString(StandardCharsets.UTF_8);
            String path = request.uri();
            switch (path) {
                case "/v1/error" ->
                        respond(
                                ctx,
                                keepAlive,
                                HttpResponseStatus.NOT_FOUND,
                                "{\"errors\":[\"no such thing\"]}",
                                false);
                case "/v1/plain" ->
                        respond(
                                ctx,
                                keepAlive,
                                HttpResponseStatus.INTERNAL_SERVER_ERROR,
                                "boom, not JSON",
                                true);
                case "/v1/too-large" ->
                        respond(
                                ctx,
                                keepAlive,
                                HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                                "{\"errors\":[\"too large\"]}",
                                false);
                case "/v1/close" ->
                        respond(
                                ctx,
                                false,
                                HttpResponseStatus.OK,
                                echo(path, connection, body),
                                false);
                case "/v1/hold" -> held.add(new Held(ctx, keepAlive, body));
                case "/v1/jobs/overview" ->
                        respond(ctx, keepAlive, HttpResponseStatus.OK, "{\"jobs\":[]}", false);
                default ->
                        respond(
                                ctx,
                                keepAlive,
                                HttpResponseStatus.OK,
                                echo(path, connection, body),
                                false);
            }
        }
    }
}
