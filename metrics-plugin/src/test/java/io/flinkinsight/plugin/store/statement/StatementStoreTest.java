package io.flinkinsight.plugin.store.statement;

import io.flinkinsight.common.StatementText;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StatementStoreTest {

    private final StatementStore store = new StatementStore(100, 1 << 20);

    @Test
    void queriesThatDifferOnlyInLiteralsAreOneStatementWithTheirCountsAndTimes() {
        for (int i = 1; i <= 10; i++) {
            store.addSpan(
                    TestingQuerySpan.query(
                            "SELECT a FROM t WHERE id = " + i, "SUCCEEDED", 100L * i, 60L * i));
        }
        store.addSpan(TestingQuerySpan.query("SELECT a FROM t WHERE id = 99", "FAILED", 5, -1));
        store.addSpan(TestingQuerySpan.query("SELECT a FROM t WHERE id = 98", "CANCELED", 5, -1));

        List<StatementRow> rows = store.rows(StatementOrder.TOTAL, 10);

        assertThat(rows).hasSize(1);
        StatementRow row = rows.get(0);
        assertThat(row.statement()).isEqualTo("SELECT a FROM t WHERE id = ?");
        assertThat(row.id()).isEqualTo(StatementText.fingerprint(row.statement()));
        assertThat(row.calls()).isEqualTo(12);
        assertThat(row.failed()).isEqualTo(1);
        assertThat(row.canceled()).isEqualTo(1);
        assertThat(row.totalMs()).isEqualTo(5_510);
        assertThat(row.maxMs()).isEqualTo(1_000);
        assertThat(row.share()).isEqualTo(1.0);
        assertThat(row.clusterP99Ms()).isBetween(560L, 640L);
        // outside the job: e2e - clusterRun = 40 * i, over the ten that reached the cluster
        assertThat(row.outsideJobMeanMs()).isEqualTo(220);
        assertThat(row.partsP50Ms()).containsKeys("submit", "clusterRun");
        assertThat(row.partsP50Ms()).doesNotContainKey("jobStartWait");
    }

    @Test
    void literalsAreKeptOnlyWhenTheStoreAndTheSpanBothSaySo() {
        String sql = "SELECT a FROM t  WHERE mail = 'a@b.c' -- who";
        String kept = "SELECT a FROM t WHERE mail = 'a@b.c'";
        String normalized = "SELECT a FROM t WHERE mail = ?";
        TestingQuerySpan marked = TestingQuerySpan.query(sql, "SUCCEEDED", 10, 5);
        marked.attributes().put("literalsKept", "true");
        TestingQuerySpan unmarked = TestingQuerySpan.query(sql, "SUCCEEDED", 10, 5);
        TestingQuerySpan markedFalse = TestingQuerySpan.query(sql, "SUCCEEDED", 10, 5);
        markedFalse.attributes().put("literalsKept", "false");

        StatementStore byDefault = new StatementStore(100, 1 << 20);
        byDefault.addSpan(marked);
        byDefault.addSpan(unmarked);
        assertThat(byDefault.keepsLiterals()).isFalse();
        assertThat(byDefault.rows(StatementOrder.TOTAL, 10))
                .singleElement()
                .satisfies(row -> assertThat(row.statement()).isEqualTo(normalized));
        assertThat(byDefault.newest(2).queries())
                .allSatisfy(q -> assertThat(q.literalsKept()).isFalse());

        StatementStore keeping = new StatementStore(100, 1 << 20, true);
        keeping.addSpan(unmarked);
        keeping.addSpan(markedFalse);
        assertThat(keeping.rows(StatementOrder.TOTAL, 10))
                .singleElement()
                .satisfies(row -> assertThat(row.statement()).isEqualTo(normalized));
        keeping.addSpan(marked);
        assertThat(keeping.rows(StatementOrder.TOTAL, 10))
                .extracting(StatementRow::statement)
                .containsExactlyInAnyOrder(normalized, kept);
        StatementRow keptRow =
                keeping.rows(StatementOrder.TOTAL, 10).stream()
                        .filter(row -> row.statement().equals(kept))
                        .findFirst()
                        .orElseThrow();
        assertThat(keptRow.id()).isEqualTo(StatementText.fingerprint(kept));
        assertThat(keeping.newest(1).queries().get(0).literalsKept()).isTrue();
    }

    @Test
    void aSlowStatementRanksFirstByP99AndAFrequentOneByCalls() {
        for (int i = 0; i < 50; i++) {
            store.addSpan(TestingQuerySpan.query("SELECT 1", "SUCCEEDED", 20, 10));
        }
        store.addSpan(TestingQuerySpan.query("SELECT slow FROM t", "SUCCEEDED", 5_000, 4_000));

        assertThat(store.rows(StatementOrder.P99, 1).get(0).statement())
                .isEqualTo("SELECT slow FROM t");
        assertThat(store.rows(StatementOrder.CALLS, 1).get(0).statement()).isEqualTo("SELECT ?");
        assertThat(store.rows(StatementOrder.TOTAL, 2))
                .extracting(StatementRow::statement)
                .containsExactly("SELECT slow FROM t", "SELECT ?");
    }

    @Test
    void beyondItsCountTheStatementsThatCostLeastGoFirst() {
        StatementStore small = new StatementStore(3, 1 << 20);
        small.addSpan(TestingQuerySpan.query("SELECT a FROM t1", "SUCCEEDED", 1_000, 1));
        small.addSpan(TestingQuerySpan.query("SELECT a FROM t2", "SUCCEEDED", 10, 1));
        small.addSpan(TestingQuerySpan.query("SELECT a FROM t3", "SUCCEEDED", 500, 1));
        small.addSpan(TestingQuerySpan.query("SELECT a FROM t4", "SUCCEEDED", 1, 1));

        assertThat(small.rows(StatementOrder.TOTAL, 10))
                .extracting(StatementRow::statement)
                .containsExactly("SELECT a FROM t1", "SELECT a FROM t3", "SELECT a FROM t4");
        assertThat(small.evicted()).isEqualTo(1);
    }

    @Test
    void manyLongStatementsStayWithinTheByteBound() {
        long maxBytes = 200_000;
        StatementStore bounded = new StatementStore(10_000, maxBytes);
        for (int i = 0; i < 2_000; i++) {
            String longName = "c" + i + "_" + "x".repeat(5_000);
            bounded.addSpan(
                    TestingQuerySpan.query("SELECT " + longName + " FROM t", "SUCCEEDED", i, i));
        }

        assertThat(bounded.estimatedBytes()).isBetween(1L, maxBytes);
        assertThat(bounded.size()).isLessThan(2_000).isGreaterThan(10);
        assertThat(bounded.rows(StatementOrder.TOTAL, 10_000))
                .allSatisfy(
                        row ->
                                assertThat(row.statement())
                                        .hasSizeLessThanOrEqualTo(StatementText.MAX_CHARS));
    }

    @Test
    void aSpanThatIsNotTheClientsQueryOrIsMalformedIsIgnored() {
        Map<String, Object> noText = new HashMap<>(Map.of("e2eMs", 5L));
        Map<String, Object> badE2e = new HashMap<>(Map.of("statement", "SELECT 1", "e2eMs", "x"));
        TestingQuerySpan good = TestingQuerySpan.query("SELECT 1", "SUCCEEDED", 5, 1);

        store.addSpan(new TestingQuerySpan("user.scope", "Query", 1, good.attributes()));
        store.addSpan(new TestingQuerySpan(QuerySample.SPAN_SCOPE, "Other", 1, good.attributes()));
        store.addSpan(new TestingQuerySpan(QuerySample.SPAN_SCOPE, "Query", 1, noText));
        store.addSpan(new TestingQuerySpan(QuerySample.SPAN_SCOPE, "Query", 1, badE2e));
        store.addSpan(new TestingQuerySpan(QuerySample.SPAN_SCOPE, "Query", 1, null));

        assertThat(store.size()).isZero();
    }

    @Test
    void aSpanCarryingLiteralsOrHugeNumbersKeepsNeither() {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("statement", "SELECT * FROM users WHERE email = 'someone@example.com'");
        attributes.put("e2eMs", Long.MAX_VALUE);
        attributes.put("outcome", "<script>");
        store.addSpan(
                new TestingQuerySpan(QuerySample.SPAN_SCOPE, QuerySample.SPAN_NAME, 1, attributes));

        StatementRow row = store.rows(StatementOrder.TOTAL, 1).get(0);
        assertThat(row.statement()).isEqualTo("SELECT * FROM users WHERE email = ?");
        assertThat(row.failed()).isEqualTo(1);
        assertThat(row.maxMs()).isLessThan(400L * 24 * 3600 * 1000);
    }

    @Test
    void statementsWhoseHistogramsGrowStayWithinTheByteBound() {
        StatementStore bounded = new StatementStore(100, 6_000);
        bounded.addSpan(TestingQuerySpan.query("SELECT a FROM small", "SUCCEEDED", 1, 1));
        for (long e2e = 1; e2e < 3_600_000; e2e *= 2) {
            bounded.addSpan(TestingQuerySpan.query("SELECT a FROM big", "SUCCEEDED", e2e, e2e));
            assertThat(bounded.estimatedBytes()).isLessThanOrEqualTo(6_000);
        }
    }

    @Test
    void aNegativeTimeIsNoQueryAndAQuantileNeverExceedsTheMaximum() {
        store.addSpan(TestingQuerySpan.query("SELECT 1", "SUCCEEDED", -5, 1));
        assertThat(store.size()).isZero();

        store.addSpan(TestingQuerySpan.query("SELECT 1", "SUCCEEDED", 97, 1));

        StatementRow row = store.rows(StatementOrder.TOTAL, 1).get(0);
        assertThat(row.p99Ms()).isLessThanOrEqualTo(row.maxMs()).isEqualTo(97);
    }

    @Test
    void aStatementNoLongerRunGivesWayToNewOnesInTime() {
        long hour = 3_600_000;
        StatementStore small = new StatementStore(3, 1 << 20);
        small.add(TestingQuerySpan.sample("SELECT a FROM old_big", 0, 10_000));
        small.add(TestingQuerySpan.sample("SELECT a FROM old_small", 0, 1_000));
        small.add(TestingQuerySpan.sample("SELECT a FROM new_1", 10 * hour, 100));
        small.add(TestingQuerySpan.sample("SELECT a FROM new_2", 10 * hour, 100));

        // by total time alone new_1 would have gone: 1,000 ms ten hours ago is worth less now
        assertThat(small.rows(StatementOrder.TOTAL, 10))
                .extracting(StatementRow::statement)
                .containsExactlyInAnyOrder(
                        "SELECT a FROM old_big", "SELECT a FROM new_1", "SELECT a FROM new_2");
    }
}
