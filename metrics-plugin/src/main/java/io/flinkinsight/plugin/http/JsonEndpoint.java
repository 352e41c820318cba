package io.flinkinsight.plugin.http;

import java.util.List;

/**
 * A read-only JSON API endpoint: a pure function of its query parameters, routed by {@code
 * InsightHttpServer}.
 */
@FunctionalInterface
public interface JsonEndpoint {

    /**
     * Returns a value Jackson can serialise (a record, map, list, ...), rendered as the 200
     * response body.
     *
     * @throws BadRequestException for a missing or malformed parameter; answered as a 400 JSON
     *     error
     */
    Object handle(QueryParameters query) throws BadRequestException;

    /**
     * The query parameters that make this endpoint's answer smaller, each with how (e.g. {@code
     * "from (a later start)"}), named in the 413 error when an answer is over {@code
     * http.max-answer-bytes}; empty when none does.
     */
    default List<String> narrowedBy() {
        return List.of();
    }

    /** {@code handler} with the parameters that narrow its answer. */
    static JsonEndpoint narrowedBy(JsonEndpoint handler, String... narrowers) {
        List<String> list = List.of(narrowers);
        return new JsonEndpoint() {
            @Override
            public Object handle(QueryParameters query) throws BadRequestException {
                return handler.handle(query);
            }

            @Override
            public List<String> narrowedBy() {
                return list;
            }
        };
    }
}
