package io.flinkinsight.plugin.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline for each request's whole head (request line and headers), armed when the connection
 * opens and at the first bytes after the previous head, and cleared when the codec has decoded a
 * head. The idle timeout alone does not stop a client that trickles one header line every few
 * seconds and so holds a connection slot for ever; this does. Sits before the HTTP codec, so it
 * sees the raw bytes; runs on the connection's event loop only.
 */
final class RequestHeadDeadline extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHeadDeadline.class);

    private final long timeoutNanos;
    private ScheduledFuture<?> deadline;

    RequestHeadDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Called by the handler after the codec when a request's head has been decoded on {@code ctx}'s
     * channel.
     */
    static void headReceived(ChannelHandlerContext ctx) {
        RequestHeadDeadline handler = ctx.pipeline().get(RequestHeadDeadline.class);
        if (handler != null) {
            handler.clear();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (deadline == null) {
            arm(ctx);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        clear();
        super.channelInactive(ctx);
    }

    private void arm(ChannelHandlerContext ctx) {
        deadline =
                ctx.executor()
                        .schedule(
                                () -> {
                                    LOG.debug(
                                            "Flink Insight HTTP: no complete request head from {} within {} ms; closing",
                                            ctx.channel().remoteAddress(),
                                            TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
                                    ctx.close();
                                },
                                timeoutNanos,
                                TimeUnit.NANOSECONDS);
    }

    private void clear() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
