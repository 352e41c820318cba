package io.flinkinsight.client.config;

import java.time.Duration;

/**
 * The admission options of a query, as {@link InteractiveClientSettings} read them.
 *
 * @param maxQueries {@link InteractiveClientOptions#MAX_QUERIES_IN_FLIGHT}
 * @param timeout {@link InteractiveClientOptions#ADMISSION_TIMEOUT}
 * @param maxHold {@link InteractiveClientOptions#ADMISSION_MAX_HOLD}
 */
public record AdmissionSettings(int maxQueries, Duration timeout, Duration maxHold) {}
