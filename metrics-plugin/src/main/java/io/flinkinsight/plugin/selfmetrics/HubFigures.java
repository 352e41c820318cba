package io.flinkinsight.plugin.selfmetrics;

import java.util.Map;

/**
 * The hub's figures about itself, read afresh for each scrape.
 *
 * @param leading whether this JobManager leads its cluster, i.e. its hub polls
 * @param restRequests requests the hub sent to Flink's REST API so far
 * @param clientRequests requests the hub sent to the client processes ({@code hub.clients}) so far
 * @param clientRefusals the parts of clients' answers the hub did not record, by reason
 */
public record HubFigures(
        boolean leading,
        long restRequests,
        long clientRequests,
        Map<String, Long> clientRefusals) {}
