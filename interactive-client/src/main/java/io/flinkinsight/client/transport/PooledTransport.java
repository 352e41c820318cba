package io.flinkinsight.client.transport;

import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;

/**
 * A cluster client with its keep-alive REST transport. {@link #close()} closes the client and its
 * channels and never closes the shared event loop; the pool calls it on its closer thread, which
 * logs a failure.
 */
public interface PooledTransport extends AutoCloseable {

    /** The client; callers must not close it themselves, close this transport instead. */
    RestClusterClient<StandaloneClusterId> clusterClient();

    @Override
    void close();
}
