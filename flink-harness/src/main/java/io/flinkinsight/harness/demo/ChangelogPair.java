package io.flinkinsight.harness.demo;

import io.flinkinsight.harness.LocalFlinkCluster;
import io.flinkinsight.harness.SqlSession;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two copies of one keyed aggregation with RocksDB incremental checkpoints, the second with the
 * changelog state backend on (file-system changelog storage): the pair the compare view puts side
 * by side, as in the evaluations of log-based incremental checkpoints. Each job takes one task
 * slot. Its state grows by a wide row per new key, so the difference in what each checkpoint
 * uploads shows within minutes.
 */
public final class ChangelogPair {

    public static final String ROCKSDB_JOB_NAME = "insight-demo-pair-rocksdb";
    public static final String CHANGELOG_JOB_NAME = "insight-demo-pair-changelog";

    public static final int ROWS_PER_SECOND = 1000;
    public static final int KEYS = 1_000_000;
    static final String CHECKPOINT_INTERVAL = "3 s";
    static final String MATERIALIZATION_INTERVAL = "1 min";

    /** The two jobs' ids, RocksDB first. */
    public record JobIds(String rocksdb, String changelog) {}

    private ChangelogPair() {}

    /**
     * Cluster options the changelog job needs: where its changelog goes ({@code <work>/changelog}).
     * Harmless for jobs without the changelog.
     */
    public static Map<String, String> clusterSettings(Path workDir) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("state.changelog.storage", "filesystem");
        settings.put(
                "state.changelog.dstl.dfs.base-path",
                workDir.toAbsolutePath().resolve("changelog").toUri().toString());
        return settings;
    }

    /** Session options of one job of the pair: job-level in Flink 2.2, so each job gets its own. */
    public static Map<String, String> jobSettings(boolean changelog) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("execution.runtime-mode", "streaming");
        settings.put("pipeline.name", changelog ? CHANGELOG_JOB_NAME : ROCKSDB_JOB_NAME);
        settings.put("parallelism.default", "1");
        settings.put("state.backend.type", "rocksdb");
        settings.put("execution.checkpointing.incremental", "true");
        settings.put("execution.checkpointing.interval", CHECKPOINT_INTERVAL);
        settings.put("state.changelog.enabled", Boolean.toString(changelog));
        if (changelog) {
            settings.put("state.changelog.periodic-materialize.interval", MATERIALIZATION_INTERVAL);
        }
        settings.put("metrics.latency.interval", "1000");
        return settings;
    }

    /** The tables and the INSERT of one job of the pair (the same for both), in order. */
    public static List<String> statements() {
        return List.of(
                "CREATE TEMPORARY TABLE pair_src (k BIGINT, v BIGINT, s STRING) WITH ("
                        + "'connector' = 'datagen', "
                        + "'rows-per-second' = '"
                        + ROWS_PER_SECOND
                        + "', "
                        + "'fields.k.kind' = 'random', 'fields.k.min' = '1', 'fields.k.max' = '"
                        + KEYS
                        + "', "
                        + "'fields.v.kind' = 'random', 'fields.v.min' = '0', 'fields.v.max' = '1000', "
                        + "'fields.s.length' = '100')",
                "CREATE TEMPORARY TABLE pair_sink (k BIGINT, cnt BIGINT, total BIGINT, last_s STRING) WITH ("
                        + "'connector' = 'blackhole')",
                "INSERT INTO pair_sink SELECT k, COUNT(*), SUM(v), MAX(s) FROM pair_src GROUP BY k");
    }

    /**
     * Submits both jobs, each through its own session (kept open by the caller), and returns their
     * ids once Flink reports both RUNNING.
     */
    public static JobIds start(
            LocalFlinkCluster cluster, SqlSession rocksdb, SqlSession changelog, Duration timeout) {
        rocksdb.set(jobSettings(false));
        statements().forEach(rocksdb::execute);
        changelog.set(jobSettings(true));
        statements().forEach(changelog::execute);
        return new JobIds(
                DemoWorkload.awaitRunning(cluster, ROCKSDB_JOB_NAME, timeout),
                DemoWorkload.awaitRunning(cluster, CHANGELOG_JOB_NAME, timeout));
    }

    /** The panel's compare view of the pair, under the hub's URL. */
    public static String compareViewUrl(String hubUrl, JobIds ids) {
        return hubUrl + "/#/compare?jobs=" + ids.rocksdb() + "," + ids.changelog();
    }
}
