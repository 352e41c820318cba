package io.flinkinsight.client.pool;

import io.flinkinsight.client.config.InteractiveClientSettings;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterIdentityTest {

    private static ClusterIdentity identity(Configuration conf) {
        return ClusterIdentity.of(conf, InteractiveClientSettings.fromConfiguration(conf));
    }

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
            assertThat(identity(changed)).as(change[0]).isNotEqualTo(identity(base()));
        }
    }

    @Test
    void jobOptionsDoNotSplitTheIdentity() {
        Configuration job = base();
        job.setString("pipeline.name", "query 42");
        job.setString("execution.runtime-mode", "BATCH");
        job.setString("collect-strategy.type", "fixed");

        assertThat(identity(job)).isEqualTo(identity(base()));
        assertThat(identity(job).hashCode()).isEqualTo(identity(base()).hashCode());
    }

    @Test
    void surroundingBlanksDoNotSplitTheIdentity() {
        Configuration padded = base();
        padded.setString("rest.address", " jm.example ");

        assertThat(identity(padded)).isEqualTo(identity(base()));
    }

    @Test
    void printedIdentityShowsAddressButNoSecrets() {
        Configuration conf = base();
        conf.setString("security.ssl.rest.keystore-password", "s3cret");

        assertThat(identity(conf).toString()).contains("jm.example:8081").doesNotContain("s3cret");
    }
}
