package io.flinkinsight.plugin.store.job;

/**
 * The configuration of a job that shapes its checkpoints, as the hub read it once from Flink's REST
 * API ({@code /jobs/:id/checkpoints/config}, {@code /jobs/:id/config}, and {@code
 * /jobmanager/config} for what a job does not report of itself). A null field was not reported.
 *
 * @param checkpointing false when Flink answered that checkpointing is off for the job
 * @param stateBackend Flink's name of the job's state backend, e.g. {@code
 *     EmbeddedRocksDBStateBackend}
 * @param incremental whether checkpoints are incremental
 * @param incrementalSource where {@code incremental} comes from: {@code "job"} (the job's own
 *     configuration), {@code "cluster"} (the JobManager's configuration, which a job's own setting
 *     may override unseen) or {@code "observed"} (Flink reported neither: most checkpoints uploaded
 *     less than their full size)
 * @param changelog whether the changelog state backend is on
 * @param materializationIntervalMs the changelog's periodic materialization interval
 * @param checkpointIntervalMs the checkpoint interval ({@link Long#MAX_VALUE} means no periodic
 *     checkpoints)
 * @param checkpointMode {@code exactly_once} or {@code at_least_once}
 * @param unaligned whether unaligned checkpoints are on
 * @param parallelism the job's parallelism, else the highest of its vertices
 */
public record JobSettings(
        boolean checkpointing,
        String stateBackend,
        String checkpointStorage,
        Boolean incremental,
        String incrementalSource,
        Boolean changelog,
        Long materializationIntervalMs,
        String changelogStorage,
        Long checkpointIntervalMs,
        String checkpointMode,
        Boolean unaligned,
        Integer parallelism) {

    /** These settings with {@code incremental} from {@code source}. */
    public JobSettings withIncremental(Boolean value, String source) {
        return new JobSettings(
                checkpointing,
                stateBackend,
                checkpointStorage,
                value,
                source,
                changelog,
                materializationIntervalMs,
                changelogStorage,
                checkpointIntervalMs,
                checkpointMode,
                unaligned,
                parallelism);
    }
}
