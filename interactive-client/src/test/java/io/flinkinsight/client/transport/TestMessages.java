package io.flinkinsight.client.transport;

import org.apache.flink.runtime.rest.HttpMethodWrapper;
import org.apache.flink.runtime.rest.messages.EmptyMessageParameters;
import org.apache.flink.runtime.rest.messages.RequestBody;
import org.apache.flink.runtime.rest.messages.ResponseBody;
import org.apache.flink.runtime.rest.messages.RuntimeMessageHeaders;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonCreator;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;

/** REST messages of {@link TestingRestServer}, declared the way Flink declares its own. */
final class TestMessages {

    private TestMessages() {}

    /** The server's echo: the path asked, the server-side connection index, the request body. */
    static final class Echo implements ResponseBody {
        @JsonProperty("path")
        final String path;

        @JsonProperty("connection")
        final int connection;

        @JsonProperty("body")
        final String body;

        @JsonCreator
        Echo(
                @JsonProperty("path") String path,
                @JsonProperty("connection") int connection,
                @JsonProperty("body") String body) {
            this.path = path;
            this.connection = connection;
            this.body = body;
        }
    }

    /** A JSON request body. */
    static final class Text implements RequestBody, ResponseBody {
        @JsonProperty("text")
        final String text;

        @JsonCreator
        Text(@JsonProperty("text") String text) {
            this.text = text;
        }
    }

    static Headers<org.apache.flink.runtime.rest.messages.EmptyRequestBody> get(String path) {
        return new Headers<>(
                HttpMethodWrapper.GET,
                path,
                org.apache.flink.runtime.rest.messages.EmptyRequestBody.class);
    }

    static Headers<Text> post(String path) {
        return new Headers<>(HttpMethodWrapper.POST, path, Text.class);
    }

    /** Headers of one test route (version v1, so the URL is {@code /v1<path>}). */
    static final class Headers<R extends RequestBody>
            implements RuntimeMessageHeaders<R, Echo, EmptyMessageParameters> {
        private final HttpMethodWrapper method;
        private final String path;
        private final Class<R> requestClass;

        Headers(HttpMethodWrapper method, String path, Class<R> requestClass) {
            this.method = method;
            this.path = path;
            this.requestClass = requestClass;
        }

        @Override
        public Class<Echo> getResponseClass() {
            return Echo.class;
        }

        @Override
        public HttpResponseStatus getResponseStatusCode() {
            return HttpResponseStatus.OK;
        }

        @Override
        public String getDescription() {
            return "test route " + path;
        }

        @Override
        public Class<R> getRequestClass() {
            return requestClass;
        }

        @Override
        public EmptyMessageParameters getUnresolvedMessageParameters() {
            return EmptyMessageParameters.getInstance();
        }

        @Override
        public HttpMethodWrapper getHttpMethod() {
            return method;
        }

        @Override
        public String getTargetRestEndpointURL() {
            return path;
        }

        @Override
        public String operationId() {
            return method.name().toLowerCase() + path.replace("/", "_");
        }
    }
}
