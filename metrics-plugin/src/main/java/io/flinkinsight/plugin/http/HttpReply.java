package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response before it becomes Netty's: status, content type, body and extra headers. The body is
 * either complete ({@code body}) or still arriving ({@code stream}, then {@code body} is empty).
 * Owns its body until it is written or discarded; {@code afterWrite} runs once either way (the
 * scrape gives back its render permit there, the dashboard proxy its in-flight slot). {@code
 * refusal} says why the request was not served, for the server's count of refusals; null for
 * answers (Flink's own error answers through the proxy included).
 */
public record HttpReply(
        HttpResponseStatus status,
        String contentType,
        ByteBuf body,
        Map<String, String> headers,
        Runnable afterWrite,
        StreamedBody stream,
        RefusalReason refusal) {

    public static final String JSON = "application/json; charset=utf-8";

    public HttpReply {
        afterWrite = afterWrite == null ? () -> {} : once(afterWrite);
    }

    public HttpReply(
            HttpResponseStatus status,
            String contentType,
            ByteBuf body,
            Map<String, String> headers,
            Runnable afterWrite) {
        this(status, contentType, body, headers, afterWrite, null, null);
    }

    public HttpReply(
            HttpResponseStatus status,
            String contentType,
            ByteBuf body,
            Map<String, String> headers) {
        this(status, contentType, body, headers, null, null, null);
    }

    /** A reply whose body is written as it arrives, at the pace the connection takes it. */
    public static HttpReply streamed(
            HttpResponseStatus status,
            String contentType,
            StreamedBody stream,
            Map<String, String> headers,
            Runnable afterWrite) {
        return new HttpReply(
                status, contentType, Unpooled.EMPTY_BUFFER, headers, afterWrite, stream, null);
    }

    /**
     * The same reply, with {@code action} run (once) after it was written or discarded, before its
     * own.
     */
    public HttpReply alsoAfterWrite(Runnable action) {
        Runnable own = afterWrite;
        return new HttpReply(
                status,
                contentType,
                body,
                headers,
                () -> {
                    try {
                        action.run();
                    } finally {
                        own.run();
                    }
                },
                stream,
                refusal);
    }

    public static HttpReply error(HttpResponseStatus status, String message) {
        return error(status, message, Map.of());
    }

    public static HttpReply error(
            HttpResponseStatus status, String message, Map<String, String> headers) {
        return error(RefusalReason.of(status), status, message, headers);
    }

    /** An error answer counted under {@code reason}, for statuses that stand for more than one. */
    public static HttpReply error(
            RefusalReason reason,
            HttpResponseStatus status,
            String message,
            Map<String, String> headers) {
        return error(reason, status, Json.error(status.code(), message), headers);
    }

    public static HttpReply error(
            RefusalReason reason,
            HttpResponseStatus status,
            byte[] jsonBody,
            Map<String, String> headers) {
        return new HttpReply(
                status, JSON, Unpooled.wrappedBuffer(jsonBody), headers, null, null, reason);
    }

    public static HttpReply empty(HttpResponseStatus status, Map<String, String> headers) {
        return new HttpReply(status, null, Unpooled.EMPTY_BUFFER, headers);
    }

    /** Drops the reply unwritten: releases the body and runs {@code afterWrite}. */
    public void discard() {
        try {
            if (body.refCnt() > 0) {
                body.release();
            }
            if (stream != null) {
                stream.close();
            }
        } finally {
            afterWrite.run();
        }
    }

    private static Runnable once(Runnable action) {
        AtomicBoolean done = new AtomicBoolean();
        return () -> {
            if (done.compareAndSet(false, true)) {
                action.run();
            }
        };
    }
}
