package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.store.SeriesKey;

import java.util.List;

/**
 * The series the hub writes into the JobManager's history, gathered from Flink's REST API and from
 * the client processes listed in {@code hub.clients}:
 *
 * <table>
 *   <caption>hub series</caption>
 *   <tr><th>name</th><th>labels</th><th>value</th></tr>
 *   <tr><td>{@code insight_vertex_records_in_per_second}</td><td>job_id, job_name, vertex_id, vertex_name</td>
 *       <td>sum over subtasks of {@code numRecordsInPerSecond}</td></tr>
 *   <tr><td>{@code insight_vertex_records_out_per_second}</td><td>same</td>
 *       <td>sum over subtasks of {@code numRecordsOutPerSecond}</td></tr>
 *   <tr><td>{@code insight_vertex_busy_time_ms_per_second}</td><td>same</td>
 *       <td>max over subtasks of {@code busyTimeMsPerSecond}</td></tr>
 *   <tr><td>{@code insight_vertex_backpressured_time_ms_per_second}</td><td>same</td>
 *       <td>max over subtasks of {@code backPressuredTimeMsPerSecond}</td></tr>
 *   <tr><td>{@code insight_vertex_latency_ms}</td><td>same, plus quantile ("0.5", "0.99")</td>
 *       <td>max over sources and subtasks of the latency-marker histogram's median / p99 (only with
 *       {@code metrics.latency.interval} &gt; 0)</td></tr>
 *   <tr><td>{@code insight_cluster_jobs}</td><td>state</td><td>jobs in /jobs/overview per state</td></tr>
 *   <tr><td>{@code insight_taskmanager_count}</td><td></td><td>registered TaskManagers</td></tr>
 *   <tr><td>{@code insight_taskmanager_cpu_load}</td><td>tm_id</td><td>{@code Status.JVM.CPU.Load} (0..1)</td></tr>
 *   <tr><td>{@code insight_taskmanager_heap_used_bytes}</td><td>tm_id</td>
 *       <td>{@code Status.JVM.Memory.Heap.Used}</td></tr>
 *   <tr><td>{@code insight_taskmanager_heap_max_bytes}</td><td>tm_id</td>
 *       <td>{@code Status.JVM.Memory.Heap.Max}</td></tr>
 *   <tr><td>{@code insight_hub_poll_duration_ms}</td><td></td><td>wall time of the last poll</td></tr>
 *   <tr><td>{@code insight_hub_poll_requests}</td><td></td><td>REST requests the last poll made</td></tr>
 *   <tr><td>{@code insight_hub_poll_failures}</td><td></td><td>failed requests of the last poll</td></tr>
 *   <tr><td>{@code insight_hub_clients}</td><td></td>
 *       <td>client processes (of {@code hub.clients}) whose figures the last poll gathered</td></tr>
 *   <tr><td>{@code flink_insight_client_*}</td><td>the client's, plus client (host:port)</td>
 *       <td>the interactive client's figures, gathered by {@link ClientGatherer}</td></tr>
 * </table>
 */
public final class HubSeries {

    public static final String RECORDS_IN = "insight_vertex_records_in_per_second";
    public static final String RECORDS_OUT = "insight_vertex_records_out_per_second";
    public static final String BUSY = "insight_vertex_busy_time_ms_per_second";
    public static final String BACKPRESSURED = "insight_vertex_backpressured_time_ms_per_second";
    public static final String LATENCY = "insight_vertex_latency_ms";
    static final String CLUSTER_JOBS = "insight_cluster_jobs";
    static final String TM_COUNT = "insight_taskmanager_count";
    static final String TM_CPU = "insight_taskmanager_cpu_load";
    static final String TM_HEAP_USED = "insight_taskmanager_heap_used_bytes";
    static final String TM_HEAP_MAX = "insight_taskmanager_heap_max_bytes";
    static final String POLL_DURATION = "insight_hub_poll_duration_ms";
    static final String POLL_REQUESTS = "insight_hub_poll_requests";
    static final String POLL_FAILURES = "insight_hub_poll_failures";
    static final String CLIENTS = "insight_hub_clients";

    private static final List<String> VERTEX_LABELS =
            List.of("job_id", "job_name", "vertex_id", "vertex_name");
    private static final List<String> LATENCY_LABELS =
            List.of("job_id", "job_name", "vertex_id", "vertex_name", SeriesKey.QUANTILE_LABEL);

    private HubSeries() {}

    static SeriesKey vertex(
            String name, String jobId, String jobName, String vertexId, String vertexName) {
        return new SeriesKey(
                name, VERTEX_LABELS, List.of(jobId, nz(jobName), vertexId, nz(vertexName)));
    }

    static SeriesKey latency(
            String jobId, String jobName, String vertexId, String vertexName, String quantile) {
        return new SeriesKey(
                LATENCY,
                LATENCY_LABELS,
                List.of(jobId, nz(jobName), vertexId, nz(vertexName), quantile));
    }

    static SeriesKey of(String name) {
        return new SeriesKey(name, List.of(), List.of());
    }

    static SeriesKey of(String name, String label, String value) {
        return new SeriesKey(name, List.of(label), List.of(nz(value)));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
