package io.flinkinsight.plugin.http;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestTargetTest {

    private static void refused(String target, TargetRefusal rule) {
        assertThatThrownBy(() -> RequestTarget.parse(target))
                .as(target)
                .isInstanceOfSatisfying(
                        TargetRefusal.Refused.class, e -> assertThat(e.rule()).isEqualTo(rule))
                .hasMessageContaining(rule.name());
    }

    @Test
    void pathIsDecodedOnceIntoSegments() throws Exception {
        RequestTarget t = RequestTarget.parse("/flink/jobs/%79arn-cancel");

        assertThat(t.segments()).containsExactly("flink", "jobs", "yarn-cancel");
        assertThat(t.path()).isEqualTo("/flink/jobs/yarn-cancel");
        assertThat(t.trailingSlash()).isFalse();
        assertThat(RequestTarget.parse("/flink/jobs/yarn%2Dcancel").segments())
                .containsExactly("flink", "jobs", "yarn-cancel");
        assertThat(RequestTarget.parse("/flink/jobs/yarn%2dcancel").path())
                .isEqualTo("/flink/jobs/yarn-cancel");
    }

    @Test
    void rootAndTrailingSlashAreKeptApart() throws Exception {
        assertThat(RequestTarget.parse("/").segments()).isEmpty();
        assertThat(RequestTarget.parse("/").path()).isEqualTo("/");
        assertThat(RequestTarget.parse("/flink/").segments()).containsExactly("flink");
        assertThat(RequestTarget.parse("/flink/").trailingSlash()).isTrue();
        assertThat(RequestTarget.parse("/flink").trailingSlash()).isFalse();
        assertThat(RequestTarget.parse("/flink/").startsWith(List.of("flink"))).isTrue();
    }

    @Test
    void unicodeIsDecodedFromValidUtf8() throws Exception {
        assertThat(RequestTarget.parse("/caf%C3%A9").segments()).containsExactly("café");
        assertThat(RequestTarget.parse("/%F0%9F%98%80").segments()).containsExactly("😀");
    }

    @Test
    void queryIsDecodedWithPlusAsSpace() throws Exception {
        RequestTarget t =
                RequestTarget.parse("/api/v1/metrics?prefix=a%2Cb&contains=x+y&flag&prefix=2");

        assertThat(t.query().asMap())
                .isEqualTo(
                        Map.of(
                                "prefix",
                                List.of("a,b", "2"),
                                "contains",
                                List.of("x y"),
                                "flag",
                                List.of("")));
    }

    @Test
    void bracketsInAQueryAreTakenRawAsBrowsersSendThem() throws Exception {
        RequestTarget t = RequestTarget.parse("/flink/x?get=0.Scan(table=[[c]]).n{1}|^`");

        assertThat(t.query().asMap())
                .isEqualTo(Map.of("get", List.of("0.Scan(table=[[c]]).n{1}|^`")));
        refused("/x?a=b\\c", TargetRefusal.ILLEGAL_CHARACTER);
        refused("/x[1]", TargetRefusal.ILLEGAL_CHARACTER);
    }

    @Test
    void eachRefusalIsNamedByItsRule() {
        refused("", TargetRefusal.NOT_ABSOLUTE);
        refused("metrics", TargetRefusal.NOT_ABSOLUTE);
        refused("http://evil.example/metrics", TargetRefusal.NOT_ABSOLUTE);
        refused("*", TargetRefusal.NOT_ABSOLUTE);
        refused("/metrics#x", TargetRefusal.FRAGMENT);
        refused("/a\\b", TargetRefusal.ILLEGAL_CHARACTER);
        refused("/a<b", TargetRefusal.ILLEGAL_CHARACTER);
        refused("/a\"b", TargetRefusal.ILLEGAL_CHARACTER);
        refused("/caf\u00e9", TargetRefusal.ILLEGAL_CHARACTER);
        refused("/a\u0000b", TargetRefusal.CONTROL_CHARACTER);
        refused("/a\tb", TargetRefusal.CONTROL_CHARACTER);
        refused("/a%zzb", TargetRefusal.MALFORMED_PERCENT);
        refused("/a%2", TargetRefusal.MALFORMED_PERCENT);
        refused("/a%", TargetRefusal.MALFORMED_PERCENT);
        refused("/a%+1", TargetRefusal.MALFORMED_PERCENT);
        refused("/%FF", TargetRefusal.INVALID_UTF8);
        refused("/%C3", TargetRefusal.INVALID_UTF8);
        refused("/%C0%AF", TargetRefusal.INVALID_UTF8); // overlong '/'
        refused("/%C0%AE%C0%AE/etc", TargetRefusal.INVALID_UTF8); // overlong '..'
        refused("/%E0%80%AF", TargetRefusal.INVALID_UTF8); // three-byte overlong '/'
        refused("/%ED%A0%80", TargetRefusal.INVALID_UTF8); // a lone surrogate
        refused("/a%2Fb", TargetRefusal.ENCODED_SEPARATOR);
        refused("/a%2fb", TargetRefusal.ENCODED_SEPARATOR);
        refused("/a%5Cb", TargetRefusal.ENCODED_SEPARATOR);
        refused("/flink/jobs/x/yarn%2Dcancel%2F", TargetRefusal.ENCODED_SEPARATOR);
        refused("/yarn%252Dcancel", TargetRefusal.DOUBLE_ENCODING);
        refused("/%25", TargetRefusal.DOUBLE_ENCODING);
        refused("/a%00b", TargetRefusal.CONTROL_CHARACTER);
        refused("/a%0Ab", TargetRefusal.CONTROL_CHARACTER);
        refused("/a%7Fb", TargetRefusal.CONTROL_CHARACTER);
        refused("/a%C2%85b", TargetRefusal.CONTROL_CHARACTER); // NEL, a C1 control
        refused("/..", TargetRefusal.DOT_SEGMENT);
        refused("/./metrics", TargetRefusal.DOT_SEGMENT);
        refused("/flink/../metrics", TargetRefusal.DOT_SEGMENT);
        refused("/%2e%2e/x", TargetRefusal.DOT_SEGMENT);
        refused("/%2E/x", TargetRefusal.DOT_SEGMENT);
        refused("/.%2e/x", TargetRefusal.DOT_SEGMENT);
        refused("/index.html/..", TargetRefusal.DOT_SEGMENT);
        refused("//metrics", TargetRefusal.EMPTY_SEGMENT);
        refused("/flink//jobs", TargetRefusal.EMPTY_SEGMENT);
        refused("/flink/jobs//", TargetRefusal.EMPTY_SEGMENT);
        refused("/x?a=%zz", TargetRefusal.MALFORMED_PERCENT);
        refused("/x?a=%FF", TargetRefusal.INVALID_UTF8);
        refused("/x?a=%00", TargetRefusal.CONTROL_CHARACTER);
        refused("/x?a=<script>", TargetRefusal.ILLEGAL_CHARACTER);
        refused(
                "/x?" + "a=1&".repeat(RequestTarget.MAX_QUERY_PARAMETERS + 1),
                TargetRefusal.TOO_MANY_PARAMETERS);
    }

    @Test
    void dotsInsideASegmentAreNotDotSegments() throws Exception {
        assertThat(RequestTarget.parse("/main.6cd4.js").segments()).containsExactly("main.6cd4.js");
        assertThat(RequestTarget.parse("/a.../b").segments()).containsExactly("a...", "b");
    }
}
