package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.http.HttpServerSettings;
import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.http.RestTls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The port's transport settings from the options and Flink's configuration: its TLS (Flink's REST
 * key), and who may use what on it (the process's own host names allowed; only {@code /metrics}
 * when Flink's REST API wants client certificates and the port has none to ask for).
 */
final class PortSettings {

    private static final Logger LOG = LoggerFactory.getLogger(PortSettings.class);

    private PortSettings() {}

    /**
     * The settings, or null when HTTPS was asked for and cannot be served (logged: never plain HTTP
     * instead).
     */
    static HttpServerSettings of(
            InsightConfiguration config, Map<String, String> flinkConfiguration) {
        RestTls tls = null;
        if (config.httpSsl()) {
            tls = serverTls(flinkConfiguration);
            if (tls == null) {
                return null;
            }
        }
        PortAccess access = config.access().withOwnHostNames(HostNames.own(flinkConfiguration));
        if (tls == null && RestTls.mutualRequested(flinkConfiguration)) {
            // Flink's REST API answers only clients with its certificate: the panel, the API and
            // the proxy (which
            // present that certificate to Flink) must not answer anyone without it.
            access =
                    access.onlyScrape(
                            "Flink's REST API asks its clients for a certificate"
                                    + " (security.ssl.rest.authentication-enabled), so this port serves the panel, its API and"
                                    + " Flink's dashboard only over HTTPS to the same clients: set"
                                    + " metrics.reporter.insight.http.ssl.enabled: true; /metrics is open");
            LOG.info(
                    "Flink Insight: Flink's REST API uses mutual TLS and {}http.ssl.enabled is off, so this port"
                            + " serves /metrics only",
                    InsightOptions.USER_PREFIX);
        }
        if (access.isLoopback()) {
            String sidecar = HostNames.meshSidecar();
            if (sidecar != null) {
                LOG.warn(
                        "Flink Insight: a service-mesh sidecar runs beside this process ({}): it forwards remote"
                                + " clients from loopback, so http.access: loopback (the default) serves the panel, its API"
                                + " and Flink's dashboard to every client the mesh lets reach this port; set"
                                + " metrics.reporter.insight.http.access: token there",
                        sidecar);
            }
        }
        return new HttpServerSettings(
                config.ports(),
                config.bindHost(),
                config.maxRequestHeaderBytes(),
                config.idleTimeout(),
                config.maxConnections(),
                config.httpThreads(),
                config.maxConnectionsPerAddress(),
                config.requestHeadTimeout(),
                access,
                tls);
    }

    /**
     * Flink's REST TLS for the port (http.ssl.enabled), or null when it cannot serve HTTPS
     * (logged).
     */
    private static RestTls serverTls(Map<String, String> flinkConfiguration) {
        String key = InsightOptions.USER_PREFIX + InsightOptions.HTTP_SSL_ENABLED.key();
        try {
            RestTls tls = RestTls.from(flinkConfiguration);
            if (tls != null && tls.server() != null) {
                return tls;
            }
            LOG.error(
                    "Flink Insight HTTP server not started: {} is true, but Flink's REST TLS is off or has no key"
                            + " (security.ssl.rest.enabled, security.ssl.rest.keystore); Flink carries on without the port",
                    key);
        } catch (IllegalArgumentException e) {
            LOG.error(
                    "Flink Insight HTTP server not started: {} is true, but {}; Flink carries on without the port",
                    key,
                    e.getMessage());
        }
        return null;
    }
}
