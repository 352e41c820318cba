package io.flinkinsight.plugin.store.statement;

import java.util.List;
import java.util.Map;

/**
 * What a {@link StatementStore} holds, as the hub writes it to disk and reads it back: every
 * statement's figures and kept queries, the query log, and how far the hub had read each gateway's
 * log when they were taken, so that a hub that starts again goes on reading each gateway's log from
 * there and counts no query twice. Public only for the durable stores; not an API of the plugin.
 */
public record StatementsSnapshot(
        List<Statement> statements, List<QuerySample> log, Map<String, FeedPosition> read) {

    /** One statement's figures since first seen, and its slowest and latest queries. */
    public record Statement(
            String id,
            String statement,
            long firstSeenMillis,
            long lastSeenMillis,
            long calls,
            long failed,
            long canceled,
            long totalMs,
            long maxMs,
            long outsideJobMs,
            long outsideJobCalls,
            long[] e2e,
            long[] clusterRun,
            Map<String, long[]> parts,
            List<QuerySample> slowest,
            List<QuerySample> latest) {}

    /** How far a gateway's log was read: its log's instance and the last number read. */
    public record FeedPosition(String instance, long lastSeq) {}
}
