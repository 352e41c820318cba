package io.flinkinsight.harness.demo;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ChangelogPairTest {

    @Test
    void thePairDiffersOnlyInTheChangelog() {
        var rocksdb = ChangelogPair.jobSettings(false);
        var changelog = ChangelogPair.jobSettings(true);
        assertThat(rocksdb)
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.incremental", "true")
                .containsEntry("state.changelog.enabled", "false")
                .containsEntry("parallelism.default", "1");
        assertThat(changelog).containsEntry("state.changelog.enabled", "true");
        var changelogWithoutItsOwn = new java.util.LinkedHashMap<>(changelog);
        changelogWithoutItsOwn.remove("state.changelog.periodic-materialize.interval");
        changelogWithoutItsOwn.put("state.changelog.enabled", "false");
        changelogWithoutItsOwn.put("pipeline.name", ChangelogPair.ROCKSDB_JOB_NAME);
        assertThat(changelogWithoutItsOwn).isEqualTo(rocksdb);
    }

    @Test
    void theChangelogGoesUnderTheWorkDir() {
        assertThat(ChangelogPair.clusterSettings(Path.of("/tmp/demo")))
                .containsEntry("state.changelog.storage", "filesystem")
                .containsEntry("state.changelog.dstl.dfs.base-path", "file:///tmp/demo/changelog");
    }

    @Test
    void theCompareViewUrlSelectsThePairInTheApisSyntax() {
        assertThat(
                        ChangelogPair.compareViewUrl(
                                "http://127.0.0.1:9250",
                                new ChangelogPair.JobIds("a".repeat(32), "b".repeat(32))))
                .isEqualTo(
                        "http://127.0.0.1:9250/#/compare?jobs="
                                + "a".repeat(32)
                                + ","
                                + "b".repeat(32));
    }
}
