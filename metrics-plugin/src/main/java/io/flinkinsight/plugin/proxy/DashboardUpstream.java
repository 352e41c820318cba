package io.flinkinsight.plugin.proxy;

import javax.net.ssl.SSLContext;

/**
 * Where the plugin finds Flink's own web dashboard and REST API to proxy under {@code /flink/}:
 * only the JobManager's instance (the hub) has one; every other process answers {@code /flink/}
 * with 404.
 */
public interface DashboardUpstream {

    /** A process that does not proxy Flink's dashboard. */
    DashboardUpstream NONE =
            new DashboardUpstream() {
                @Override
                public boolean available() {
                    return false;
                }

                @Override
                public String baseUrl() {
                    return null;
                }
            };

    /** Whether this process proxies Flink's dashboard (it is the JobManager's hub). */
    boolean available();

    /**
     * Flink's REST base URL, e.g. {@code http://127.0.0.1:8081}, or null when it could not be
     * resolved. Called on an HTTP worker thread; may read Flink's configuration file the first
     * time.
     */
    String baseUrl();

    /** The base URL as answers may show it (without user info). */
    default String shownUrl() {
        return baseUrl();
    }

    /**
     * The TLS context for an {@code https} base URL (Flink's REST TLS), or null for the JDK's
     * defaults.
     */
    default SSLContext tls() {
        return null;
    }
}
