package io.flinkinsight.common;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class StatementTextTest {

    @Test
    void statementsThatDifferOnlyInLiteralsAreOneText() {
        String a =
                StatementText.normalize("SELECT name FROM users WHERE id = 42 AND email = 'a@b.c'");
        String b =
                StatementText.normalize(
                        "SELECT  name\n FROM users\tWHERE id = 7 AND email = 'o''hara@x.y'");

        assertThat(a).isEqualTo(b).isEqualTo("SELECT name FROM users WHERE id = ? AND email = ?");
        assertThat(StatementText.fingerprint(a))
                .isEqualTo(StatementText.fingerprint(b))
                .hasSize(16);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "SELECT 1.5, .5, 1e-3, 2E+10, 0x1F, 7d|SELECT ?, ...",
                "SELECT x'0A', N'ä', E'\\n', B'01', U&'\\0041'|SELECT ?, ...",
                "SELECT DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00'|SELECT DATE ?, TIMESTAMP ?",
                "SELECT * FROM t WHERE a IN (1, 2, 3, 4)|SELECT * FROM t WHERE a IN (?, ...)",
                "SELECT * FROM t WHERE a IN (1,2)|SELECT * FROM t WHERE a IN (?, ...)",
                "INSERT INTO t VALUES (1, 'a'), (2, 'b')|INSERT INTO t VALUES (?, ...), (?, ...)",
                "SELECT \"private\" FROM t|SELECT ? FROM t",
                "SELECT `my col`, `it``s` FROM `db`.`t1`|SELECT `my col`, `it``s` FROM `db`.`t1`",
                "SELECT t1.c2, v_3 FROM t1|SELECT t1.c2, v_3 FROM t1",
                "SELECT /* 'name' */ a FROM t|SELECT a FROM t",
                "SELECT /*+ OPTIONS('k'='v') */ a FROM t|SELECT /*+ OPTIONS(?=?) */ a FROM t",
                "SELECT -5, a-1, b - 2 FROM t WHERE x = -5 AND y=-1.5|SELECT ?, a-?, b - ? FROM t WHERE x = ? AND y=?",
                "INTERVAL '1' DAY|INTERVAL ? DAY",
            })
    void literalsOfEveryKindAreReplaced(String sql, String normalized) {
        assertThat(StatementText.normalize(sql)).isEqualTo(normalized);
    }

    @Test
    void flinksDoubleSlashCommentsAreCommentsToo() {
        assertThat(StatementText.normalize("SELECT 1 // the customer's name\nFROM t WHERE n = 'x'"))
                .isEqualTo("SELECT ? FROM t WHERE n = ?");
    }

    @Test
    void lineCommentsEndAtTheLine() {
        assertThat(StatementText.normalize("SELECT a -- the secret 42\nFROM t\r\n-- more"))
                .isEqualTo("SELECT a FROM t");
    }

    @Test
    void literalsAreKeptOnlyWhenAsked() {
        String sql = "SELECT a FROM t -- note\nWHERE b = 'x'  AND c IN (1, 2)";

        assertThat(StatementText.collapse(sql))
                .isEqualTo("SELECT a FROM t WHERE b = 'x' AND c IN (1, 2)");
    }

    @Test
    void anUnterminatedLiteralOrCommentHidesTheRest() {
        assertThat(StatementText.normalize("SELECT 'secret and more")).isEqualTo("SELECT ?");
        assertThat(StatementText.normalize("SELECT a /* secret")).isEqualTo("SELECT a");
        assertThat(StatementText.normalize("SELECT `unterminated")).isEqualTo("SELECT ?");
    }

    @Test
    void aLongListOfLiteralsIsOneRunWithoutDeepRecursion() {
        String sql = "SELECT * FROM t WHERE id IN (" + "1, ".repeat(100_000) + "2)";

        assertThat(StatementText.normalize(sql)).startsWith("SELECT * FROM t WHERE id IN (?, ...");
        assertThat(StatementText.normalize("`" + "?,".repeat(500_000))).isEqualTo("?");
    }

    @Test
    void backslashEscapesCountOnlyInFlinksEStrings() {
        assertThat(StatementText.normalize("SELECT E'O\\'Brien secret', 'x' FROM t"))
                .isEqualTo("SELECT ?, ... FROM t");
        assertThat(StatementText.normalize("SELECT 'C:\\', 'secret' FROM t"))
                .isEqualTo("SELECT ?, ... FROM t");
    }

    @Test
    void anUnterminatedOrHostileNameHidesWhatFollowsAndCarriesNoControlCharacter() {
        assertThat(StatementText.normalize("SELECT `x FROM t WHERE ssn = '078-05-1120'"))
                .isEqualTo("SELECT ?");
        assertThat(StatementText.normalize("SELECT `a\u0000\n\ud800\u202eb` FROM t"))
                .isEqualTo("SELECT `a  \ufffd\ufffdb` FROM t");
        assertThat(StatementText.normalize("SELECT a\u202e FROM t"))
                .isEqualTo("SELECT a\ufffd FROM t");
    }

    @Test
    void markupIsJustText() {
        String sql =
                "SELECT '<img src=x onerror=alert(1)>' AS `<img src=x onerror=alert(1)>` FROM t";

        assertThat(StatementText.normalize(sql))
                .isEqualTo("SELECT ? AS `<img src=x onerror=alert(1)>` FROM t");
    }

    @Test
    void controlCharactersAndLoneSurrogatesNeverReachTheText() {
        String sql = "SELECT\u0000a,\u001bb\u0007, '\ud800x', c\udc00 FROM t\u2028";

        String normalized = StatementText.normalize(sql);
        String collapsed = StatementText.collapse(sql);

        assertThat(normalized).isEqualTo("SELECT a, b , ?, c\ufffd FROM t");
        assertThat(collapsed).contains("'\ufffdx'");
        for (String s : new String[] {normalized, collapsed}) {
            assertThat(s.chars()).noneMatch(c -> Character.isISOControl(c));
            assertThat(s.chars()).noneMatch(c -> Character.isSurrogate((char) c.intValue()));
        }
    }

    @Test
    void aLongStatementIsCutToTheBoundWithAMark() {
        String sql = "SELECT " + "a_column_name, ".repeat(10_000) + "z FROM t";

        String normalized = StatementText.normalize(sql);

        assertThat(normalized).hasSize(StatementText.MAX_CHARS).endsWith("…");
        assertThat(normalized).startsWith("SELECT a_column_name, a_column_name,");
    }

    @Test
    void aHugeStatementIsReadOnlyUpToItsBound() {
        String comment = "/*" + "x".repeat(StatementText.MAX_SCANNED_CHARS) + "*/";

        // the comment's end lies beyond what is read, so all of it counts as comment
        assertThat(StatementText.normalize(comment + " SELECT 1")).isEqualTo("…");
    }

    @Test
    void aCutNeverSplitsACharacter() {
        // "SELECT x" puts each emoji's high surrogate at an even index, where the cut falls
        String sql = "SELECT x" + "\uD83D\uDE00".repeat(5_000);

        String normalized = StatementText.normalize(sql);

        assertThat(normalized).hasSizeLessThanOrEqualTo(StatementText.MAX_CHARS).endsWith("…");
        assertThat(Character.isLowSurrogate(normalized.charAt(normalized.length() - 2))).isTrue();
    }

    @Test
    void noTextIsAnEmptyText() {
        assertThat(StatementText.normalize(null)).isEmpty();
        assertThat(StatementText.normalize("  \n\t ")).isEmpty();
    }

    @Test
    void normalizingAgainChangesNothing() {
        // the client, the gateway's plugin and the hub each normalize: one statement, one id
        for (String sql :
                new String[] {
                    "SELECT * FROM t WHERE x = - - - 5",
                    "SELECT -1, - 2, a - 3, -x FROM t WHERE y IN (1, -2, 3) LIMIT 10",
                    "SELECT 'a' || \"b\" FROM `t` -- c\nWHERE d = E'\\'' AND e = X'0f'",
                    "SELECT CAST(-1.5e3 AS DOUBLE), INTERVAL '1' DAY FROM t"
                }) {
            String once = StatementText.normalize(sql);
            assertThat(StatementText.normalize(once)).as(sql).isEqualTo(once);
        }
    }
}
