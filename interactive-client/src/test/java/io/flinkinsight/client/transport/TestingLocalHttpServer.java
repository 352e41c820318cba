package io.flinkinsight.client.transport;

import org.apache.flink.shaded.netty4.io.netty.bootstrap.ServerBootstrap;
import org.apache.flink.shaded.netty4.io.netty.buffer.Unpooled;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelFutureListener;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandlerContext;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelInitializer;
import org.apache.flink.shaded.netty4.io.netty.channel.DefaultEventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.flink.shaded.netty4.io.netty.channel.local.LocalAddress;
import org.apache.flink.shaded.netty4.io.netty.channel.local.LocalChannel;
import org.apache.flink.shaded.netty4.io.netty.channel.local.LocalServerChannel;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultFullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultFullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpMethod;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpObjectAggregator;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpServerCodec;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpUtil;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 server on an in-memory {@link LocalChannel} address, which counts its connections and
 * requests and answers each request as {@link #nextAnswers} says (else {@link Answer#OK}): the
 * keep-alive pool's counterpart in unit tests, with no socket bound. Its host and port only name
 * the address ({@link #addressOf}).
 */
final class TestingLocalHttpServer implements AutoCloseable {

    /** How the server answers one request. */
    enum Answer {
        /**
         * 200, body {@code connection <n>} (the server-side connection, from 1), the connection
         * kept alive.
         */
        OK,
        /** 200 with {@code Connection: close}, then the connection is closed. */
        CLOSE,
        /** 413: the request was too large. */
        TOO_LARGE,
        /** The connection is closed without an answer. */
        DROP,
        /** No answer until {@link #releaseHeld()}. */
        HOLD
    }

    final String host = "jobmanager-" + UUID.randomUUID();
    final int port = 8081;
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    final Queue<Answer> nextAnswers = new ConcurrentLinkedQueue<>();

    private final DefaultEventLoopGroup group = new DefaultEventLoopGroup(1);
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();
    private final AtomicInteger heldInAll = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Void>> heldSoFar = new ConcurrentHashMap<>();
    private final Channel serverChannel;

    private record Held(ChannelHandlerContext ctx, int connection) {}

    TestingLocalHttpServer() throws InterruptedException {
        serverChannel =
                new ServerBootstrap()
                        .group(group)
                        .channel(LocalServerChannel.class)
                        .childHandler(
                                new ChannelInitializer<LocalChannel>() {
                                    @Override
                                    protected void initChannel(LocalChannel channel) {
                                        int connection = connections.incrementAndGet();
                                        channel.pipeline()
                                                .addLast(
                                                        new HttpServerCodec(),
                                                        new HttpObjectAggregator(1 << 20),
                                                        new Answering(connection));
                                    }
                                })
                        .bind(addressOf(host, port))
                        .sync()
                        .channel();
    }

    /** The in-memory address of {@code host:port}, as the pools under test are told to reach it. */
    static LocalAddress addressOf(String host, int port) {
        return new LocalAddress(host + ':' + port);
    }

    /** A GET of {@code /v1/test} to this server, made anew for each attempt. */
    FullHttpRequest get() {
        FullHttpRequest request =
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/v1/test");
        request.headers().set(HttpHeaderNames.HOST, host + ':' + port);
        HttpUtil.setContentLength(request, 0);
        return request;
    }

    /** Answers every held request now. */
    void releaseHeld() {
        for (Held request = held.poll(); request != null; request = held.poll()) {
            Held answered = request;
            answered.ctx.executor().execute(() -> answer(answered.ctx, answered.connection, false));
        }
    }

    /** Completes once {@code count} requests have been held in all. */
    CompletableFuture<Void> held(int count) {
        CompletableFuture<Void> reached =
                heldSoFar.computeIfAbsent(count, ignored -> new CompletableFuture<>());
        if (heldInAll.get() >= count) {
            reached.complete(null);
        }
        return reached;
    }

    /** Waits until {@code count} requests have been held in all. */
    void awaitHeld(int count) throws Exception {
        held(count).get(10, TimeUnit.SECONDS);
    }

    private static void answer(ChannelHandlerContext ctx, int connection, boolean close) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1,
                        HttpResponseStatus.OK,
                        Unpooled.copiedBuffer("connection " + connection, StandardCharsets.UTF_8));
        HttpUtil.setContentLength(response, response.content().readableBytes());
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Answering extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final int connection;

        Answering(int connection) {
            this.connection = connection;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            requests.incrementAndGet();
            Answer next = nextAnswers.poll();
            switch (next == null ? Answer.OK : next) {
                case OK -> answer(ctx, connection, false);
                case CLOSE -> answer(ctx, connection, true);
                case TOO_LARGE -> {
                    FullHttpResponse tooLarge =
                            new DefaultFullHttpResponse(
                                    HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
                    HttpUtil.setContentLength(tooLarge, 0);
                    ctx.writeAndFlush(tooLarge);
                }
                case DROP -> ctx.close();
                case HOLD -> {
                    held.add(new Held(ctx, connection));
                    held(heldInAll.incrementAndGet()).complete(null);
                }
            }
        }
    }
}
