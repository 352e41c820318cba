package org.apache.flink.client.program.rest;

import org.apache.flink.client.program.rest.retry.ExponentialWaitStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rest.RestClient;

/**
 * Reaches the package-private {@code RestClusterClient(Configuration, RestClient, T, WaitStrategy)} constructor of
 * Flink 2.2, so a {@link RestClusterClient} can run on a {@link RestClient} of our own (Flink Insight's keep-alive
 * transport). This works only when this class and flink-dist are loaded by the same class loader (the jar is in
 * Flink's {@code lib/}); otherwise, or when a Flink version lacks the constructor, the call fails with a {@link
 * LinkageError} that callers catch.
 */
public final class InsightRestClusterClientAccess {

    private InsightRestClusterClientAccess() {}

    /** A client on {@code restClient}, with the wait strategy that Flink's public constructors use. */
    public static <T> RestClusterClient<T> create(Configuration configuration, RestClient restClient, T clusterId)
            throws Exception {
        return new RestClusterClient<>(configuration, restClient, clusterId, new ExponentialWaitStrategy(10L, 2000L));
    }
}
