package io.flinkinsight.plugin.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into one array, but at most {@code maxBytes}: a longer body (announced
 * or streamed) cancels the download and fails with {@link BodyTooLargeException}, so a proxied
 * answer never takes unbounded heap.
 */
public final class LimitedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

    /** The body was longer than the limit. */
    public static final class BodyTooLargeException extends IOException {
        BodyTooLargeException(long maxBytes) {
            super("the response body is larger than " + maxBytes + " bytes");
        }
    }

    private final long maxBytes;
    private final long declaredLength;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final List<ByteBuffer> parts = new ArrayList<>();
    private Flow.Subscription subscription;
    private long received;

    /**
     * @param declaredLength the Content-Length the server announced, or -1
     */
    LimitedBodySubscriber(long maxBytes, long declaredLength) {
        this.maxBytes = maxBytes;
        this.declaredLength = declaredLength;
    }

    /** A body handler that reads the announced length from the response headers. */
    public static HttpResponse.BodyHandler<byte[]> handler(long maxBytes) {
        return info ->
                new LimitedBodySubscriber(
                        maxBytes, info.headers().firstValueAsLong("content-length").orElse(-1L));
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declaredLength > maxBytes) {
            s.cancel();
            body.completeExceptionally(new BodyTooLargeException(maxBytes));
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            received += item.remaining();
            if (received > maxBytes) {
                parts.clear();
                subscription.cancel();
                body.completeExceptionally(new BodyTooLargeException(maxBytes));
                return;
            }
            parts.add(item);
        }
    }

    @Override
    public void onError(Throwable error) {
        parts.clear();
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        if (body.isDone()) {
            return;
        }
        byte[] bytes = new byte[(int) received];
        int offset = 0;
        for (ByteBuffer part : parts) {
            int n = part.remaining();
            part.get(bytes, offset, n);
            offset += n;
        }
        parts.clear();
        body.complete(bytes);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    /** Whether {@code t} or one of its causes is a {@link BodyTooLargeException}. */
    public static boolean isTooLarge(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }
}
