package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.flink.ClientBoundaries;
import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.common.FlinkBoundary;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.InsightRestClusterClientAccess;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;

import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URL;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Creates cluster clients whose REST requests ride pooled keep-alive channels: a Flink {@link
 * RestClusterClient} (retries, leader retrieval, job submission, coordination requests: all
 * Flink's) on a {@link KeepAliveRestClient}. If this Flink cannot take our RestClient (the
 * constructor is package-private, so the jar must sit in Flink's {@code lib/}; checked before use),
 * the client falls back to Flink's own cluster client: one connection per request, and no channel
 * figures.
 */
public final class KeepAliveClusterClients {

    private static final Logger LOG = LoggerFactory.getLogger(KeepAliveClusterClients.class);
    private static final FlinkBoundary OWN_THREADS = ClientBoundaries.logTo(LOG);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private KeepAliveClusterClients() {}

    /**
     * A RestClusterClient for conf's cluster whose non-multipart requests ride pooled keep-alive
     * channels.
     *
     * @param sharedGroup the process's event loop; used, never closed
     * @param flink this jar's Flink line, for the clients Flink's own code must build
     */
    public static PooledTransport create(
            Configuration conf,
            EventLoopGroup sharedGroup,
            ChannelPoolSettings settings,
            TransportListener listener,
            FlinkApi flink)
            throws Exception {
        // the host and port that RestClusterClient gives its own RestClient (used for SSL host name
        // checks)
        URL jobManagerUrl =
                new URL(
                        SecurityOptions.isRestSSLEnabled(conf) ? "https" : "http",
                        conf.get(JobManagerOptions.ADDRESS),
                        conf.get(JobManagerOptions.PORT),
                        conf.get(RestOptions.PATH));
        String unusable = InsightRestClusterClientAccess.unusableBecause();
        if (unusable != null) {
            if (!WARNED.getAndSet(true)) {
                LOG.warn(
                        "Keep-alive REST channels are off: {}. Put the interactive-client jar into Flink's lib/;"
                                + " until then each REST request opens its own connection.",
                        unusable);
            }
            return createWithoutKeepAlive(conf, sharedGroup, flink);
        }
        KeepAliveRestClient restClient =
                KeepAliveRestClient.create(
                        conf,
                        jobManagerUrl.getHost(),
                        jobManagerUrl.getPort(),
                        sharedGroup,
                        settings,
                        listener,
                        flink);
        RestClusterClient<StandaloneClusterId> client;
        try {
            client =
                    InsightRestClusterClientAccess.create(
                            conf, restClient, StandaloneClusterId.getInstance());
        } catch (Throwable t) {
            // the channels of a client never made go with it, whatever failed
            restClient.closeAsync();
            throw t;
        }
        return new KeepAliveTransport(client, restClient);
    }

    /**
     * Flink's own RestClusterClient, on the shared event loop where this Flink takes one (one
     * connection per request).
     */
    static PooledTransport createWithoutKeepAlive(
            Configuration conf, EventLoopGroup sharedGroup, FlinkApi flink) throws Exception {
        return new StockTransport(flink.newStockClusterClient(conf, sharedGroup));
    }

    /**
     * The keep-alive path: our RestClient, with its pooled channels, inside Flink's
     * RestClusterClient.
     */
    static final class KeepAliveTransport implements PooledTransport {
        private final RestClusterClient<StandaloneClusterId> client;
        private final KeepAliveRestClient restClient;

        KeepAliveTransport(
                RestClusterClient<StandaloneClusterId> client, KeepAliveRestClient restClient) {
            this.client = client;
            this.restClient = restClient;
        }

        @Override
        public RestClusterClient<StandaloneClusterId> clusterClient() {
            return client;
        }

        @VisibleForTesting
        KeepAliveRestClient restClient() {
            return restClient;
        }

        @Override
        public void close() {
            // channels first, so nothing waits on them; then the client, whose RestClient shutdown
            // is now instant (the
            // pool runs this on its closer thread, guarded)
            restClient.closeAsync();
            client.close();
        }
    }

    /**
     * The fallback when this Flink does not let our RestClient in: Flink's own RestClient (a
     * connection per request) on the shared event loop.
     */
    static final class StockTransport implements PooledTransport {
        private final RestClusterClient<StandaloneClusterId> client;

        StockTransport(RestClusterClient<StandaloneClusterId> client) {
            this.client = client;
        }

        @Override
        public RestClusterClient<StandaloneClusterId> clusterClient() {
            return client;
        }

        @Override
        public void close() {
            // With a shared event loop, RestClusterClient.close() waits ~5 s in vain for its
            // RestClient (Flink never
            // completes the termination future then), so it runs on a throwaway daemon thread.
            Thread closer =
                    new Thread(
                            OWN_THREADS.guarded("closing a cluster client", client::close),
                            "flink-insight-rest-close");
            closer.setDaemon(true);
            closer.start();
        }
    }
}
