package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementStore;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueriesEndpointTest {

    private static final String JOB = "0123456789abcdef0123456789abcdef";

    private final StatementStore statements = new StatementStore(100, 1 << 20);
    private final JobStore jobs =
            new JobStore(100, Clock.fixed(Instant.ofEpochMilli(0), ZoneOffset.UTC));
    private final QueriesEndpoint endpoint = new QueriesEndpoint(statements, jobs);

    /** A query that started at {@code start}, its phases ending 5, 20, 30 and 80 ms later. */
    static QuerySample query(String sql, long start, long e2e, String jobId) {
        return QuerySample.of(
                sql,
                "",
                jobId,
                "SUCCEEDED",
                start,
                start + e2e,
                e2e,
                start + 5,
                start + 20,
                start + 30,
                start + 80,
                5L,
                20L,
                10L,
                50L,
                e2e - 80,
                7L,
                0L,
                false);
    }

    private Object answer(Map<String, List<String>> parameters) throws BadRequestException {
        return endpoint.handle(new QueryParameters(parameters));
    }

    @Test
    void aStatementsSlowestAndLatestQueriesEachHaveATimelineThatAddsUpToTheirTime()
            throws BadRequestException {
        for (int i = 0; i < 8; i++) {
            statements.add(query("SELECT a FROM t WHERE id = " + i, 1_000L * i, 100 + 10 * i, JOB));
        }
        String id =
                statements
                        .rows(io.flinkinsight.plugin.store.statement.StatementOrder.TOTAL, 1)
                        .get(0)
                        .id();

        QueriesEndpoint.StatementQueries kept =
                (QueriesEndpoint.StatementQueries) answer(Map.of("statement", List.of(id)));

        assertThat(kept.statement()).isEqualTo("SELECT a FROM t WHERE id = ?");
        assertThat(kept.slowest())
                .extracting(QueryView::e2eMs)
                .containsExactly(170L, 160L, 150L, 140L, 130L);
        assertThat(kept.latest())
                .extracting(QueryView::start)
                .containsExactly(7_000L, 6_000L, 5_000L, 4_000L, 3_000L);
        for (QueryView q : kept.slowest()) {
            List<QueryPhase> client =
                    q.phases().stream().filter(p -> p.side().equals(QueryPhase.CLIENT)).toList();
            assertThat(client)
                    .extracting(QueryPhase::name)
                    .containsExactly(
                            "admissionWait", "submit", "jobStartWait", "clusterRun", "resultFetch");
            assertThat(client.stream().mapToLong(p -> p.end() - p.start()).sum())
                    .isEqualTo(q.e2eMs());
            assertThat(client.get(0).start()).isEqualTo(q.start());
            assertThat(client.get(client.size() - 1).end()).isEqualTo(q.end());
        }
    }

    @Test
    void theJobManagersPhasesJoinTheQueryByItsJobOnceTheJobIsKnown() throws BadRequestException {
        statements.add(query("SELECT 1", 1_000, 200, JOB));
        QueriesEndpoint.LoggedQueries before = (QueriesEndpoint.LoggedQueries) answer(Map.of());
        assertThat(before.queries().get(0).phases())
                .allMatch(p -> p.side().equals(QueryPhase.CLIENT));
        assertThat(before.queries().get(0).jobStatus()).isNull();

        jobs.onStatus(JOB, "SELECT ?", "CREATED", 1_021);
        jobs.onStatus(JOB, "SELECT ?", "RUNNING", 1_025);
        jobs.onAllSubtasksRunning(JOB, "SELECT ?", 1_040);
        jobs.onStatus(JOB, "SELECT ?", "FINISHED", 1_075);

        QueryView after = ((QueriesEndpoint.LoggedQueries) answer(Map.of())).queries().get(0);
        assertThat(after.jobStatus()).isEqualTo("FINISHED");
        assertThat(after.phases())
                .filteredOn(p -> p.side().equals(QueryPhase.CLUSTER))
                .containsExactly(
                        new QueryPhase(QueryPhase.CLUSTER, "scheduling", 1_021, 1_025),
                        new QueryPhase(QueryPhase.CLUSTER, "deploying", 1_025, 1_040),
                        new QueryPhase(QueryPhase.CLUSTER, "running", 1_040, 1_075));
    }

    @Test
    void aQueryThatFailedBeforeItsJobEndsInThePhaseItDidNotFinish() {
        QuerySample failed =
                QuerySample.of(
                        "SELECT 1",
                        "",
                        null,
                        "FAILED",
                        0,
                        50,
                        50L,
                        3L,
                        null,
                        null,
                        null,
                        3L,
                        null,
                        null,
                        null,
                        null,
                        1L,
                        0L,
                        false);

        assertThat(QueryView.clientPhases(failed))
                .containsExactly(
                        new QueryPhase(QueryPhase.CLIENT, "admissionWait", 0, 3),
                        new QueryPhase(QueryPhase.CLIENT, "submit", 3, 50));
    }

    @Test
    void theLogIsReadAfterANumberOldestFirstWithinTheLimit() throws BadRequestException {
        for (int i = 0; i < 10; i++) {
            statements.add(query("SELECT " + i, i, 100, null));
        }

        QueriesEndpoint.LoggedQueries page =
                (QueriesEndpoint.LoggedQueries)
                        answer(Map.of("after", List.of("4"), "limit", List.of("3")));

        assertThat(page.queries()).extracting(QueryView::seq).containsExactly(5L, 6L, 7L);
        assertThat(page.firstSeq()).isEqualTo(1);
        assertThat(page.lastSeq()).isEqualTo(10);
        assertThat(page.instance()).isEqualTo(statements.instance());
        QueriesEndpoint.LoggedQueries latest =
                (QueriesEndpoint.LoggedQueries) answer(Map.of("limit", List.of("2")));
        assertThat(latest.queries()).extracting(QueryView::seq).containsExactly(10L, 9L);
    }

    @Test
    void refusesWhatItDoesNotName() {
        List<Map<String, List<String>>> bad =
                List.of(
                        Map.of("statement", List.of("ABCDEF0123456789")),
                        Map.of("statement", List.of("0123")),
                        Map.of("statement", List.of("0123456789abcdef"), "limit", List.of("1")),
                        Map.of("after", List.of("-1")),
                        Map.of("after", List.of("1e3")),
                        Map.of("limit", List.of("501")),
                        Map.of("limit", List.of("0")),
                        Map.of("sort", List.of("total")));
        for (Map<String, List<String>> parameters : bad) {
            assertThatThrownBy(() -> answer(parameters))
                    .as("%s", parameters)
                    .isInstanceOf(BadRequestException.class);
        }
    }

    @Test
    void aStatementNotKeptHasNoQueries() throws BadRequestException {
        QueriesEndpoint.StatementQueries none =
                (QueriesEndpoint.StatementQueries)
                        answer(Map.of("statement", List.of("0123456789abcdef")));

        assertThat(none.statement()).isNull();
        assertThat(none.slowest()).isEmpty();
        assertThat(none.latest()).isEmpty();
    }

    @Test
    void aPageOfLongStatementsEndsBeforeItsBytesBoundAndTheRestFollows() throws Exception {
        StatementStore big = new StatementStore(1_000, 1L << 30);
        for (int i = 0; i < 500; i++) {
            big.add(query("SELECT " + "中".repeat(2_000) + i + " FROM t", i, 10, null));
        }
        QueriesEndpoint log = new QueriesEndpoint(big, jobs);

        QueriesEndpoint.LoggedQueries page =
                (QueriesEndpoint.LoggedQueries)
                        log.handle(
                                new QueryParameters(
                                        Map.of("after", List.of("0"), "limit", List.of("500"))));

        byte[] json = io.flinkinsight.plugin.http.Json.mapper().writeValueAsBytes(page);
        assertThat(json.length).isLessThanOrEqualTo((int) QueriesEndpoint.PAGE_BYTES + 64 * 1024);
        assertThat(page.queries()).hasSizeBetween(100, 499);
        long last = page.queries().get(page.queries().size() - 1).seq();
        assertThat(last).isLessThan(page.lastSeq());
    }
}
