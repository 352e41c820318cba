package io.flinkinsight.plugin.proxy;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class ProxyHeadersTest {

    private static final String FLINK = "http://127.0.0.1:8081";

    private static HttpHeaders flink(Map<String, List<String>> headers) {
        return HttpHeaders.of(new TreeMap<>(headers), (name, value) -> true);
    }

    @Test
    void onlyContentNegotiationHeadersGoToFlink() {
        DefaultHttpHeaders browser = new DefaultHttpHeaders();
        browser.set("Accept", "application/json");
        browser.set("Accept-Language", "en");
        browser.set("Accept-Encoding", "gzip");
        browser.set("Cookie", "session=secret");
        browser.set("Authorization", "Basic c2VjcmV0");
        browser.set("If-None-Match", "\"abc\"");
        browser.set("Connection", "keep-alive");

        assertThat(ProxyHeaders.request(browser))
                .containsExactly(
                        Map.entry("Accept", "application/json"),
                        Map.entry("Accept-Language", "en"));
    }

    @Test
    void hopByHopAndServerSetHeadersAreDroppedOnTheWayBack() {
        Map<String, String> out =
                ProxyHeaders.response(
                        flink(
                                Map.of(
                                        "Cache-Control", List.of("private, max-age=300"),
                                        "Connection", List.of("keep-alive, X-Flink-Private"),
                                        "X-Flink-Private", List.of("1"),
                                        "Keep-Alive", List.of("timeout=5"),
                                        "Transfer-Encoding", List.of("chunked"),
                                        "Content-Length", List.of("10"),
                                        "Content-Type", List.of("application/json"),
                                        "Access-Control-Allow-Origin", List.of("*"),
                                        "Set-Cookie", List.of("a=b"),
                                        "Vary", List.of("Accept", "Accept-Encoding"))),
                        FLINK);

        assertThat(out)
                .containsOnly(
                        Map.entry("Cache-Control", "private, max-age=300"),
                        Map.entry("Vary", "Accept, Accept-Encoding"));
    }

    @Test
    void redirectsToFlinkMoveUnderTheProxyAndOthersStay() {
        assertThat(ProxyHeaders.location("http://127.0.0.1:8081/index.html", FLINK))
                .isEqualTo("/flink/index.html");
        assertThat(ProxyHeaders.location("/jobs/overview", FLINK))
                .isEqualTo("/flink/jobs/overview");
        assertThat(ProxyHeaders.location("/ui/jobs", "http://gw:80/ui")).isEqualTo("/flink/jobs");
        assertThat(ProxyHeaders.location("jobs/overview", FLINK)).isEqualTo("jobs/overview");
        assertThat(ProxyHeaders.location("https://elsewhere.example/x", FLINK))
                .isEqualTo("https://elsewhere.example/x");
        assertThat(ProxyHeaders.location("//elsewhere.example/x", FLINK))
                .isEqualTo("//elsewhere.example/x");
    }
}
