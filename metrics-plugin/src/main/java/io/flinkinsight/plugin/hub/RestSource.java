package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;

/** A read-only view of Flink's REST API: GET a path (with query) and parse the JSON body. */
@FunctionalInterface
interface RestSource {

    /**
     * @param pathAndQuery e.g. {@code /jobs/overview}
     * @throws IOException when the request fails or times out; {@link RestStatusException} when it
     *     answers other than 2xx (404: e.g. the checkpoints of a job that does not checkpoint)
     */
    JsonNode get(String pathAndQuery) throws IOException, InterruptedException;
}
