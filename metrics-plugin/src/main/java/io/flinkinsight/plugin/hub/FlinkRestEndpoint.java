package io.flinkinsight.plugin.hub;

import io.flinkinsight.common.RateLimitedLog;
import io.flinkinsight.plugin.http.RestTls;

import org.apache.flink.configuration.Configuration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Flink's REST API as the hub reaches it: its base URL ({@link FlinkRestUrl}) and, when Flink's
 * REST API speaks TLS, the context to call it with ({@link RestTls}), both read from Flink's
 * configuration on first use and kept. Called on the hub's and the HTTP server's threads, never on
 * a Flink thread.
 */
final class FlinkRestEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkRestEndpoint.class);

    private final String configuredUrl;
    private final Supplier<Map<String, String>> flinkConfiguration;
    private final RateLimitedLog warnings;
    private volatile String url;

    /**
     * Flink's REST TLS, read with the URL; null when Flink's REST API is plain HTTP (or its stores
     * are unreadable).
     */
    private volatile RestTls tls;

    /**
     * @param configuredUrl {@code hub.flink-rest-url}, empty to derive it
     * @param flinkConfiguration Flink's configuration; may throw while it cannot be read
     */
    FlinkRestEndpoint(
            String configuredUrl,
            Supplier<Map<String, String>> flinkConfiguration,
            RateLimitedLog warnings) {
        this.configuredUrl = configuredUrl;
        this.flinkConfiguration = flinkConfiguration;
        this.warnings = warnings;
    }

    /** The base URL (e.g. {@code http://127.0.0.1:8081}); null while it cannot be resolved. */
    String url() {
        String resolved = url;
        if (resolved == null) {
            synchronized (this) {
                if (url == null) {
                    try {
                        Configuration flink = Configuration.fromMap(flinkConfiguration.get());
                        tls = readTls(flink);
                        url = FlinkRestUrl.resolve(configuredUrl, flink);
                    } catch (RuntimeException e) {
                        // Unresolved stays null, retried at the next call; the overview asking must
                        // still answer.
                        warnings.warn(
                                "Flink Insight hub: Flink's REST URL could not be resolved", e);
                    }
                }
                resolved = url;
            }
        }
        return resolved;
    }

    /** The TLS context to call it with, or null for plain HTTP; known once {@link #url()} is. */
    SSLContext tlsClient() {
        RestTls t = tls;
        return t == null ? null : t.client();
    }

    private RestTls readTls(Configuration flink) {
        try {
            RestTls read = RestTls.from(flink.toMap());
            if (read != null) {
                LOG.info(
                        "Flink Insight hub calls Flink's REST API over TLS with security.ssl.rest.truststore{}",
                        read.mutual()
                                ? " and presents security.ssl.rest.keystore (mutual authentication)"
                                : "");
            }
            return read;
        } catch (IllegalArgumentException e) {
            warnings.warn(
                    "Flink Insight hub: "
                            + e.getMessage()
                            + "; calls to Flink's REST API will fail",
                    e);
            return null;
        }
    }
}
