package io.flinkinsight.plugin.http;

import org.apache.flink.annotation.VisibleForTesting;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body of the JDK's HTTP client handed on as a {@link StreamedBody} while it arrives: it
 * asks the client for one batch of buffers at a time, and for the next only while less than {@link
 * #READ_AHEAD_BYTES} wait for the connection towards the browser. The client stops reading the
 * socket while nothing is asked, so a slow reader holds back the upstream server instead of filling
 * memory: at most the read-ahead and one batch wait here per answer.
 */
public final class StreamingBodySubscriber
        implements HttpResponse.BodySubscriber<StreamedBody>, StreamedBody {

    /**
     * How much may wait here before the source is asked for no more: enough to keep a fast
     * connection busy between two batches, small next to any heap.
     */
    static final long READ_AHEAD_BYTES = 256 * 1024;

    private final long length;
    private final ArrayDeque<ByteBuffer> arrived = new ArrayDeque<>();
    private Flow.Subscription subscription;
    private Runnable wake = () -> {};
    private long held;
    private long peakHeld;
    private long progress;
    private boolean complete;
    private boolean closed;
    private Throwable failure;

    /**
     * @param length the Content-Length the server announced, or -1
     */
    StreamingBodySubscriber(long length) {
        this.length = length;
    }

    /** A body handler that streams every answer, with the length the server announced. */
    public static HttpResponse.BodyHandler<StreamedBody> handler() {
        return info ->
                new StreamingBodySubscriber(
                        info.headers().firstValueAsLong("content-length").orElse(-1L));
    }

    @Override
    public CompletionStage<StreamedBody> getBody() {
        return CompletableFuture.completedFuture(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        boolean cancel;
        synchronized (this) {
            subscription = s;
            cancel = closed;
        }
        if (cancel) {
            s.cancel();
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        boolean askForMore;
        Runnable toWake;
        synchronized (this) {
            if (closed) {
                return;
            }
            for (ByteBuffer item : items) {
                if (item.hasRemaining()) {
                    arrived.add(item);
                    held += item.remaining();
                }
            }
            peakHeld = Math.max(peakHeld, held);
            askForMore = held < READ_AHEAD_BYTES;
            toWake = wake;
        }
        if (askForMore) {
            subscription.request(1);
        }
        toWake.run();
    }

    @Override
    public void onError(Throwable error) {
        Runnable toWake;
        synchronized (this) {
            failure = error;
            toWake = wake;
        }
        toWake.run();
    }

    @Override
    public void onComplete() {
        Runnable toWake;
        synchronized (this) {
            complete = true;
            toWake = wake;
        }
        toWake.run();
    }

    @Override
    public void onReadable(Runnable wake) {
        synchronized (this) {
            this.wake = wake;
        }
    }

    @Override
    public synchronized boolean isEndOfInput() throws Exception {
        if (arrived.isEmpty() && failure != null) {
            throw new IOException("the upstream body failed after " + progress + " bytes", failure);
        }
        return closed || (complete && arrived.isEmpty());
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        ByteBuffer next;
        boolean askForMore;
        synchronized (this) {
            next = arrived.poll();
            if (next == null) {
                if (failure != null) {
                    throw new IOException(
                            "the upstream body failed after " + progress + " bytes", failure);
                }
                return null;
            }
            // Asked for again only when this take brings what is held below the read-ahead: while
            // at or above
            // it, no request is outstanding, so the source is asked once per crossing.
            boolean wasFull = held >= READ_AHEAD_BYTES;
            held -= next.remaining();
            progress += next.remaining();
            askForMore =
                    wasFull && held < READ_AHEAD_BYTES && !complete && failure == null && !closed;
        }
        if (askForMore) {
            subscription.request(1);
        }
        return Unpooled.wrappedBuffer(next);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public synchronized long progress() {
        return progress;
    }

    /** The most bytes that waited here at once for the connection to take them. */
    @VisibleForTesting
    public synchronized long peakHeldBytes() {
        return peakHeld;
    }

    @Override
    public void close() {
        Flow.Subscription toCancel;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            arrived.clear();
            held = 0;
            toCancel = complete || failure != null ? null : subscription;
        }
        if (toCancel != null) {
            toCancel.cancel();
        }
    }
}
