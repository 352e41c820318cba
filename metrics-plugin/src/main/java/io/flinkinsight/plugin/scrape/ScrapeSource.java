package io.flinkinsight.plugin.scrape;

import io.flinkinsight.plugin.exposition.ExpositionBuffer;
import io.flinkinsight.plugin.exposition.ExpositionFormat;

/** Writes the scrape body of {@code GET /metrics}; runs on an HTTP worker thread. */
@FunctionalInterface
public interface ScrapeSource {

    void write(ExpositionFormat format, ExpositionBuffer out);
}
