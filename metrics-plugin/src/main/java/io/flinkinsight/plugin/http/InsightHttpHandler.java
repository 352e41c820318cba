package io.flinkinsight.plugin.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One connection's requests: refuses what is malformed or not allowed on the network thread, hands
 * the rest to the worker executor (so a slow gauge never stalls I/O; the dashboard proxy answers
 * later from its own threads) and writes answers back in request order. Read-only: GET and HEAD
 * only, every other method is 405 on every path; request bodies are refused ({@link
 * RequestScreen}); {@link PortAccess} decides who is answered.
 */
final class InsightHttpHandler extends SimpleChannelInboundHandler<HttpObject> {

    private static final Logger LOG = LoggerFactory.getLogger(InsightHttpHandler.class);

    /** Pipelined requests waiting behind the one in progress; a client sending more is cut off. */
    private static final int MAX_PENDING = 16;

    /**
     * The most time one answer may take to be written: a client that reads too slowly (or not at
     * all) would hold the answer's heap (a scrape's shared body, whose write the scrape closes
     * sooner when newer renders of its format displace it). Generous next to Prometheus' own
     * timeout.
     */
    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);

    private final RequestHandler handler;
    private final RefusalReason.Counts refusals;
    private final Executor workers;
    private final PortAccess access;
    private final ArrayDeque<HttpRequest> pending = new ArrayDeque<>();
    private boolean busy;
    private boolean closing;

    InsightHttpHandler(
            RequestHandler handler,
            RefusalReason.Counts refusals,
            Executor workers,
            PortAccess access) {
        this.handler = handler;
        this.refusals = refusals;
        this.workers = workers;
        this.access = access;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        // Request bodies (HttpContent) are never read: requests that announce one are refused
        // below.
        if (!(msg instanceof HttpRequest request)) {
            return;
        }
        if (closing) {
            // Requests after one answered "Connection: close" are never answered: a client that
            // keeps sending them
            // (and does not read) must not make the decoder queue them up.
            ctx.close();
            return;
        }
        RequestHeadDeadline.headReceived(ctx);
        if (pending.size() >= MAX_PENDING) {
            closing = true;
            ctx.close();
            return;
        }
        // Invalid messages from the decoder may carry content; keep only what is needed.
        pending.add(request);
        ReferenceCountUtil.retain(request);
        if (!busy) {
            processNext(ctx);
        }
    }

    private void processNext(ChannelHandlerContext ctx) {
        HttpRequest request = pending.poll();
        if (request == null || !ctx.channel().isActive()) {
            busy = false;
            if (request != null) {
                ReferenceCountUtil.release(request);
            }
            return;
        }
        busy = true;
        try {
            handle(ctx, request);
        } finally {
            ReferenceCountUtil.release(request);
        }
    }

    private void handle(ChannelHandlerContext ctx, HttpRequest request) {
        RequestScreen.Refusal refused = RequestScreen.refusal(request);
        if (refused != null) {
            finish(ctx, request, refused.reply(), refused.close());
            return;
        }
        RequestTarget target;
        try {
            target = RequestTarget.parse(request.uri());
        } catch (TargetRefusal.Refused e) {
            finish(
                    ctx,
                    request,
                    HttpReply.error(HttpResponseStatus.BAD_REQUEST, e.getMessage()),
                    false);
            return;
        }
        int port =
                ctx.channel().localAddress() instanceof InetSocketAddress local
                        ? local.getPort()
                        : 0;
        boolean overTls = ctx.pipeline().get(SslHandler.class) != null;
        HttpReply login = access.tokenLogin(target, request.headers(), port, overTls);
        HttpReply refusal =
                login != null
                        ? login
                        : access.refusal(
                                target, request.headers(), ctx.channel().remoteAddress(), port);
        if (refusal != null) {
            finish(ctx, request, refusal, false);
            return;
        }
        // A scrape answered on this connection may be displaced by newer renders: closing the
        // connection (from any
        // thread) fails its write, which releases its view of the body.
        ClientConnection client =
                new ClientConnection(ClientAddress.of(ctx.channel().remoteAddress()), ctx::close);
        ReferenceCountUtil.retain(request);
        try {
            workers.execute(
                    () ->
                            handler.handle(target, request.headers(), client)
                                    .whenComplete(
                                            (reply, error) ->
                                                    answerLater(
                                                            ctx,
                                                            request,
                                                            reply != null
                                                                    ? reply
                                                                    : HttpReply.error(
                                                                            HttpResponseStatus
                                                                                    .INTERNAL_SERVER_ERROR,
                                                                            "internal error"))));
        } catch (RejectedExecutionException e) {
            ReferenceCountUtil.release(request);
            finish(
                    ctx,
                    request,
                    HttpReply.error(
                            RefusalReason.BUSY,
                            HttpResponseStatus.SERVICE_UNAVAILABLE,
                            "too many requests in progress",
                            Map.of("Retry-After", "1")),
                    false);
        }
    }

    /**
     * Called on a worker (or the dashboard proxy's) thread: hands the reply back to the
     * connection's event loop.
     */
    private void answerLater(ChannelHandlerContext ctx, HttpRequest request, HttpReply reply) {
        try {
            ctx.executor()
                    .execute(
                            () -> {
                                try {
                                    finish(ctx, request, reply, false);
                                } finally {
                                    ReferenceCountUtil.release(request);
                                }
                            });
        } catch (RejectedExecutionException e) {
            // The server is shutting down and the connection with it.
            reply.discard();
            ReferenceCountUtil.release(request);
        }
    }

    /**
     * Writes {@code reply} for {@code request}, then closes or goes on with the next pipelined
     * request.
     */
    private void finish(
            ChannelHandlerContext ctx, HttpRequest request, HttpReply reply, boolean close) {
        if (reply.refusal() != null) {
            refusals.count(reply.refusal());
        }
        boolean keepAlive = !close && !closing && HttpUtil.isKeepAlive(request);
        boolean head = request.method().equals(HttpMethod.HEAD);
        StreamedBody stream = reply.stream();
        long length = stream != null ? stream.length() : reply.body().readableBytes();
        // Large bodies go out in slices as the connection takes them, so direct memory never holds
        // one whole;
        // a streamed body arrives in slices anyway.
        boolean inSlices = !head && (stream != null || length > BodyChunks.CHUNK_BYTES);
        HttpResponse response;
        if (head) {
            reply.body().release();
            if (stream != null) {
                stream.close();
            }
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, reply.status());
        } else if (inSlices) {
            response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, reply.status());
        } else {
            response =
                    new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, reply.status(), reply.body());
        }
        var headers = response.headers();
        if (reply.contentType() != null) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        }
        if (reply.status() != HttpResponseStatus.NO_CONTENT) {
            if (length >= 0) {
                headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
            } else if (!head) {
                HttpUtil.setTransferEncodingChunked(response, true);
            }
        }
        String origin = access.allowedOrigin(request.headers());
        if (origin != null) {
            headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.set(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
        }
        headers.set("X-Content-Type-Options", "nosniff");
        reply.headers().forEach(headers::set);
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            closing = true;
            ctx.channel()
                    .config()
                    .setAutoRead(false); // nothing more is read from a connection about to close
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (!ctx.channel().isActive()) {
            if (response instanceof FullHttpResponse full) {
                ReferenceCountUtil.release(full); // the body, or nothing for HEAD
            } else {
                reply.discard();
            }
            reply.afterWrite().run();
            busy = false;
            return;
        }
        ChannelFuture written;
        if (inSlices && stream != null) {
            ChunkedWriteHandler writer = ctx.pipeline().get(ChunkedWriteHandler.class);
            // Always as a task of its own, never from inside a read in progress (the source may
            // deliver while
            // being asked for more), so pieces are written in the order they came.
            stream.onReadable(
                    () -> {
                        try {
                            ctx.executor().execute(writer::resumeTransfer);
                        } catch (RejectedExecutionException e) {
                            // The server is shutting down and the connection with it.
                        }
                    });
            ctx.write(response);
            written = ctx.writeAndFlush(new HttpChunkedInput(stream));
        } else if (inSlices) {
            ctx.write(response);
            written = ctx.writeAndFlush(new HttpChunkedInput(new BodyChunks(reply.body())));
        } else {
            written = ctx.writeAndFlush(response);
        }
        // A reader too slow to take the answer in time loses the connection, which frees what the
        // answer holds.
        // Most answers are written by the flush itself; only one still under way needs the timer.
        ScheduledFuture<?> deadline =
                written.isDone()
                        ? null
                        : ctx.executor()
                                .schedule(
                                        () -> {
                                            LOG.debug(
                                                    "Flink Insight HTTP: {} did not take its answer within {}; closing",
                                                    ctx.channel().remoteAddress(),
                                                    WRITE_TIMEOUT);
                                            ctx.close();
                                        },
                                        WRITE_TIMEOUT.toMillis(),
                                        TimeUnit.MILLISECONDS);
        written.addListener(
                (ChannelFutureListener)
                        f -> {
                            if (deadline != null) {
                                deadline.cancel(false);
                            }
                            if (stream != null) {
                                stream.close(); // gives the source up if the write failed before
                                // its end
                            }
                            reply.afterWrite().run();
                            if (!keepAlive || !f.isSuccess()) {
                                f.channel().close();
                                drainPending();
                            } else {
                                processNext(ctx);
                            }
                        });
    }

    private void drainPending() {
        busy = false;
        HttpRequest r;
        while ((r = pending.poll()) != null) {
            ReferenceCountUtil.release(r);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else {
            super.userEventTriggered(ctx, evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        drainPending();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Flink Insight HTTP connection failed; closing it", cause);
        ctx.close();
    }
}
