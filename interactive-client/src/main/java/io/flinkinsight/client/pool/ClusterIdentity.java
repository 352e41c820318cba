package io.flinkinsight.client.pool;

import io.flinkinsight.client.config.InteractiveClientSettings;

import org.apache.flink.configuration.Configuration;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which cluster a configuration talks to, and how: the options a {@code RestClusterClient} reads
 * when it is built (JobManager and REST addresses, port, path, HA, SSL and the REST client options
 * it captures, plus the channel pool options). Two configurations with the same identity share one
 * pooled client; other options (job name, parallelism, ...) do not split the pool. An identity also
 * carries the configuration and the client's settings it was made from, which do not count for
 * equality: the pooled client is built from those of the identity that first needed it.
 */
public final class ClusterIdentity {

    /**
     * Key prefixes of the options that shape a cluster client; {@code rest.} includes path,
     * timeouts and retries.
     */
    static final List<String> PREFIXES =
            List.of(
                    "rest.",
                    "jobmanager.rpc.",
                    "high-availability",
                    "security.ssl.",
                    "security.kerberos.",
                    "zookeeper.",
                    "kubernetes.",
                    "execution.interactive.rest.");

    private final SortedMap<String, String> options;
    private final Configuration configuration;
    private final InteractiveClientSettings settings;
    private final int hash;

    private ClusterIdentity(
            SortedMap<String, String> options,
            Configuration configuration,
            InteractiveClientSettings settings) {
        this.options = Collections.unmodifiableSortedMap(options);
        this.configuration = configuration;
        this.settings = settings;
        this.hash = options.hashCode();
    }

    /**
     * The identity of the cluster {@code conf} points at; keeps a copy of {@code conf} and {@code
     * settings}, read from {@code conf}, to build the client.
     */
    public static ClusterIdentity of(Configuration conf, InteractiveClientSettings settings) {
        SortedMap<String, String> options = new TreeMap<>();
        for (Map.Entry<String, String> entry : conf.toMap().entrySet()) {
            if (isIdentityOption(entry.getKey())) {
                options.put(
                        entry.getKey(), entry.getValue() == null ? "" : entry.getValue().trim());
            }
        }
        return new ClusterIdentity(options, new Configuration(conf), settings);
    }

    static boolean isIdentityOption(String key) {
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The configuration the pooled client is built from (the first one seen with this identity).
     */
    public Configuration configuration() {
        return configuration;
    }

    /** The client's settings, read from {@link #configuration()}. */
    public InteractiveClientSettings settings() {
        return settings;
    }

    /** The options that make up the identity, sorted by key. */
    public SortedMap<String, String> options() {
        return options;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterIdentity
                && hash == ((ClusterIdentity) o).hash
                && options.equals(((ClusterIdentity) o).options);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /**
     * Address and port only: identities can carry secrets (SSL passwords), so they are never
     * printed whole.
     */
    @Override
    public String toString() {
        return "cluster "
                + options.getOrDefault(
                        "rest.address", options.getOrDefault("jobmanager.rpc.address", "?"))
                + ":"
                + options.getOrDefault("rest.port", "8081");
    }
}
