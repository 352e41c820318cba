package io.flinkinsight.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class ClusterIdentityTest {

    private static Configuration base() {
        Configuration conf = new Configuration();
        conf.setString("rest.address", "jm.example");
        conf.setString("rest.port", "8081");
        return conf;
    }

    @Test
    void addressPortPathHaSslAndRestOptionsMakeTheIdentity() {
        String[][] changes = {
            {"rest.address", "other"},
            {"rest.port", "9081"},
            {"rest.path", "/flink"},
            {"jobmanager.rpc.address", "jm2"},
            {"high-availability.type", "zookeeper"},
            {"high-availability.cluster-id", "c2"},
            {"high-availability.zookeeper.quorum", "zk:2181"},
            {"security.ssl.rest.enabled", "true"},
            {"rest.retry.max-attempts", "1"},
            {"rest.connection-timeout", "1 s"},
            {"execution.interactive.rest.max-connections", "4"},
        };
        for (String[] change : changes) {
            Configuration changed = base();
            changed.setString(change[0], change[1]);
            assertThat(ClusterIdentity.of(changed)).as(change[0]).isNotEqualTo(ClusterIdentity.of(base()));
        }
    }

    @Test
    void jobOptionsDoNotSplitTheIdentity() {
        Configuration job = base();
        job.setString("pipeline.name", "query 42");
        job.setString("execution.runtime-mode", "BATCH");
        job.setString("collect-strategy.type", "incremental");

        assertThat(ClusterIdentity.of(job)).isEqualTo(ClusterIdentity.of(base()));
        assertThat(ClusterIdentity.of(job).hashCode()).isEqualTo(ClusterIdentity.of(base()).hashCode());
    }

    @Test
    void surroundingBlanksDoNotSplitTheIdentity() {
        Configuration padded = base();
        padded.setString("rest.address", " jm.example ");

        assertThat(ClusterIdentity.of(padded)).isEqualTo(ClusterIdentity.of(base()));
    }

    @Test
    void printedIdentityShowsAddressButNoSecrets() {
        Configuration conf = base();
        conf.setString("security.ssl.rest.keystore-password", "s3cret");

        assertThat(ClusterIdentity.of(conf).toString()).contains("jm.example:8081").doesNotContain("s3cret");
    }
}
