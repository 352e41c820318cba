package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.TestingClientMetrics;
import io.flinkinsight.plugin.api.CheckpointsEndpoint;
import io.flinkinsight.plugin.api.ClientEndpoint;
import io.flinkinsight.plugin.api.CompareEndpoint;
import io.flinkinsight.plugin.api.JobsEndpoint;
import io.flinkinsight.plugin.api.MetricsJson;
import io.flinkinsight.plugin.api.SeriesEndpoint;
import io.flinkinsight.plugin.api.SeriesNamesEndpoint;
import io.flinkinsight.plugin.hub.HubSeries;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.proxy.DashboardRoutesAccess;
import io.flinkinsight.plugin.runtime.MetricSampler;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.job.JobStore;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes what a request target goes through before anything answers it: {@link RequestTarget#parse}
 * (decoded once, ambiguous spellings refused), the dashboard proxy's allowlist of routes and query
 * parameters and the URI it sends to Flink, and the JSON endpoints' query parsing. Plain {@code mvn
 * test} replays the inputs committed under {@code
 * src/test/resources/io/flinkinsight/plugin/http/TargetFuzzTestInputs/requestTarget/}; with {@code
 * JAZZER_FUZZ=1} (scripts/fuzz.sh) Jazzer fuzzes.
 *
 * <p>An input is the raw bytes of a request target, read as ISO-8859-1 as Netty's request-line
 * decoder reads them, at most {@value #MAX_TARGET} bytes. The properties:
 *
 * <ol>
 *   <li>nothing but the declared refusals escapes ({@link TargetRefusal.Refused}, {@link
 *       BadRequestException});
 *   <li>an accepted target has segments that are neither empty, "." nor "..", and hold no '%', '\',
 *       '/' or control character (C0, DEL, C1), and a query without control characters;
 *   <li>what the proxy forwards is a listed route or a dashboard file, with only that route's
 *       parameters, each once, bounded and free of "..", '%', '\' and control characters; the URI
 *       sent to Flink decodes back to exactly the checked segments and parameters, and is spelled
 *       with unreserved characters, the separators '/', '?', '&amp;', '=' and %XX escapes only,
 *       without '\' or "..";
 *   <li>each JSON endpoint answers (and the answer serialises) or throws {@link
 *       BadRequestException}; a series answer's window starts at or after the epoch and not after
 *       its end.
 * </ol>
 */
class TargetFuzzTest {

    static final int MAX_TARGET = 4096;

    private static final long NOW = 1_800_000_000_000L;
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final String OTHER_JOB = "fedcba9876543210fedcba9876543210";
    private static final String FLINK = "http://127.0.0.1:8081/base";

    private static final Pattern ID_LIKE = Pattern.compile("[A-Za-z0-9._:-]+");
    private static final Pattern FILE_LIKE =
            Pattern.compile(
                    "[A-Za-z0-9._-]+\\.(html|js|css|json|svg|png|ico|webmanifest|xml|woff|woff2|ttf)");
    private static final Pattern FOLDER_LIKE = Pattern.compile("[A-Za-z0-9._-]+");
    private static final String UNRESERVED =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

    /**
     * The longest value the proxy's parameters take: 64 metric names of 300 characters and their
     * commas.
     */
    private static final int MAX_FORWARDED_VALUE = 64 * 300 + 63;

    private static final Map<String, Set<String>> ROUTES = DashboardRoutesAccess.routes();
    private static final List<JsonEndpoint> ENDPOINTS = endpoints();

    @FuzzTest(maxDuration = "5m")
    void requestTarget(byte[] input) throws Exception {
        if (input.length > MAX_TARGET) {
            return;
        }
        String raw = new String(input, StandardCharsets.ISO_8859_1);
        RequestTarget target;
        try {
            target = RequestTarget.parse(raw);
        } catch (TargetRefusal.Refused refused) {
            return;
        }
        checkAccepted(raw, target);
        List<String> segments = target.segments();
        if (!segments.isEmpty() && segments.get(0).equals(DashboardRoutesAccess.PREFIX)) {
            checkProxy(
                    raw,
                    segments.subList(1, segments.size()),
                    target.trailingSlash(),
                    target.query());
        }
        for (JsonEndpoint endpoint : ENDPOINTS) {
            checkEndpoint(raw, endpoint, target.query());
        }
    }

    // ---- 2. what RequestTarget accepts

    private static void checkAccepted(String raw, RequestTarget target) {
        for (String segment : target.segments()) {
            assertThat(segment)
                    .as("a segment of %s", raw)
                    .isNotEmpty()
                    .isNotEqualTo(".")
                    .isNotEqualTo("..")
                    .doesNotContain("%", "\\", "/");
            assertThat(hasControl(segment))
                    .as("control character in segment %s of %s", segment, raw)
                    .isFalse();
        }
        assertThat(target.query().asMap().size())
                .isLessThanOrEqualTo(RequestTarget.MAX_QUERY_PARAMETERS);
        target.query()
                .asMap()
                .forEach(
                        (name, values) -> {
                            assertThat(hasControl(name))
                                    .as("control character in parameter name of %s", raw)
                                    .isFalse();
                            for (String value : values) {
                                assertThat(hasControl(value))
                                        .as("control character in parameter value of %s", raw)
                                        .isFalse();
                            }
                        });
    }

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f));
    }

    // ---- 3. what the dashboard proxy forwards

    private static void checkProxy(
            String raw, List<String> inside, boolean trailingSlash, QueryParameters query)
            throws Exception {
        if (!DashboardRoutesAccess.forwards(inside, trailingSlash, query)) {
            return;
        }
        Set<String> allowedParameters = allowedParameters(raw, inside, trailingSlash);
        for (Map.Entry<String, List<String>> parameter : query.asMap().entrySet()) {
            assertThat(allowedParameters)
                    .as("parameters forwarded for %s", raw)
                    .contains(parameter.getKey());
            assertThat(parameter.getValue())
                    .as("values of %s forwarded for %s", parameter.getKey(), raw)
                    .hasSize(1);
            String value = parameter.getValue().get(0);
            assertThat(value.length())
                    .as("length of a value forwarded for %s", raw)
                    .isLessThanOrEqualTo(MAX_FORWARDED_VALUE);
            assertThat(value).as("a value forwarded for %s", raw).doesNotContain("..", "%", "\\");
            assertThat(hasControl(value))
                    .as("control character in a value forwarded for %s", raw)
                    .isFalse();
        }

        URI uri = DashboardRoutesAccess.upstreamUri(FLINK, inside, trailingSlash, query);
        String spelled = uri.toString();
        assertThat(spelled).as("URI for %s", raw).startsWith(FLINK + "/");
        String rest = spelled.substring(FLINK.length());
        checkSpelling(raw, rest);

        // What Flink decodes is what was checked: the same segments, the same parameters in the
        // same order.
        assertThat(uri.getRawFragment()).isNull();
        String rawPath = uri.getRawPath().substring(URI.create(FLINK).getRawPath().length());
        assertThat(rawPath).startsWith("/");
        List<String> decodedSegments = new ArrayList<>();
        String[] parts = rawPath.substring(1).split("/", -1);
        boolean endsWithSlash = parts[parts.length - 1].isEmpty();
        for (int i = 0; i < parts.length - (endsWithSlash ? 1 : 0); i++) {
            decodedSegments.add(percentDecode(parts[i]));
        }
        assertThat(decodedSegments).as("segments sent to Flink for %s", raw).isEqualTo(inside);
        assertThat(endsWithSlash)
                .as("trailing slash sent to Flink for %s", raw)
                .isEqualTo(inside.isEmpty() || trailingSlash);
        List<String> sentPairs = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&", -1)) {
                int eq = pair.indexOf('=');
                assertThat(eq).as("a parameter sent to Flink for %s", raw).isPositive();
                sentPairs.add(percentDecode(pair.substring(0, eq)));
                sentPairs.add(percentDecode(pair.substring(eq + 1)));
            }
        }
        List<String> checkedPairs = new ArrayList<>();
        query.asMap()
                .forEach(
                        (name, values) ->
                                values.forEach(
                                        v -> {
                                            checkedPairs.add(name);
                                            checkedPairs.add(v);
                                        }));
        assertThat(sentPairs).as("parameters sent to Flink for %s", raw).isEqualTo(checkedPairs);
    }

    /** The parameters a forwarded path may take: a route's, or none for the dashboard's files. */
    private static Set<String> allowedParameters(
            String raw, List<String> inside, boolean trailingSlash) {
        if (inside.isEmpty()) {
            assertThat(trailingSlash).as("the dashboard's index is /flink/, for %s", raw).isTrue();
            return Set.of();
        }
        assertThat(trailingSlash).as("no route or file ends in '/', for %s", raw).isFalse();
        for (Map.Entry<String, Set<String>> route : ROUTES.entrySet()) {
            if (matches(route.getKey(), inside)) {
                return route.getValue();
            }
        }
        String file = inside.get(inside.size() - 1);
        assertThat(file).as("neither a route nor a dashboard file: %s", raw).matches(FILE_LIKE);
        if (inside.size() > 1) {
            assertThat(inside.get(0))
                    .as("a file outside the dashboard's folder: %s", raw)
                    .isEqualTo(DashboardRoutesAccess.FILE_FOLDER);
            for (String folder : inside.subList(1, inside.size() - 1)) {
                assertThat(folder).as("a folder of %s", raw).matches(FOLDER_LIKE);
            }
        }
        return Set.of();
    }

    /** A route template's literal parts equal, its parameters (":jobid") plain identifiers. */
    private static boolean matches(String template, List<String> inside) {
        String[] parts = template.substring(1).split("/");
        if (parts.length != inside.size()) {
            return false;
        }
        for (int i = 0; i < parts.length; i++) {
            boolean ok =
                    parts[i].startsWith(":")
                            ? ID_LIKE.matcher(inside.get(i)).matches()
                            : parts[i].equals(inside.get(i));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Unreserved characters, '/', one '?', then '&' and '=', and %XX escapes: nothing Flink could
     * read otherwise.
     */
    private static void checkSpelling(String raw, String rest) {
        assertThat(rest).as("URI sent to Flink for %s", raw).doesNotContain("\\", "..");
        boolean inQuery = false;
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (UNRESERVED.indexOf(c) >= 0
                    || c == '/' && !inQuery
                    || (c == '&' || c == '=') && inQuery) {
                continue;
            }
            if (c == '?' && !inQuery) {
                inQuery = true;
                continue;
            }
            assertThat(
                            c == '%'
                                    && i + 2 < rest.length()
                                    && isHex(rest.charAt(i + 1))
                                    && isHex(rest.charAt(i + 2)))
                    .as("character %s at %d of %s, sent to Flink for %s", c, i, rest, raw)
                    .isTrue();
            i += 2;
        }
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f';
    }

    /**
     * Percent-decodes UTF-8 as a server would ('+' is itself: the proxy never sends it for a
     * space).
     */
    private static String percentDecode(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                assertThat((int) c).isLessThan(0x80);
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    // ---- 4. the JSON endpoints' query parsing

    private static void checkEndpoint(String raw, JsonEndpoint endpoint, QueryParameters query)
            throws Exception {
        Object answer;
        try {
            answer = endpoint.handle(query);
        } catch (BadRequestException expected) {
            return;
        }
        assertThat(Json.toBytes(answer))
                .as("%s answering %s", endpoint.getClass().getSimpleName(), raw)
                .isNotEmpty();
        if (answer instanceof SeriesEndpoint.Response series) {
            // a window whose span (to - from) is a non-negative long, read with a step, at most so
            // many points
            assertThat(series.from())
                    .as("from answering %s", raw)
                    .isNotNegative()
                    .isLessThanOrEqualTo(series.to());
            assertThat(series.step()).as("step answering %s", raw).isNotNegative();
            for (SeriesEndpoint.SeriesPoints points : series.series()) {
                assertThat(points.points()).hasSizeLessThanOrEqualTo(2_000);
            }
        }
    }

    /**
     * The endpoints over small stores with a job, its checkpoints, some series and a client's
     * figures.
     */
    private static List<JsonEndpoint> endpoints() {
        TestingClock clock = new TestingClock(NOW);
        SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);
        JobStore jobs = new JobStore(10, clock);
        CheckpointStore checkpoints = new CheckpointStore(100, 10);
        jobs.onRestOverview(JOB, "job", "RUNNING", NOW - 3_600_000, -1);
        jobs.onRestOverview(OTHER_JOB, "other", "FINISHED", NOW - 7_200_000, NOW - 60_000);
        for (int i = 1; i <= 5; i++) {
            long trigger = NOW - 600_000 + i * 60_000L;
            PhaseFigures max = new PhaseFigures(null, null, null, null, 5L, 50L, null, null);
            checkpoints.add(
                    new CheckpointRecord(
                            JOB,
                            "job",
                            i,
                            i == 3 ? "FAILED" : "COMPLETED",
                            "Checkpoint",
                            false,
                            trigger,
                            trigger + 100 * i,
                            100L * i,
                            1_000L * i,
                            500L * i,
                            100L,
                            max,
                            max,
                            List.of(),
                            "span"));
        }
        MetricIndex index = new MetricIndex(true);
        TestingClientMetrics.register(index::add, "client-host", 3);
        MetricSampler sampler = new MetricSampler(index, series::record, clock, 5_000);
        for (long t = NOW - 300_000; t <= NOW; t += 60_000) {
            sampler.sample(t);
            for (String job : List.of(JOB, OTHER_JOB)) {
                SeriesKey in =
                        new SeriesKey(
                                HubSeries.RECORDS_IN,
                                List.of("job_id", "job_name", "vertex_id", "vertex_name"),
                                List.of(job, "job", "v1", "src"));
                series.record(in, t, (t - NOW) / 1_000.0);
            }
        }
        return List.of(
                // /api/v1/metrics, as InsightRuntime routes it
                query ->
                        MetricsJson.read(
                                index.families(),
                                query.get("prefix").orElse(""),
                                query.get("contains").orElse(""),
                                (int) query.getLong("limit", 1000, 1, 100_000),
                                new LongAdder()),
                new SeriesEndpoint(series),
                new SeriesNamesEndpoint(series),
                new JobsEndpoint(jobs, checkpoints),
                new CheckpointsEndpoint(checkpoints, jobs, clock),
                new CompareEndpoint(checkpoints, jobs, series, clock),
                new ClientEndpoint(series, Duration.ofMinutes(1)),
                new ClientEndpoint(series));
    }
}
