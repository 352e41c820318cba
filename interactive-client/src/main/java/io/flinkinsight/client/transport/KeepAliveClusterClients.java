package io.flinkinsight.client.transport;

import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.InsightRestClusterClientAccess;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.runtime.highavailability.DefaultClientHighAvailabilityServicesFactory;
import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URL;

/**
 * Creates cluster clients whose REST requests ride pooled keep-alive channels: a Flink {@link RestClusterClient}
 * (retries, leader retrieval, job submission, coordination requests: all Flink's) on a {@link KeepAliveRestClient}.
 * If this Flink cannot take our RestClient (the constructor is package-private, so the jar must sit in Flink's
 * {@code lib/}, and it may change between versions), the client falls back to Flink's public constructor on the
 * shared event loop: one connection per request, and no channel figures.
 */
public final class KeepAliveClusterClients {

    private static final Logger LOG = LoggerFactory.getLogger(KeepAliveClusterClients.class);

    private KeepAliveClusterClients() {}

    /**
     * A RestClusterClient for conf's cluster whose non-multipart requests ride pooled keep-alive channels.
     *
     * @param sharedGroup the process's event loop; used, never closed
     */
    public static PooledTransport create(
            Configuration conf,
            EventLoopGroup sharedGroup,
            ChannelPoolSettings settings,
            TransportListener listener)
            throws Exception {
        // the host and port that RestClusterClient gives its own RestClient (used for SSL host name checks)
        URL jobManagerUrl = new URL(
                SecurityOptions.isRestSSLEnabled(conf) ? "https" : "http",
                conf.get(JobManagerOptions.ADDRESS),
                conf.get(JobManagerOptions.PORT),
                conf.get(RestOptions.PATH));
        KeepAliveRestClient restClient = KeepAliveRestClient.create(
                conf, jobManagerUrl.getHost(), jobManagerUrl.getPort(), sharedGroup, settings, listener);
        RestClusterClient<StandaloneClusterId> client;
        try {
            client = InsightRestClusterClientAccess.create(conf, restClient, StandaloneClusterId.getInstance());
        } catch (LinkageError e) {
            restClient.closeAsync();
            LOG.warn("Keep-alive REST channels are off: this Flink does not let Flink Insight's RestClient in ({})."
                    + " Put the interactive-client jar into Flink's lib/ and use Flink 2.2; until then each REST"
                    + " request opens its own connection.", e.toString());
            return createWithoutKeepAlive(conf, sharedGroup);
        } catch (Throwable t) {
            restClient.closeAsync();
            throw t;
        }
        return new KeepAliveTransport(client, restClient);
    }

    /** Flink's own RestClusterClient on the shared event loop (one connection per request). */
    static PooledTransport createWithoutKeepAlive(Configuration conf, EventLoopGroup sharedGroup) throws Exception {
        return new StockTransport(new RestClusterClient<>(
                conf, StandaloneClusterId.getInstance(), DefaultClientHighAvailabilityServicesFactory.INSTANCE,
                sharedGroup));
    }

    /** The keep-alive path: our RestClient, with its pooled channels, inside Flink's RestClusterClient. */
    static final class KeepAliveTransport implements PooledTransport {
        private final RestClusterClient<StandaloneClusterId> client;
        private final KeepAliveRestClient restClient;

        KeepAliveTransport(RestClusterClient<StandaloneClusterId> client, KeepAliveRestClient restClient) {
            this.client = client;
            this.restClient = restClient;
        }

        @Override
        public RestClusterClient<StandaloneClusterId> clusterClient() {
            return client;
        }

        KeepAliveRestClient restClient() {
            return restClient;
        }

        @Override
        public void close() {
            // channels first, so nothing waits on them; then the client, whose RestClient shutdown is now instant
            restClient.closeAsync();
            try {
                client.close();
            } catch (Throwable t) {
                LOG.debug("Failed to close a cluster client.", t);
            }
        }
    }

    /**
     * The fallback when this Flink does not let our RestClient in: Flink's own RestClient (a connection per request)
     * on the shared event loop.
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
            // With a shared event loop, RestClusterClient.close() waits ~5 s in vain for its RestClient (Flink never
            // completes the termination future then), so it runs on a throwaway daemon thread.
            Thread closer = new Thread(() -> {
                try {
                    client.close();
                } catch (Throwable t) {
                    LOG.debug("Failed to close a cluster client.", t);
                }
            }, "flink-insight-rest-close");
            closer.setDaemon(true);
            closer.start();
        }
    }
}
