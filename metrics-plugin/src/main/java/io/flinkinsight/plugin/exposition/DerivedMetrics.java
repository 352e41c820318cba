package io.flinkinsight.plugin.exposition;

import io.flinkinsight.plugin.metrics.MetricFamily;

import java.util.List;

/**
 * The seam for figures derived from registered metrics (e.g. the client pool's hit rate from its hit and miss
 * counters): called once per scrape with the families being written. Implementations must be fast and must not
 * throw; a throwing one is skipped and counted as a scrape error.
 */
@FunctionalInterface
public interface DerivedMetrics {

    DerivedMetrics NONE = families -> List.of();

    List<DerivedFamily> derive(MetricFamily[] families);
}
