package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.api.CompareQuery.KnownJobs;
import io.flinkinsight.plugin.api.CompareQuery.Range;
import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.QueryParameters;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompareQueryTest {

    private static final String A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    private static final KnownJobs ALL_KNOWN = (id, parameter) -> {};

    private static void assertBad(QueryParameters query, String message) {
        assertThatThrownBy(() -> CompareQuery.parse(query, ALL_KNOWN))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining(message);
    }

    @Test
    void jobIdsAreTrimmedAndLowerCasedInTheirOrder() throws Exception {
        CompareQuery q =
                CompareQuery.parse(
                        QueryParams.of("jobs", " " + B.toUpperCase() + " ," + A), ALL_KNOWN);

        assertThat(q).isEqualTo(new CompareQuery("jobs", List.of(B, A), List.of()));
    }

    @Test
    void rangesAreReadForTheOneJob() throws Exception {
        CompareQuery q =
                CompareQuery.parse(
                        QueryParams.of("job", A.toUpperCase(), "ranges", "1-2, 3-40"), ALL_KNOWN);

        assertThat(q)
                .isEqualTo(
                        new CompareQuery(
                                "ranges", List.of(A), List.of(new Range(1, 2), new Range(3, 40))));
    }

    @Test
    void hostileJobListsAreRefusedWithTheAcceptedForm() {
        for (String jobs :
                List.of(
                        "",
                        ",",
                        A + ",",
                        A + ",," + B,
                        A + "," + A.toUpperCase(),
                        A + ";" + B,
                        A + "," + B + "0",
                        A + "," + "g".repeat(32),
                        A + "," + B + "," + A,
                        "%00," + A,
                        String.join(",", A, B, "1".repeat(32), "2".repeat(32), "3".repeat(32)))) {
            assertBad(QueryParams.of("jobs", jobs), CompareQuery.JOBS_FORM);
        }
    }

    @Test
    void hostileRangesAreRefusedWithTheAcceptedForm() {
        for (String ranges :
                List.of(
                        "",
                        "1-2",
                        "1-2,",
                        "1-2,,3-4",
                        "2-1,3-4",
                        "1-1,3-4",
                        "-1-2,3-4",
                        "1--2,3-4",
                        "1-2,3-4,5-6,7-8,9-10",
                        "1-9999999999999999,3-4",
                        "1e3-2e3,3-4",
                        "now-1h,1-2",
                        "١-٢,3-4",
                        "0x1-0x2,3-4",
                        "1 - 2,3-4")) {
            assertBad(QueryParams.of("job", A, "ranges", ranges), CompareQuery.RANGES_FORM);
        }
    }

    @Test
    void exactlyOneFormIsAccepted() {
        assertBad(QueryParams.of(), CompareQuery.EITHER_FORM);
        assertBad(QueryParams.of("ranges", "1-2,3-4"), CompareQuery.EITHER_FORM);
        assertBad(QueryParams.of("jobs", A + "," + B, "job", A), CompareQuery.EITHER_FORM);
        assertBad(
                QueryParams.of("jobs", A + "," + B, "ranges", "1-2,3-4"), CompareQuery.EITHER_FORM);
        assertBad(QueryParams.of("job", A), CompareQuery.RANGES_FORM);
        assertBad(
                QueryParams.of("job", "xyz", "ranges", "1-2,3-4"),
                "parameter 'job' must be a job id");
        assertBad(QueryParams.of("job", A, "job", B, "ranges", "1-2,3-4"), "given more than once");
    }

    @Test
    void anUnknownJobIsNamedBeforeTheRangesAreRead() {
        List<String> asked = new ArrayList<>();
        KnownJobs none =
                (id, parameter) -> {
                    asked.add(parameter + "=" + id);
                    throw new BadRequestException("unknown " + id);
                };

        assertThatThrownBy(
                        () -> CompareQuery.parse(QueryParams.of("job", A, "ranges", "bad"), none))
                .hasMessage("unknown " + A);
        assertThatThrownBy(() -> CompareQuery.parse(QueryParams.of("jobs", A + "," + B), none))
                .hasMessage("unknown " + A);
        assertThat(asked).containsExactly("job=" + A, "jobs=" + A);
    }
}
