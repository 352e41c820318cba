package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.flinkinsight.plugin.hub.TestingRestSource.fixture;
import static org.assertj.core.api.Assertions.assertThat;

/** Parsing of REST payloads recorded from a real Flink 2.2 cluster. */
class RestPayloadsTest {

    private static final String JOB = "f3a874d12c3a7e77b32fe710c1a72ba2";

    @Test
    void jobsOverviewGivesIdNameStateAndTimes() throws Exception {
        assertThat(RestPayloads.jobsOverview(fixture("jobs-overview.json")))
                .singleElement()
                .satisfies(
                        j -> {
                            assertThat(j.jobId()).isEqualTo(JOB);
                            assertThat(j.name()).isEqualTo("recorded-job");
                            assertThat(j.state()).isEqualTo("RUNNING");
                            assertThat(j.startTime()).isPositive();
                            assertThat(j.endTime()).isEqualTo(-1);
                        });
    }

    @Test
    void jobDetailsGiveTheVertices() throws Exception {
        assertThat(RestPayloads.vertices(fixture("job-details.json")))
                .extracting(RestPayloads.Vertex::name)
                .containsExactly("Source: numbers -> double", "plus one -> Sink: discard");
    }

    @Test
    void aggregatedSubtaskMetricsGiveSumAndMax() throws Exception {
        Map<String, Map<String, Double>> agg =
                RestPayloads.aggregated(fixture("vertex-subtasks-aggregated.json"));

        assertThat(agg)
                .containsOnlyKeys(
                        "numRecordsInPerSecond",
                        "numRecordsOutPerSecond",
                        "busyTimeMsPerSecond",
                        "backPressuredTimeMsPerSecond");
        assertThat(agg.get("numRecordsOutPerSecond").get("sum"))
                .isGreaterThan(agg.get("numRecordsOutPerSecond").get("max"));
        assertThat(agg.get("busyTimeMsPerSecond")).containsEntry("max", 1000.0);
    }

    @Test
    void latencyHistogramIdsOfAVertexAreRecognised() throws Exception {
        long matching =
                RestPayloads.metricIds(fixture("vertex-metrics-list.json")).stream()
                        .filter(id -> LatencyReader.LATENCY_ID.matcher(id).matches())
                        .count();
        // 2 subtasks x 2 operators in the vertex x (median, p99)
        assertThat(matching).isEqualTo(8);
        assertThat(LatencyReader.LATENCY_ID.matcher("0.numRecordsOut").matches()).isFalse();
        assertThat(
                        LatencyReader.LATENCY_ID
                                .matcher(
                                        "0.latency.source_id.a.operator_id.b.operator_subtask_index.0.latency_p95")
                                .matches())
                .isFalse();
    }

    @Test
    void metricValuesAreParsedFromStringsAndNonNumbersSkipped() throws Exception {
        assertThat(RestPayloads.values(fixture("taskmanager-metrics.json")))
                .containsEntry("Status.JVM.Memory.Heap.Max", 536870912.0)
                .containsKey("Status.JVM.CPU.Load");
        var odd =
                new ObjectMapper()
                        .readTree(
                                "[{\"id\":\"a\",\"value\":\"RUNNING\"},{\"id\":\"b\",\"value\":2},{\"x\":1}]");
        assertThat(RestPayloads.values(odd)).containsOnlyKeys("b");
    }

    @Test
    void unexpectedShapesYieldEmptyResults() throws Exception {
        var notAList = new ObjectMapper().readTree("{\"errors\":[\"Not found\"]}");
        assertThat(RestPayloads.jobsOverview(notAList)).isEmpty();
        assertThat(RestPayloads.vertices(notAList)).isEmpty();
        assertThat(RestPayloads.metricIds(notAList)).isEmpty();
        assertThat(RestPayloads.taskManagerIds(notAList)).isEmpty();
    }
}
