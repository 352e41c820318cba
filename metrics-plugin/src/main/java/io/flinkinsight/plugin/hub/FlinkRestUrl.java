package io.flinkinsight.plugin.hub;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;

/**
 * Where the JobManager's own REST API answers. An explicit URL wins; otherwise it is derived from
 * Flink's configuration ({@code FLINK_CONF_DIR}): the REST bind address when it names one
 * interface, else 127.0.0.1 (the server listens on all interfaces, and the hub runs in the same
 * process), and {@code rest.port}; with REST TLS, {@code rest.address} when set, the name Flink's
 * certificate is made out to.
 */
final class FlinkRestUrl {

    private FlinkRestUrl() {}

    /**
     * The explicit URL, or the one derived from {@code flink}, the configuration {@code
     * FLINK_CONF_DIR} points at.
     */
    static String resolve(String configured, Configuration flink) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        return fromConfiguration(flink);
    }

    @VisibleForTesting
    static String fromConfiguration(Configuration conf) {
        String bind = conf.get(RestOptions.BIND_ADDRESS);
        String host =
                bind == null || bind.isBlank() || isWildcard(bind.trim())
                        ? "127.0.0.1"
                        : bind.trim();
        String address = conf.get(RestOptions.ADDRESS);
        boolean tls = conf.get(SecurityOptions.SSL_REST_ENABLED);
        if (tls && address != null && !address.isBlank()) {
            host = address.trim(); // the name Flink's REST certificate is made out to, as its
            // clients use it
        }
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]"; // an IPv6 literal
        }
        int port = conf.get(RestOptions.PORT);
        // With TLS the hub trusts Flink's REST truststore (RestTls); the host must be in Flink's
        // REST certificate.
        String scheme = tls ? "https" : "http";
        return scheme + "://" + host + ":" + port;
    }

    private static boolean isWildcard(String address) {
        return address.equals("0.0.0.0")
                || address.equals("::")
                || address.equals("[::]")
                || address.equals("*");
    }
}
