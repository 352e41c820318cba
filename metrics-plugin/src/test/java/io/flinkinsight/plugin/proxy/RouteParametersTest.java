package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.RequestTarget;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RouteParametersTest {

    private static final String VERTEX_PATH =
            "/jobs/0123456789abcdef0123456789abcdef/vertices/" + "fedcba9876543210fedcba9876543210";

    /**
     * The refusal of the proxy for {@code pathAndQuery} inside Flink, or null when it is forwarded.
     */
    private static String refusal(String pathAndQuery) throws Exception {
        RequestTarget t = RequestTarget.parse("/flink" + pathAndQuery);
        List<String> inside = t.segments().subList(1, t.segments().size());
        assertThat(DashboardRoutes.allows(inside, t.trailingSlash())).as(pathAndQuery).isTrue();
        return DashboardRoutes.queryRefusal(inside, t.query());
    }

    @Test
    void whatFlinksDashboardSendsIsForwarded() throws Exception {
        for (String target :
                List.of(
                        VERTEX_PATH
                                + "/metrics?get=0.numRecordsIn,0.Source__TableSourceScan(table=[[default_catalog]]).numRecordsOut",
                        VERTEX_PATH
                                + "/subtasks/metrics?get=numRecordsIn%2CnumRecordsOut&agg=min,max,avg,sum,skew",
                        VERTEX_PATH + "/subtasks/metrics?get=backPressuredTimeMsPerSecond",
                        VERTEX_PATH + "/metrics?get=0.%E6%95%B0%E6%8D%AE.numRecordsIn", // operator
                        // names need
                        // not be ASCII
                        "/taskmanagers/127.0.0.1:39555-3a1f2b/metrics?get=Status.JVM.Memory.Heap.Used",
                        "/jobmanager/metrics?get=Status.JVM.CPU.Load",
                        "/jobmanager/metrics",
                        "/jobs/0123456789abcdef0123456789abcdef/exceptions?maxExceptions=10",
                        "/jobs/overview",
                        "/config")) {
            assertThat(refusal(target)).as(target).isNull();
        }
    }

    @Test
    void subtaskRangesUnknownParametersAndBadValuesNeverReachFlink() throws Exception {
        String ranges = "0-2147483647,".repeat(40) + "0-1";
        for (String target :
                List.of(
                        VERTEX_PATH + "/subtasks/metrics?get=x&subtasks=" + ranges,
                        VERTEX_PATH + "/subtasks/metrics?subtasks=0",
                        VERTEX_PATH + "/subtasks/metrics?SUBTASKS=0-2147483647",
                        VERTEX_PATH + "/subtasks/metrics?%73ubtasks=0-2147483647",
                        VERTEX_PATH + "/subtasks/metrics?get=x&get=y",
                        VERTEX_PATH + "/subtasks/metrics?agg=median",
                        VERTEX_PATH + "/subtasks/metrics?agg=min,min,min,min,min,min",
                        VERTEX_PATH + "/metrics?get=" + "a,".repeat(64) + "b",
                        VERTEX_PATH + "/metrics?get=a..b",
                        VERTEX_PATH + "/metrics?get=.a",
                        VERTEX_PATH + "/metrics?get=",
                        VERTEX_PATH + "/metrics?get=a,,b",
                        VERTEX_PATH + "/metrics?get=a%25b",
                        VERTEX_PATH + "/metrics?get=a%5Cb",
                        VERTEX_PATH + "/metrics?get=a%20b",
                        VERTEX_PATH + "/metrics?get=" + "x".repeat(301),
                        VERTEX_PATH + "/metrics?agg=min",
                        "/jobs/0123456789abcdef0123456789abcdef/exceptions?maxExceptions=0",
                        "/jobs/0123456789abcdef0123456789abcdef/exceptions?maxExceptions=2147483647",
                        "/jobs/0123456789abcdef0123456789abcdef/exceptions?maxExceptions=-1",
                        "/jobs/0123456789abcdef0123456789abcdef/exceptions?maxExceptions=%EF%BC%91", // fullwidth 1
                        "/jobs/overview?a=b",
                        "/jobs/overview?get=x",
                        "/main.6cd446413e0aff84.js?v=1",
                        "/jobmanager/metrics?get=x&token=y")) {
            assertThat(refusal(target)).as(target).isNotNull();
        }
    }

    @Test
    void theRefusalNamesTheParameterAndWhatTheRouteTakes() throws Exception {
        assertThat(refusal(VERTEX_PATH + "/subtasks/metrics?subtasks=0-9"))
                .contains("'subtasks'", "(it takes get, agg)");
        assertThat(refusal("/jobs/overview?x=1")).contains("'x'", "it takes none");
        assertThat(refusal(VERTEX_PATH + "/metrics?%E2%80%AE=1")).contains("not plain ASCII");
        assertThat(refusal(VERTEX_PATH + "/subtasks/metrics?agg=median"))
                .contains("min, max, avg, sum, skew");
    }
}
