package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.RequestTarget;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FlinkDashboardProxyTest {

    private static HttpReply forward(FlinkDashboardProxy proxy, String target) throws Exception {
        return proxy.forward(RequestTarget.parse(target), new DefaultHttpHeaders(), null).get();
    }

    /** The hub's upstream: Flink's REST API at {@code baseUrl}. */
    private static DashboardUpstream hub(String baseUrl) {
        return new DashboardUpstream() {
            @Override
            public boolean available() {
                return true;
            }

            @Override
            public String baseUrl() {
                return baseUrl;
            }
        };
    }

    @Test
    void outsideTheHubEveryPathIs404NamingTheHub() throws Exception {
        try (FlinkDashboardProxy proxy = new FlinkDashboardProxy(DashboardUpstream.NONE, true)) {
            for (String path : List.of("/flink", "/flink/", "/flink/jobs/overview")) {
                HttpReply r = forward(proxy, path);
                assertThat(r.status().code()).as(path).isEqualTo(404);
                assertThat(r.body().toString(StandardCharsets.UTF_8))
                        .as(path)
                        .contains("JobManager", "hub", "\"status\":404");
            }
        }
    }

    @Test
    void turnedOffItIs404NamingTheOption() throws Exception {
        try (FlinkDashboardProxy proxy =
                new FlinkDashboardProxy(hub("http://127.0.0.1:1"), false)) {
            HttpReply r = forward(proxy, "/flink/jobs/overview");

            assertThat(r.status().code()).isEqualTo(404);
            assertThat(r.body().toString(StandardCharsets.UTF_8))
                    .contains("metrics.reporter.insight.hub.dashboard-proxy.enabled");
        }
    }

    @Test
    void aClientGetsAtMostItsShareOfPlacesAndFlinkAtMostThreeRequestsAtOnce() throws Exception {
        try (ServerSocket silentFlink = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DashboardUpstream hub = hub("http://127.0.0.1:" + silentFlink.getLocalPort());
            InetAddress greedy = InetAddress.getByName("10.0.0.1");
            InetAddress other = InetAddress.getByName("10.0.0.2");
            try (FlinkDashboardProxy proxy = new FlinkDashboardProxy(hub, true)) {
                List<CompletableFuture<HttpReply>> waiting = new ArrayList<>();
                for (int i = 0; i < FlinkDashboardProxy.MAX_PER_CLIENT; i++) {
                    waiting.add(
                            proxy.forward(
                                    RequestTarget.parse("/flink/overview"),
                                    new DefaultHttpHeaders(),
                                    greedy));
                }
                HttpReply refused =
                        proxy.forward(
                                        RequestTarget.parse("/flink/overview"),
                                        new DefaultHttpHeaders(),
                                        greedy)
                                .get(5, TimeUnit.SECONDS);
                CompletableFuture<HttpReply> others =
                        proxy.forward(
                                RequestTarget.parse("/flink/overview"),
                                new DefaultHttpHeaders(),
                                other);

                assertThat(refused.status().code()).isEqualTo(429);
                assertThat(waiting).allMatch(f -> !f.isDone());
                assertThat(others).as("another client still gets a place in line").isNotDone();
                assertThat(proxy.outstanding(greedy)).isEqualTo(FlinkDashboardProxy.MAX_PER_CLIENT);
                assertThat(proxy.outstanding(other)).isEqualTo(1);
                assertThat(proxy.atFlink())
                        .as("at Flink at once")
                        .isEqualTo(FlinkDashboardProxy.MAX_AT_FLINK);
            }
        }
    }
}
