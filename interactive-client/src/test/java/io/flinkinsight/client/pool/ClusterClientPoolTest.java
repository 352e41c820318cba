package io.flinkinsight.client.pool;

import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.metrics.ClientMetrics;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rest.ConnectionClosedException;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterClientPoolTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final ClientMetrics metrics = new ClientMetrics();
    private final List<TestingPooledTransport> created = new ArrayList<>();
    private boolean failCreation;
    // closes on the calling thread, so a test sees the close at once
    private final ClusterClientPool pool =
            new ClusterClientPool(
                    identity -> {
                        if (failCreation) {
                            throw new ConnectException("JobManager unreachable");
                        }
                        TestingPooledTransport transport = new TestingPooledTransport(identity);
                        created.add(transport);
                        return transport;
                    },
                    metrics,
                    null,
                    Runnable::run,
                    clock::get);

    private static ClusterIdentity cluster(String address, String... extra) {
        Configuration conf = new Configuration();
        conf.setString("rest.address", address);
        conf.setString("rest.port", "8081");
        conf.setString("execution.interactive.client-pool.expire-after-access", "10 min");
        for (int i = 0; i < extra.length; i += 2) {
            conf.setString(extra[i], extra[i + 1]);
        }
        return ClusterIdentity.of(conf, InteractiveClientSettings.fromConfiguration(conf));
    }

    private void advanceMinutes(long minutes) {
        clock.addAndGet(TimeUnit.MINUTES.toNanos(minutes));
    }

    @Test
    void firstLeaseMissesAndLaterLeasesHitTheSameClient() throws Exception {
        ClusterClientPool.Lease first = pool.lease(cluster("jm"));
        ClusterClientPool.Lease second = pool.lease(cluster("jm"));
        ClusterClientPool.Lease third = pool.lease(cluster("jm"));

        assertThat(created).hasSize(1);
        assertThat(second.transport()).isSameAs(first.transport()).isSameAs(third.transport());
        assertThat(metrics.poolRequests.getCount()).isEqualTo(3);
        assertThat(metrics.poolMisses.getCount()).isEqualTo(1);
        assertThat(metrics.poolHits.getCount()).isEqualTo(2);
        assertThat(metrics.poolHitRate()).isEqualTo(2.0 / 3.0);
        assertThat(metrics.poolSize()).isEqualTo(1);
    }

    @Test
    void optionsOutsideTheClusterIdentityShareTheClient() throws Exception {
        ClusterClientPool.Lease plain = pool.lease(cluster("jm"));
        ClusterClientPool.Lease named =
                pool.lease(cluster("jm", "pipeline.name", "q2", "parallelism.default", "4"));

        assertThat(named.transport()).isSameAs(plain.transport());
    }

    @Test
    void anotherAddressOrRestOptionGetsItsOwnClient() throws Exception {
        ClusterClientPool.Lease a = pool.lease(cluster("jm-a"));
        ClusterClientPool.Lease b = pool.lease(cluster("jm-b"));
        ClusterClientPool.Lease c = pool.lease(cluster("jm-a", "rest.retry.max-attempts", "3"));

        assertThat(created).hasSize(3);
        assertThat(a.transport()).isNotSameAs(b.transport()).isNotSameAs(c.transport());
        assertThat(pool.size()).isEqualTo(3);
    }

    @Test
    void closingLeasesNeverClosesTheSharedClient() throws Exception {
        ClusterClientPool.Lease lease = pool.lease(cluster("jm"));
        lease.close();
        lease.close();
        pool.lease(cluster("jm")).close();

        assertThat(created).hasSize(1);
        assertThat(created.get(0).isClosed()).isFalse();
        assertThat(pool.size()).isEqualTo(1);
    }

    @Test
    void leasedClientDoesNotExpire() throws Exception {
        ClusterClientPool.Lease lease = pool.lease(cluster("jm"));
        advanceMinutes(60);

        assertThat(pool.evictExpired()).isZero();
        assertThat(created.get(0).isClosed()).isFalse();

        lease.close();
        advanceMinutes(9);
        assertThat(pool.evictExpired()).as("idle for 9 of 10 minutes").isZero();
    }

    @Test
    void unleasedClientExpiresAfterAccessAndIsClosed() throws Exception {
        pool.lease(cluster("jm")).close();
        advanceMinutes(11);

        assertThat(pool.evictExpired()).isEqualTo(1);
        assertThat(created.get(0).closes.get()).isEqualTo(1);
        assertThat(pool.size()).isZero();
        assertThat(metrics.poolEvictions.getCount()).isEqualTo(1);

        ClusterClientPool.Lease fresh = pool.lease(cluster("jm"));
        assertThat(fresh.transport()).isNotSameAs(created.get(0));
        assertThat(metrics.poolMisses.getCount()).isEqualTo(2);
    }

    @Test
    void everyLeaseRestartsTheExpiry() throws Exception {
        for (int i = 0; i < 5; i++) {
            pool.lease(cluster("jm")).close();
            advanceMinutes(8);
            assertThat(pool.evictExpired()).isZero();
        }
        assertThat(created).hasSize(1);
    }

    @Test
    void connectionFailureEvictsTheClientButClosesItOnlyAfterItsLastLease() throws Exception {
        ClusterClientPool.Lease busy = pool.lease(cluster("jm"));
        ClusterClientPool.Lease failing = pool.lease(cluster("jm"));

        failing.failed(new IOException("wrapped", new ConnectException("Connection refused")));
        failing.close();

        assertThat(metrics.poolEvictions.getCount()).isEqualTo(1);
        assertThat(created.get(0).isClosed()).as("still leased").isFalse();
        ClusterClientPool.Lease next = pool.lease(cluster("jm"));
        assertThat(next.transport())
                .as("a fresh client for the restarted JobManager")
                .isNotSameAs(busy.transport());

        busy.close();
        assertThat(created.get(0).closes.get()).isEqualTo(1);
        assertThat(created.get(1).isClosed()).isFalse();
    }

    @Test
    void closedChannelAlsoEvicts() throws Exception {
        ClusterClientPool.Lease lease = pool.lease(cluster("jm"));
        lease.failed(new ConnectionClosedException("Channel became inactive."));
        lease.close();

        assertThat(created.get(0).closes.get()).isEqualTo(1);
        assertThat(pool.size()).isZero();
    }

    @Test
    void failuresOfTheRequestItselfKeepTheClient() throws Exception {
        ClusterClientPool.Lease lease = pool.lease(cluster("jm"));
        lease.failed(new IllegalStateException("job not found"));
        lease.close();

        assertThat(metrics.poolEvictions.getCount()).isZero();
        assertThat(pool.lease(cluster("jm")).transport()).isSameAs(created.get(0));
    }

    @Test
    void failedCreationLeavesNothingBehindAndIsRetried() throws Exception {
        failCreation = true;
        assertThatThrownBy(() -> pool.lease(cluster("jm"))).isInstanceOf(ConnectException.class);
        assertThat(pool.size()).isZero();

        failCreation = false;
        assertThat(pool.lease(cluster("jm")).transport()).isNotNull();
        assertThat(metrics.poolMisses.getCount()).isEqualTo(2);
    }

    @Test
    void callReleasesItsLeaseWhenTheRequestCompletes() {
        CompletableFuture<String> response = new CompletableFuture<>();
        CompletableFuture<String> result = pool.call(cluster("jm"), client -> response);
        advanceMinutes(11);
        assertThat(pool.evictExpired()).as("request in flight").isZero();

        response.complete("ok");
        advanceMinutes(11);

        assertThat(result).isCompletedWithValue("ok");
        assertThat(pool.evictExpired()).isEqualTo(1);
    }

    @Test
    void callThatFailsToConnectEvictsTheClient() {
        CompletableFuture<String> result =
                pool.call(
                        cluster("jm"),
                        client ->
                                CompletableFuture.failedFuture(
                                        new ConnectException("Connection refused")));

        assertThat(result).isCompletedExceptionally();
        assertThat(created.get(0).closes.get()).isEqualTo(1);
        assertThat(pool.size()).isZero();
    }

    @Test
    void closingThePoolClosesEveryClientAndRefusesLeases() throws Exception {
        pool.lease(cluster("jm-a")).close();
        pool.lease(cluster("jm-b"));

        pool.close();

        assertThat(created).allMatch(TestingPooledTransport::isClosed);
        assertThatThrownBy(() -> pool.lease(cluster("jm-a")))
                .isInstanceOf(IllegalStateException.class);
    }
}
