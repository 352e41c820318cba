package io.flinkinsight.plugin.http;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

import java.util.Map;

/**
 * What {@link InsightHttpHandler} refuses by a request's form alone, before its target is read:
 * what the decoder could not read, methods other than GET and HEAD (the port is read-only), request
 * bodies and overlong targets.
 */
final class RequestScreen {

    private static final String ALLOW = "GET, HEAD";

    /**
     * The answer to a refused request, and whether the connection is closed after it (its body was
     * not read, or the request could not be).
     */
    record Refusal(HttpReply reply, boolean close) {}

    private RequestScreen() {}

    /** The refusal of {@code request} by its form, or null when it may go on. */
    static Refusal refusal(HttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            Throwable cause = decoded.cause();
            if (cause instanceof TooLongHttpLineException) {
                return new Refusal(
                        HttpReply.error(
                                HttpResponseStatus.REQUEST_URI_TOO_LONG, "request line too long"),
                        true);
            } else if (cause instanceof TooLongHttpHeaderException) {
                return new Refusal(
                        HttpReply.error(
                                HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                                "request headers too large"),
                        true);
            } else {
                return new Refusal(
                        HttpReply.error(HttpResponseStatus.BAD_REQUEST, "malformed request"), true);
            }
        }
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            return new Refusal(
                    HttpReply.error(
                            HttpResponseStatus.METHOD_NOT_ALLOWED,
                            "only GET and HEAD are served: nothing on this port changes the cluster",
                            Map.of("Allow", ALLOW)),
                    hasBody(request));
        }
        if (hasBody(request)) {
            // The body was not read, so the connection cannot be reused.
            return new Refusal(
                    HttpReply.error(
                            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                            "request bodies are not accepted"),
                    true);
        }
        if (request.uri().length() > HttpServerSettings.MAX_URI_LENGTH) {
            return new Refusal(
                    HttpReply.error(
                            HttpResponseStatus.REQUEST_URI_TOO_LONG, "request target too long"),
                    true);
        }
        return null;
    }

    private static boolean hasBody(HttpRequest request) {
        return HttpUtil.getContentLength(request, 0L) > 0
                || HttpUtil.isTransferEncodingChunked(request);
    }
}
