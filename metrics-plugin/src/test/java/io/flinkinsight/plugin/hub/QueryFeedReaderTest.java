package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.store.statement.StatementOrder;
import io.flinkinsight.plugin.store.statement.StatementRow;
import io.flinkinsight.plugin.store.statement.StatementStore;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QueryFeedReaderTest {

    /** The hub's clock: the queries of {@link #page} ran a second before. */
    private static final long NOW = 2_000;

    private final StatementStore hub = new StatementStore(100, 1 << 20);
    private final QueryFeedReader reader = new QueryFeedReader(hub, new ClientRefusal.Counts());

    private static byte[] page(String instance, long firstSeq, long... seqs) {
        List<String> queries = new ArrayList<>();
        for (long seq : seqs) {
            queries.add(
                    "{\"seq\":"
                            + seq
                            + ",\"statement\":\"SELECT a FROM t WHERE id = "
                            + seq
                            + "\",\"outcome\":\"SUCCEEDED\",\"start\":1000,\"end\":1100,"
                            + "\"e2eMs\":100,\"admittedAt\":1002,\"partsMs\":{\"clusterRun\":60}}");
        }
        return ("{\"instance\":\""
                        + instance
                        + "\",\"firstSeq\":"
                        + firstSeq
                        + ",\"lastSeq\":"
                        + (seqs.length == 0 ? 0 : seqs[seqs.length - 1])
                        + ",\"queries\":["
                        + String.join(",", queries)
                        + "]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private long calls() {
        List<StatementRow> rows = hub.rows(StatementOrder.TOTAL, 10);
        return rows.stream().mapToLong(StatementRow::calls).sum();
    }

    @Test
    void eachQueryIsCountedOnceWhateverIsReadAgain() {
        reader.record("gw:9250", page("a", 1, 1, 2, 3), NOW);
        reader.record("gw:9250", page("a", 1, 2, 3, 4), NOW);

        assertThat(calls()).isEqualTo(4);
        assertThat(hub.rows(StatementOrder.TOTAL, 10))
                .singleElement()
                .satisfies(
                        row ->
                                assertThat(row.statement())
                                        .isEqualTo("SELECT a FROM t WHERE id = ?"));
        assertThat(hub.newest(1).queries().get(0).source()).isEqualTo("gw:9250");
        assertThat(reader.missed()).isZero();
    }

    @Test
    void aHubThatStartedAgainReadsOnFromWhereItsStatementsOnDiskSayAndCountsNoneTwice() {
        reader.record("gw:9250", page("a", 1, 1, 2, 3), NOW);
        StatementStore restarted = new StatementStore(100, 1 << 20);
        restarted.restore(hub.snapshot());
        QueryFeedReader again = new QueryFeedReader(restarted, new ClientRefusal.Counts());
        again.record("gw:9250", page("a", 1, 1, 2, 3, 4, 5), NOW);

        assertThat(restarted.rows(StatementOrder.TOTAL, 10).get(0).calls()).isEqualTo(5);
        assertThat(again.missed()).isZero();
    }

    @Test
    void aGatewayThatStartedAgainIsReadFromItsStartAndDroppedQueriesAreCountedAsMissed() {
        reader.record("gw:9250", page("a", 1, 1, 2), NOW);
        assertThat(reader.record("gw:9250", page("b", 1, 1), NOW))
                .as("another instance: its log is read again from its start")
                .isTrue();
        reader.record("gw:9250", page("b", 1, 1), NOW);
        reader.record("gw:9250", page("b", 5, 5, 6), NOW);

        assertThat(calls()).isEqualTo(5);
        assertThat(reader.missed()).isEqualTo(3); // 2, 3 and 4 of the second instance
    }

    @Test
    void twoGatewaysAreOneStatement() {
        reader.record("gw-1:9250", page("a", 1, 1, 2), NOW);
        reader.record("gw-2:9250", page("a", 1, 1, 2, 3), NOW);

        assertThat(hub.size()).isEqualTo(1);
        assertThat(calls()).isEqualTo(5);
    }

    @Test
    void anAnswerThatIsNotALogCountsNothing() {
        for (String body :
                new String[] {
                    "not json",
                    "[]",
                    "{\"queries\":[]}",
                    "{\"instance\":\"a\",\"queries\":{}}",
                    "{\"instance\":\"a\",\"queries\":[{\"seq\":1,\"statement\":\"SELECT 1\"}]}",
                    "{\"instance\":\"a\",\"queries\":[{\"seq\":2,\"statement\":\"SELECT 1\","
                            + "\"start\":\"x\",\"end\":1,\"e2eMs\":1}]}",
                    "{\"instance\":\"a\",\"queries\":[{\"seq\":3,\"statement\":\"SELECT 1\","
                            + "\"start\":5,\"end\":1,\"e2eMs\":1}]}",
                    "{\"instance\":\"a\",\"queries\":[{\"seq\":4,\"statement\":7,"
                            + "\"start\":1,\"end\":2,\"e2eMs\":1}]}"
                }) {
            reader.record("gw:9250", body.getBytes(StandardCharsets.UTF_8), NOW);
        }

        assertThat(hub.size()).isZero();
    }

    @Test
    void aGatewaysLiteralsAndLongTextsAreNotKept() {
        byte[] body =
                ("{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":1,\"queries\":[{\"seq\":1,\"statement\":"
                                + "\"SELECT * FROM users WHERE mail = 'a@b.c' AND x IN ("
                                + "1, ".repeat(50_000)
                                + "2) -- <img src=x onerror=alert(1)>\",\"outcome\":\"<b>\","
                                + "\"start\":0,\"end\":5,\"e2eMs\":5,\"jobId\":\"../../x\"}]}")
                        .getBytes(StandardCharsets.UTF_8);

        reader.record("gw:9250\u0000<script>", body, NOW);

        StatementRow row = hub.rows(StatementOrder.TOTAL, 1).get(0);
        assertThat(row.statement())
                .startsWith("SELECT * FROM users WHERE mail = ? AND x IN (?, ...")
                .hasSizeLessThan(100)
                .doesNotContain("a@b.c", "img");
        assertThat(row.failed()).isEqualTo(1);
        assertThat(hub.newest(1).queries().get(0).jobId()).isNull();
        assertThat(hub.newest(1).queries().get(0).source()).doesNotContain("\u0000");
    }

    private static byte[] logOf(String literalsKept) {
        return ("{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":1,\"queries\":[{\"seq\":1,\"statement\":"
                        + "\"SELECT a FROM users WHERE mail = 'a@b.c'\","
                        + literalsKept
                        + "\"outcome\":\"SUCCEEDED\",\"start\":0,\"end\":5,\"e2eMs\":5}]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String readBy(StatementStore store, String literalsKept) {
        new QueryFeedReader(store, new ClientRefusal.Counts())
                .record("gw:9250", logOf(literalsKept), NOW);
        return store.rows(StatementOrder.TOTAL, 1).get(0).statement();
    }

    @Test
    void aGatewaysLiteralsAreKeptOnlyWhenTheHubKeepsThemAndTheGatewayMarksThem() {
        String kept = "SELECT a FROM users WHERE mail = 'a@b.c'";
        String normalized = "SELECT a FROM users WHERE mail = ?";

        assertThat(readBy(new StatementStore(100, 1 << 20), "\"literalsKept\":true,"))
                .as("a hub without statements.keep-literals")
                .isEqualTo(normalized);
        assertThat(readBy(new StatementStore(100, 1 << 20, true), ""))
                .as("a query the gateway does not mark")
                .isEqualTo(normalized);
        assertThat(readBy(new StatementStore(100, 1 << 20, true), "\"literalsKept\":false,"))
                .isEqualTo(normalized);
        assertThat(readBy(new StatementStore(100, 1 << 20, true), "\"literalsKept\":\"yes\","))
                .as("only a JSON true marks it")
                .isEqualTo(normalized);
        StatementStore keeping = new StatementStore(100, 1 << 20, true);
        assertThat(readBy(keeping, "\"literalsKept\":true,")).isEqualTo(kept);
        assertThat(keeping.rows(StatementOrder.TOTAL, 1).get(0).id())
                .isEqualTo(io.flinkinsight.common.StatementText.fingerprint(kept));
    }

    @Test
    void numbersThatDoNotHoldTogetherAreRefusedAndMissedNeverGoesBackwards() {
        reader.record("gw:9250", page("a", 1, 1, 2), NOW);
        String[] games = {
            "{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":3,\"queries\":[{\"seq\":9223372036854775807}]}",
            "{\"instance\":\"a\",\"firstSeq\":9223372036854775807,\"lastSeq\":3,\"queries\":[]}",
            "{\"instance\":\"a\",\"firstSeq\":0,\"lastSeq\":3,\"queries\":[]}",
            "{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":-5,\"queries\":[]}",
            "{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":9,\"queries\":[{\"seq\":5},{\"seq\":4}]}"
        };
        for (String game : games) {
            assertThat(reader.record("gw:9250", game.getBytes(StandardCharsets.UTF_8), NOW))
                    .as(game)
                    .isFalse();
        }
        reader.record("gw:9250", page("a", 3, 3), NOW);

        assertThat(calls()).isEqualTo(3);
        assertThat(reader.missed()).isZero();
    }

    @Test
    void aQueryOutsideTheLastDayByTheHubsClockIsRefused() {
        long now = 10L * 24 * 3600 * 1000;

        reader.record("gw:9250", page("a", 1, 1, 2), now);

        assertThat(hub.size()).isZero();
    }

    @Test
    void aPageAddsAtMostFiftyNewStatementsSoOneGatewayCannotPushTheOthersOut() {
        StringBuilder queries = new StringBuilder();
        for (int i = 1; i <= 200; i++) {
            queries.append(i == 1 ? "" : ",")
                    .append("{\"seq\":")
                    .append(i)
                    .append(",\"statement\":\"SELECT c")
                    .append(i)
                    .append(
                            " FROM t\",\"outcome\":\"SUCCEEDED\",\"start\":1000,\"end\":1100,\"e2eMs\":100}");
        }
        byte[] body =
                ("{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":200,\"queries\":["
                                + queries
                                + "]}")
                        .getBytes(StandardCharsets.UTF_8);

        assertThat(reader.record("gw:9250", body, NOW)).isFalse();

        assertThat(hub.size()).isEqualTo(QueryFeedReader.MAX_NEW_STATEMENTS);
    }

    @Test
    void aQuerysTimeIsItsEndLessItsStartWhateverTheGatewaySays() {
        byte[] body =
                ("{\"instance\":\"a\",\"firstSeq\":1,\"lastSeq\":1,\"queries\":[{\"seq\":1,"
                                + "\"statement\":\"SELECT 1\",\"outcome\":\"SUCCEEDED\",\"start\":1000,"
                                + "\"end\":1100,\"e2eMs\":31622400000,\"partsMs\":{\"submit\":99999}}]}")
                        .getBytes(StandardCharsets.UTF_8);

        reader.record("gw:9250", body, NOW);

        StatementRow row = hub.rows(StatementOrder.TOTAL, 1).get(0);
        assertThat(row.totalMs()).isEqualTo(100);
        assertThat(row.partsP50Ms().get("submit")).isLessThanOrEqualTo(104);
    }
}
