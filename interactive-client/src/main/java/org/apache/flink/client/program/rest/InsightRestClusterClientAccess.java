package org.apache.flink.client.program.rest;

import org.apache.flink.client.program.rest.retry.ExponentialWaitStrategy;
import org.apache.flink.client.program.rest.retry.WaitStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rest.RestClient;

import javax.annotation.Nullable;

/**
 * Reaches the package-private {@code RestClusterClient(Configuration, RestClient, T, WaitStrategy)}
 * constructor (present from Flink 1.20 to 2.3), so a {@link RestClusterClient} can run on a {@link
 * RestClient} of our own (Flink Insight's keep-alive transport). This works only when this class
 * and flink-dist are loaded by the same class loader (the jar is in Flink's {@code lib/}), which
 * {@link #unusableBecause()} checks before anyone calls {@link #create}.
 */
public final class InsightRestClusterClientAccess {

    private InsightRestClusterClientAccess() {}

    /**
     * A client on {@code restClient}, with the wait strategy that Flink's public constructors use.
     */
    public static <T> RestClusterClient<T> create(
            Configuration configuration, RestClient restClient, T clusterId) throws Exception {
        return new RestClusterClient<>(
                configuration, restClient, clusterId, new ExponentialWaitStrategy(10L, 2000L));
    }

    /**
     * Why {@link #create} cannot work here, or null if it can: a package-private constructor is
     * reachable only from the same package of the same class loader, and only if this Flink has it.
     */
    @Nullable
    public static String unusableBecause() {
        if (RestClusterClient.class.getClassLoader()
                != InsightRestClusterClientAccess.class.getClassLoader()) {
            return "the interactive-client jar is not loaded with Flink's own classes ("
                    + RestClusterClient.class.getName()
                    + " comes from another class loader)";
        }
        try {
            RestClusterClient.class.getDeclaredConstructor(
                    Configuration.class, RestClient.class, Object.class, WaitStrategy.class);
            return null;
        } catch (NoSuchMethodException e) {
            return "this Flink's RestClusterClient has no constructor taking a RestClient";
        }
    }
}
