package io.flinkinsight.client.transport;

import org.apache.flink.runtime.rest.messages.ErrorResponseBody;
import org.apache.flink.runtime.rest.messages.MessageHeaders;
import org.apache.flink.runtime.rest.util.RestClientException;
import org.apache.flink.runtime.rest.util.RestMapperUtils;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonParser;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JavaType;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.MissingNode;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;

/**
 * JSON of REST requests and responses, exactly as Flink's {@code RestClient} 2.2 writes and reads
 * them (same mappers, same error bodies, same exceptions), but with one mapper copy per thread
 * instead of Flink's JVM-wide ones.
 */
final class RestResponses {

    private static final Logger LOG = LoggerFactory.getLogger(RestResponses.class);

    // Copies keep each thread's serializer caches to itself; Flink's RestClient shares two mappers
    // JVM-wide.
    private static final ThreadLocal<ObjectMapper> STRICT =
            ThreadLocal.withInitial(() -> RestMapperUtils.getStrictObjectMapper().copy());
    private static final ThreadLocal<ObjectMapper> FLEXIBLE =
            ThreadLocal.withInitial(() -> RestMapperUtils.getFlexibleObjectMapper().copy());

    private RestResponses() {}

    /** The request body as RestClient serializes it (strict mapper, UTF-8). */
    static byte[] serialize(Object requestBody) throws IOException {
        return STRICT.get().writeValueAsBytes(requestBody);
    }

    /** The type RestClient reads a response of {@code headers} into. */
    static JavaType responseType(MessageHeaders<?, ?, ?> headers) {
        ObjectMapper mapper = STRICT.get();
        Collection<Class<?>> typeParameters = headers.getResponseTypeParameters();
        if (typeParameters.isEmpty()) {
            return mapper.constructType(headers.getResponseClass());
        }
        return mapper.getTypeFactory()
                .constructParametricType(
                        headers.getResponseClass(), typeParameters.toArray(new Class<?>[0]));
    }

    /**
     * Reads a full response the way RestClient does: a body of the form {@code {"errors": [...]}}
     * becomes a {@link RestClientException} with the response status, whatever the status; a body
     * that is no JSON becomes a "plain-text" RestClientException; anything else is read into {@code
     * type}.
     */
    static <P> P parse(HttpResponseStatus status, byte[] body, JavaType type)
            throws RestClientException {
        JsonNode json;
        try {
            json = STRICT.get().readTree(body);
        } catch (JsonProcessingException notJson) {
            // same text and cause as RestClient; new String(byte[]) like RestClient (platform
            // charset)
            String message = new String(body);
            LOG.debug("Unexpected plain-text response ({}): {}", status, message);
            throw new RestClientException(
                    "Response was not valid JSON, but plain-text: " + message, notJson, status);
        } catch (IOException e) {
            throw new RestClientException("Response could not be read.", e, status);
        }
        // an empty body: RestClient would fail with a NullPointerException here; report it like any
        // other mismatch
        return parse(status, json == null ? MissingNode.getInstance() : json, type);
    }

    private static <P> P parse(HttpResponseStatus status, JsonNode json, JavaType type)
            throws RestClientException {
        ObjectMapper strict = STRICT.get();
        try {
            if (json.size() == 1 && json.has("errors")) {
                ErrorResponseBody error = strict.treeToValue(json, ErrorResponseBody.class);
                throw new RestClientException(error.errors.toString(), status);
            }
            JsonParser parser = strict.treeAsTokens(json);
            return FLEXIBLE.get().readValue(parser, type);
        } catch (IOException e) {
            LOG.debug(
                    "Response was neither of the expected type ({}) nor an error: {}",
                    type,
                    json,
                    e);
            throw new RestClientException(
                    "Response was neither of the expected type(" + type + ") nor an error.",
                    e,
                    status);
        }
    }
}
