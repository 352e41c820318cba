package io.flinkinsight.plugin.http;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProxiedPathTest {

    private static final String FLINK = "http://127.0.0.1:8081";

    private static URI map(String requestTarget) throws BadRequestException {
        RequestTarget target = RequestTarget.parse(requestTarget);
        return ProxiedPath.upstreamUri(FLINK, target.rawPath(), target.rawQuery());
    }

    @Test
    void pathsUnderFlinkMapToTheSamePathInFlink() throws Exception {
        assertThat(map("/flink/")).isEqualTo(URI.create("http://127.0.0.1:8081/"));
        assertThat(map("/flink/index.html")).isEqualTo(URI.create("http://127.0.0.1:8081/index.html"));
        assertThat(map("/flink/jobs/overview")).isEqualTo(URI.create("http://127.0.0.1:8081/jobs/overview"));
        assertThat(map("/flink/assets/images/flink.svg"))
                .isEqualTo(URI.create("http://127.0.0.1:8081/assets/images/flink.svg"));
    }

    @Test
    void rawQueryIsForwardedUnchanged() throws Exception {
        assertThat(map("/flink/jobs/abc/vertices/def/subtasks/metrics?get=0.numRecordsIn%2C0.numRecordsOut&x=a+b"))
                .hasToString("http://127.0.0.1:8081/jobs/abc/vertices/def/subtasks/metrics"
                        + "?get=0.numRecordsIn%2C0.numRecordsOut&x=a+b");
    }

    @Test
    void basePathPrefixIsKept() throws Exception {
        RequestTarget target = RequestTarget.parse("/flink/config");
        assertThat(ProxiedPath.upstreamUri("https://gateway:443/flink-ui/", target.rawPath(), target.rawQuery()))
                .isEqualTo(URI.create("https://gateway:443/flink-ui/config"));
    }

    @Test
    void traversalOutOfTheProxiedRootIsRefusedByTheRequestTarget() {
        for (String uri : List.of("/flink/../metrics", "/flink/..", "/flink/%2e%2e/metrics", "/flink/%2E%2E/api/v1/jobs",
                "/flink/a%2f..%2fb", "/flink/..%5cmetrics", "/flink/a\\..\\b")) {
            assertThatThrownBy(() -> RequestTarget.parse(uri)).as(uri).isInstanceOf(BadRequestException.class);
        }
    }

    @Test
    void pathsThatWouldLeaveFlinksRootAreRefusedByTheMapperItself() {
        // Raw paths as they would arrive if the request-target checks were ever loosened.
        for (String rawPath : List.of("/flink/../metrics", "/flink/./config", "/flink//evil.example/x",
                "/flink/a/../../b", "/flink/%2e%2e/x", "/flink/a%2fb", "/flink", "/flinkx/jobs", "/metrics")) {
            assertThatThrownBy(() -> ProxiedPath.upstreamUri(FLINK, rawPath, ""))
                    .as(rawPath).isInstanceOf(BadRequestException.class);
        }
    }

    @Test
    void flinksJobCancellingGetEndpointsAreRefused() {
        for (String rawPath : List.of("/flink/jobs/0123456789abcdef0123456789abcdef/yarn-cancel",
                "/flink/v1/jobs/0123456789abcdef0123456789abcdef/YARN-STOP")) {
            assertThatThrownBy(() -> ProxiedPath.upstreamPath(rawPath))
                    .as(rawPath).isInstanceOf(BadRequestException.class).hasMessageContaining("read-only");
        }
    }

    @Test
    void onlyFlinkAndWhatIsUnderItIsProxied() {
        assertThat(ProxiedPath.isProxied("/flink")).isTrue();
        assertThat(ProxiedPath.isProxied("/flink/")).isTrue();
        assertThat(ProxiedPath.isProxied("/flink/jobs")).isTrue();
        assertThat(ProxiedPath.isProxied("/flinkish")).isFalse();
        assertThat(ProxiedPath.isProxied("/")).isFalse();
        assertThat(ProxiedPath.isProxied("/api/v1/overview")).isFalse();
    }
}
