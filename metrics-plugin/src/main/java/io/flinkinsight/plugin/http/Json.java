package io.flinkinsight.plugin.http;

import org.apache.flink.annotation.VisibleForTesting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The plugin's one Jackson mapper: configured once, thread-safe, shared by every JSON response. */
public final class Json {

    private static final ObjectMapper MAPPER =
            new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    private static final ObjectWriter WRITER = MAPPER.writer();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    @VisibleForTesting
    public static byte[] toBytes(Object value) throws JsonProcessingException {
        return WRITER.writeValueAsBytes(value);
    }

    /**
     * Writes {@code value} to {@code out} as it is serialised, without a copy of the whole in
     * between.
     */
    public static void write(Object value, OutputStream out) throws IOException {
        WRITER.writeValue(out, value);
    }

    /** The error body every non-2xx answer carries: {@code {"error":"...","status":N}}. */
    public static byte[] error(int status, String message) {
        return error(status, message, Map.of());
    }

    /** An error body with further fields after {@code error} and {@code status}. */
    public static byte[] error(int status, String message, Map<String, Object> more) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        body.put("status", status);
        body.putAll(more);
        try {
            return WRITER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            // Cannot happen for a map of a string and an int; keep a valid body regardless.
            return ("{\"error\":\"internal error\",\"status\":" + status + "}")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }
}
