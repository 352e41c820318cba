package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response before it becomes Netty's: status, content type, body and extra headers. Owns {@code body} until it is
 * written or discarded; {@code afterWrite} runs once either way (the scrape gives back its render permit there).
 */
public record HttpReply(
        HttpResponseStatus status,
        String contentType,
        ByteBuf body,
        Map<String, String> headers,
        Runnable afterWrite) {

    public static final String JSON = "application/json; charset=utf-8";

    public HttpReply {
        afterWrite = afterWrite == null ? () -> { } : once(afterWrite);
    }

    public HttpReply(HttpResponseStatus status, String contentType, ByteBuf body, Map<String, String> headers) {
        this(status, contentType, body, headers, null);
    }

    public static HttpReply error(HttpResponseStatus status, String message) {
        return error(status, message, Map.of());
    }

    public static HttpReply error(HttpResponseStatus status, String message, Map<String, String> headers) {
        return new HttpReply(status, JSON, Unpooled.wrappedBuffer(Json.error(status.code(), message)), headers);
    }

    public static HttpReply empty(HttpResponseStatus status, Map<String, String> headers) {
        return new HttpReply(status, null, Unpooled.EMPTY_BUFFER, headers);
    }

    /** Drops the reply unwritten: releases the body and runs {@code afterWrite}. */
    void discard() {
        try {
            if (body.refCnt() > 0) {
                body.release();
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
