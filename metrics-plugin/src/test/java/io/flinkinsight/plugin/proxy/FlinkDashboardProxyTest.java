package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.RequestTarget;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FlinkDashboardProxyTest {

    private static HttpReply forward(FlinkDashboardProxy proxy, String target) throws Exception {
        return proxy.forward(RequestTarget.parse(target), new DefaultHttpHeaders()).get();
    }

    @Test
    void outsideTheHubEveryPathIs404NamingTheHub() throws Exception {
        try (FlinkDashboardProxy proxy = new FlinkDashboardProxy(DashboardUpstream.NONE, true)) {
            for (String path : List.of("/flink", "/flink/", "/flink/jobs/overview")) {
                HttpReply r = forward(proxy, path);
                assertThat(r.status().code()).as(path).isEqualTo(404);
                assertThat(r.body().toString(StandardCharsets.UTF_8)).as(path)
                        .contains("JobManager", "hub", "\"status\":404");
            }
        }
    }

    @Test
    void turnedOffItIs404NamingTheOption() throws Exception {
        DashboardUpstream hub = new DashboardUpstream() {
            @Override
            public boolean available() {
                return true;
            }

            @Override
            public String baseUrl() {
                return "http://127.0.0.1:1";
            }
        };
        try (FlinkDashboardProxy proxy = new FlinkDashboardProxy(hub, false)) {
            HttpReply r = forward(proxy, "/flink/jobs/overview");

            assertThat(r.status().code()).isEqualTo(404);
            assertThat(r.body().toString(StandardCharsets.UTF_8))
                    .contains("metrics.reporter.insight.hub.dashboard-proxy.enabled");
        }
    }
}
