package io.flinkinsight.plugin.http;

/** A read-only JSON API endpoint: a pure function of its query parameters, routed by {@code InsightHttpServer}. */
@FunctionalInterface
public interface JsonEndpoint {

    /**
     * Returns a value Jackson can serialise (a record, map, list, ...), rendered as the 200 response body.
     *
     * @throws BadRequestException for a missing or malformed parameter; answered as a 400 JSON error
     */
    Object handle(QueryParameters query) throws BadRequestException;
}
