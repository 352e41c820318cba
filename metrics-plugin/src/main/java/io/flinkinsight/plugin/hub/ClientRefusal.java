package io.flinkinsight.plugin.hub;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Why part of a client process's answer was not recorded, for {@code
 * flink_insight_hub_client_refused_total}.
 */
enum ClientRefusal {
    /** The answer was larger than {@link ClientGatherer#MAX_BODY_BYTES}. */
    ANSWER_TOO_LARGE,
    /**
     * The round had read {@link ClientGatherer#MAX_ROUND_BYTES}; the port waits for the next round.
     */
    ROUND_BUDGET,
    /** A figure with too many labels, or a label name or value too long. */
    LABELS,
    /**
     * Figures beyond {@link SeriesAdmission#MAX_FIGURES_PER_CLIENT} or {@link
     * SeriesAdmission#MAX_FIGURES}, or metrics beyond {@link
     * ClientAnswerRecorder#MAX_METRICS_PER_CLIENT}.
     */
    TOO_MANY_SERIES,
    /**
     * Queries a gateway dropped from its log before the hub read them ({@link QueryFeedReader}).
     */
    QUERIES_MISSED,
    /**
     * Queries of a gateway's log the hub refused: an answer whose numbers do not hold together, a
     * query without a statement or time, outside the last day, or beyond {@link
     * QueryFeedReader#MAX_NEW_STATEMENTS} new statements a page.
     */
    QUERIES_REFUSED;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What was refused so far, by reason; counted from the hub's thread and the HTTP client's. */
    static final class Counts {
        private final Map<ClientRefusal, LongAdder> counts = new EnumMap<>(ClientRefusal.class);

        Counts() {
            for (ClientRefusal r : values()) {
                counts.put(r, new LongAdder());
            }
        }

        void add(ClientRefusal reason, long n) {
            counts.get(reason).add(n);
        }

        void count(ClientRefusal reason) {
            counts.get(reason).increment();
        }

        long get(ClientRefusal reason) {
            return counts.get(reason).sum();
        }

        /**
         * Every reason by its label, with its count so far, zeros included, in declaration order.
         */
        Map<String, Long> snapshot() {
            Map<String, Long> out = new LinkedHashMap<>();
            counts.forEach((reason, count) -> out.put(reason.label(), count.sum()));
            return out;
        }
    }
}
