package io.flinkinsight.plugin.proxy;

import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.http.RequestTarget;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DashboardRoutesTest {

    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final String VERTEX = "fedcba9876543210fedcba9876543210";

    private static boolean allows(String pathInsideFlink) throws Exception {
        RequestTarget t = RequestTarget.parse("/flink" + pathInsideFlink);
        return DashboardRoutes.allows(
                t.segments().subList(1, t.segments().size()), t.trailingSlash());
    }

    @Test
    void dashboardReadsAreAllowed() throws Exception {
        for (String path :
                List.of(
                        "/",
                        "/index.html",
                        "/config",
                        "/overview",
                        "/jobs/overview",
                        "/jobs/" + JOB,
                        "/jobs/" + JOB + "/checkpoints",
                        "/jobs/" + JOB + "/checkpoints/details/42",
                        "/jobs/" + JOB + "/checkpoints/details/42/subtasks/" + VERTEX,
                        "/jobs/" + JOB + "/vertices/" + VERTEX + "/subtasks/metrics",
                        "/applications/" + JOB,
                        "/jobs/" + JOB + "/vertices/" + VERTEX + "/backpressure",
                        "/taskmanagers",
                        "/taskmanagers/127.0.0.1:39555-3a1f2b",
                        "/taskmanagers/flink-taskmanager-1-1/metrics",
                        "/jobmanager/config",
                        "/main.6cd446413e0aff84.js",
                        "/styles.css",
                        "/assets/images/flink.svg",
                        "/assets/vs/base/browser/ui/codicons/codicon/codicon.ttf",
                        "/assets/favicon/site.webmanifest")) {
            assertThat(allows(path)).as(path).isTrue();
        }
    }

    @Test
    void writesSideEffectsAndSensitiveReadsAreNotOnTheList() throws Exception {
        for (String path :
                List.of(
                        "/jobs/" + JOB + "/yarn-cancel",
                        "/jobs/" + JOB + "/yarn-stop",
                        "/jobs/" + JOB + "/%79arn-cancel",
                        "/jobs/" + JOB + "/YARN-CANCEL",
                        "/jobs/" + JOB + "/vertices/" + VERTEX + "/flamegraph",
                        "/jars",
                        "/jars/x.jar/plan",
                        "/jobmanager/logs",
                        "/jobmanager/logs/jobmanager.log",
                        "/jobmanager/log",
                        "/jobmanager/stdout",
                        "/jobmanager/thread-dump",
                        "/jobmanager/environment",
                        "/jobmanager/profiler",
                        "/taskmanagers/tm-1/logs",
                        "/taskmanagers/tm-1/thread-dump",
                        "/taskmanagers/tm-1/profiler",
                        "/jobs/" + JOB + "/savepoints",
                        "/jobs/" + JOB + "/stop",
                        "/jobs/" + JOB + "/rescaling",
                        "/jobs/" + JOB + "/jobmanager/environment",
                        "/datasets",
                        "/jobs/not-a-job-id",
                        "/jobs/" + JOB + "/checkpoints/details/-1",
                        "/jobs/overview/",
                        "/Jobs/overview",
                        "/jobmanager/logs.js",
                        "/jobs/x.js",
                        "/.hidden.js",
                        "/assets/.x/y.js",
                        "/unknown.exe",
                        "/v1/jobs/overview",
                        "/jobs/" + JOB.toUpperCase(java.util.Locale.ROOT),
                        "/libs/vs/loader.js",
                        "/jobs/" + JOB + "/resource-requirements",
                        "/jobs/" + JOB + "/checkpoints/" + JOB)) {
            assertThat(allows(path)).as(path).isFalse();
        }
    }

    @Test
    void noSegmentWithDotDotIsForwardedEvenWhereItsPatternWouldMatch() throws Exception {
        // found by TargetFuzzTest: file, folder and task manager id patterns take '.', so ".." got
        // through whole
        for (String path :
                List.of(
                        "/main.a..b.js",
                        "/assets/i18n/..x.json",
                        "/assets/a..b/flink.svg",
                        "/assets/x../y.css",
                        "/taskmanagers/host:6121-a1..b2",
                        "/taskmanagers/10.0.0.1..x/metrics")) {
            assertThat(allows(path)).as(path).isFalse();
        }
        assertThat(allows("/main.a.b.js")).isTrue();
        assertThat(allows("/taskmanagers/10.0.0.1:6121-a1b2/metrics")).isTrue();
    }

    @Test
    void upstreamUriIsReEncodedFromTheMatchedSegments() throws Exception {
        RequestTarget t =
                RequestTarget.parse(
                        "/flink/taskmanagers/127.0.0.1:1-a%62c/metrics?get=a%2Cb&x=1+2");
        List<String> inside = t.segments().subList(1, t.segments().size());

        URI uri = DashboardRoutes.upstreamUri("http://127.0.0.1:8081/", inside, false, t.query());

        assertThat(uri)
                .hasToString(
                        "http://127.0.0.1:8081/taskmanagers/127.0.0.1%3A1-abc/metrics?get=a%2Cb&x=1%202");
        assertThat(
                        DashboardRoutes.upstreamUri(
                                "https://gw:443/flink-ui",
                                List.of(),
                                true,
                                new QueryParameters(Map.of())))
                .hasToString("https://gw:443/flink-ui/");
    }

    @Test
    void everyRouteOnTheListSaysWhyAndUsesKnownParameters() throws Exception {
        for (DashboardRoutes.Route route : DashboardRoutes.ROUTES) {
            assertThat(route.why()).as(route.template()).isNotBlank();
            String sample =
                    route.template()
                            .replace(":jobid", JOB)
                            .replace(":vertexid", VERTEX)
                            .replace(":checkpointid", "7")
                            .replace(":applicationid", JOB)
                            .replace(":rescaleuuid", JOB)
                            .replace(":taskmanagerid", "tm-1");
            assertThat(sample).as(route.template()).doesNotContain(":");
            assertThat(allows(sample)).as(route.template()).isTrue();
        }
    }

    @Test
    void readmeListsExactlyTheAllowlistWithItsReasons() throws Exception {
        String readme =
                Files.readString(Path.of(System.getProperty("insight.readme", "../README.md")));
        String start = "<!-- proxy-routes:start -->";
        String end = "<!-- proxy-routes:end -->";
        assertThat(readme).contains(start, end);
        String documented =
                readme.substring(readme.indexOf(start) + start.length(), readme.indexOf(end))
                        .strip();
        StringBuilder expected =
                new StringBuilder(
                        "| route | query parameters | what of Flink's dashboard needs it |\n|---|---|---|\n");
        for (DashboardRoutes.Route route : DashboardRoutes.ROUTES) {
            String parameters =
                    route.parameters().stream()
                            .sorted()
                            .map(p -> "`" + p.flinkName() + "`: " + p.shape())
                            .reduce((a, b) -> a + "; " + b)
                            .orElse("none");
            expected.append("| `GET ")
                    .append(route.template())
                    .append("` | ")
                    .append(parameters.replace("|", "\\|"))
                    .append(" | ")
                    .append(route.why())
                    .append(" |\n");
        }
        assertThat(documented)
                .as("README's allowlist; replace it with:%n%s%n", expected.toString().strip())
                .isEqualTo(expected.toString().strip());
    }
}
