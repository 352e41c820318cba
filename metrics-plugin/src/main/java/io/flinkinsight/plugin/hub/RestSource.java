package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;

/** A read-only view of Flink's REST API: GET a path (with query) and parse the JSON body. */
@FunctionalInterface
interface RestSource {

    /**
     * @param pathAndQuery e.g. {@code /jobs/overview}
     * @throws IOException when the request fails, times out or answers other than 2xx ({@link NotFound} for 404)
     */
    JsonNode get(String pathAndQuery) throws IOException, InterruptedException;

    /** Flink answered 404: e.g. the checkpoints of a job that does not checkpoint. */
    final class NotFound extends IOException {
        NotFound(String message) {
            super(message);
        }
    }
}
