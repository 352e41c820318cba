package io.flinkinsight.plugin.exposition;

/** The two scrape formats, chosen from the request's {@code Accept} header. */
public enum ExpositionFormat {
    PROMETHEUS_TEXT("text/plain; version=0.0.4; charset=utf-8"),
    OPENMETRICS("application/openmetrics-text; version=1.0.0; charset=utf-8");

    private final String contentType;

    ExpositionFormat(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }

    /**
     * OpenMetrics when the client lists it at all (Prometheus does by default, preferring it),
     * otherwise text 0.0.4, as prometheus/client_java negotiates.
     */
    public static ExpositionFormat negotiate(String accept) {
        return accept != null && accept.contains("application/openmetrics-text")
                ? OPENMETRICS
                : PROMETHEUS_TEXT;
    }
}
