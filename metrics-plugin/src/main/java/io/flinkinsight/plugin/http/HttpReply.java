package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A response before it becomes Netty's: status, content type, body and extra headers. Owns {@code body} until it is
 * written or released.
 */
public record HttpReply(HttpResponseStatus status, String contentType, ByteBuf body, Map<String, String> headers) {

    public static final String JSON = "application/json; charset=utf-8";

    public static HttpReply error(HttpResponseStatus status, String message) {
        return error(status, message, Map.of());
    }

    public static HttpReply error(HttpResponseStatus status, String message, Map<String, String> headers) {
        return new HttpReply(status, JSON, Unpooled.wrappedBuffer(Json.error(status.code(), message)), headers);
    }

    public static HttpReply empty(HttpResponseStatus status, Map<String, String> headers) {
        return new HttpReply(status, null, Unpooled.EMPTY_BUFFER, headers);
    }
}
