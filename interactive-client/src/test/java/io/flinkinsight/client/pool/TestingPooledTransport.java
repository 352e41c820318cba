package io.flinkinsight.client.pool;

import io.flinkinsight.client.transport.PooledTransport;

import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pooled transport without a cluster behind it: it only remembers whether, and how often, it was
 * closed.
 */
final class TestingPooledTransport implements PooledTransport {

    final ClusterIdentity identity;
    final AtomicInteger closes = new AtomicInteger();

    TestingPooledTransport(ClusterIdentity identity) {
        this.identity = identity;
    }

    @Override
    public RestClusterClient<StandaloneClusterId> clusterClient() {
        return null;
    }

    boolean isClosed() {
        return closes.get() > 0;
    }

    @Override
    public void close() {
        closes.incrementAndGet();
    }
}
