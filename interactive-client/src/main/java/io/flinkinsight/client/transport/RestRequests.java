package io.flinkinsight.client.transport;

import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.messages.MessageHeaders;

import org.apache.flink.shaded.netty4.io.netty.buffer.Unpooled;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultFullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaders;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpMethod;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpVersion;

/**
 * A request as Flink's {@link RestClient} writes it (its URL and headers), but kept alive; the twin
 * of {@link RestResponses}. Flink keeps these private.
 */
final class RestRequests {

    private RestRequests() {}

    // RestClient.constructVersionedHandlerUrl (private in Flink)
    static String versionedUrl(
            MessageHeaders<?, ?, ?> headers, String versionPrefix, String urlPrefix) {
        String targetUrl = headers.getTargetRestEndpointURL();
        if (targetUrl.contains(RestClient.VERSION_PLACEHOLDER)) {
            return targetUrl.replace(RestClient.VERSION_PLACEHOLDER, versionPrefix);
        }
        return urlPrefix + versionPrefix + targetUrl;
    }

    // RestClient.createRequest, but keep-alive, and with the multipart body (if any) in memory
    static FullHttpRequest newRequest(
            String host,
            String targetUrl,
            HttpMethod method,
            byte[] body,
            String contentType,
            MessageHeaders<?, ?, ?> messageHeaders) {
        FullHttpRequest request =
                new DefaultFullHttpRequest(
                        HttpVersion.HTTP_1_1, method, targetUrl, Unpooled.wrappedBuffer(body));
        HttpHeaders headers = request.headers();
        headers.set(HttpHeaderNames.HOST, host)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
                .add(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .add(HttpHeaderNames.CONTENT_TYPE, contentType);
        messageHeaders
                .getCustomHeaders()
                .forEach(header -> headers.set(header.getName(), header.getValue()));
        return request;
    }
}
