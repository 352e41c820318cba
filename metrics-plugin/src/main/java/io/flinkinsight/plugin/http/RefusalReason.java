package io.flinkinsight.plugin.http;

import io.netty.handler.codec.http.HttpResponseStatus;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Why the server did not serve a request, as the {@code reason} label of {@code
 * flink_insight_requests_refused_total}. Answers Flink gave through the dashboard proxy are
 * Flink's, not refusals, and are never counted.
 */
public enum RefusalReason {
    BAD_REQUEST("bad_request"),
    UNAUTHORIZED("unauthorized"),
    FORBIDDEN("forbidden"),
    NOT_FOUND("not_found"),
    METHOD_NOT_ALLOWED("method_not_allowed"),
    REQUEST_TOO_LARGE("request_too_large"),
    ANSWER_TOO_LARGE("answer_too_large"),
    TOO_MANY_SCRAPES("too_many_scrapes"),
    BUSY("busy"),
    TOO_MANY_CONNECTIONS("too_many_connections"),
    UPSTREAM_FAILED("upstream_failed"),
    INTERNAL_ERROR("internal_error");

    private final String label;

    RefusalReason(String label) {
        this.label = label;
    }

    /** The label value: lower case, Prometheus-safe. */
    public String label() {
        return label;
    }

    /** The reason an error status stands for when its producer named none; null below 400. */
    static RefusalReason of(HttpResponseStatus status) {
        int code = status.code();
        if (code < 400) {
            return null;
        }
        return switch (code) {
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 413, 414, 431 -> REQUEST_TOO_LARGE;
            case 503 -> BUSY;
            case 502, 504 -> UPSTREAM_FAILED;
            default -> code >= 500 ? INTERNAL_ERROR : BAD_REQUEST;
        };
    }

    /** Refusals counted by reason, server-wide. */
    public static final class Counts {
        private final Map<RefusalReason, LongAdder> counts = new EnumMap<>(RefusalReason.class);

        Counts() {
            for (RefusalReason r : values()) {
                counts.put(r, new LongAdder());
            }
        }

        void count(RefusalReason reason) {
            counts.get(reason).increment();
        }

        /** Every reason with its count so far, zeros included, in declaration order. */
        public Map<RefusalReason, Long> snapshot() {
            Map<RefusalReason, Long> out = new EnumMap<>(RefusalReason.class);
            counts.forEach((r, n) -> out.put(r, n.sum()));
            return out;
        }
    }
}
