package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.saferetry.jdbc.internal.Dialect;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The screen for SQL text a handler runs: every statement of a text is read past comments, quoted
 * text and names; what would end the transaction is recognised on the databases where it would, and
 * text that merely mentions it is not.
 */
class SqlLexerTest {
  private static final Set<Dialect> ALL = EnumSet.allOf(Dialect.class);

  private static final Set<Dialect> IMPLICIT = EnumSet.of(Dialect.MARIADB, Dialect.H2);

  /** Text, the databases that must refuse it, and the words the refusal names. */
  static Stream<Arguments> refused() {
    return Stream.of(
        arguments("COMMIT", ALL, "COMMIT"),
        arguments("  commit work", ALL, "COMMIT WORK"),
        arguments("ROLLBACK TO SAVEPOINT x", ALL, "ROLLBACK TO"),
        arguments("SELECT 1; COMMIT", ALL, "COMMIT"),
        arguments("SELECT 1;;;  -- note\n END", ALL, "END"),
        arguments("/* a */ /* b */ BEGIN", ALL, "BEGIN"),
        arguments("START TRANSACTION READ WRITE", ALL, "START TRANSACTION"),
        arguments("ABORT", ALL, "ABORT"),
        arguments("SAVEPOINT s", ALL, "SAVEPOINT S"),
        arguments("RELEASE SAVEPOINT s", ALL, "RELEASE SAVEPOINT"),
        arguments("XA END 'x'", ALL, "XA END"),
        arguments("PREPARE TRANSACTION 'x'", ALL, "PREPARE TRANSACTION"),
        arguments("SET autocommit = 1", ALL, "SET AUTOCOMMIT"),
        arguments("SET @@session.autocommit := 0", ALL, "SET SESSION"),
        arguments("SET search_path TO other", ALL, "SET SEARCH_PATH"),
        arguments("SET SCHEMA other", ALL, "SET SCHEMA"),
        arguments("INSERT INTO t VALUES ('commit'); ROLLBACK", ALL, "ROLLBACK"),
        arguments("\uD800COMMIT", ALL, "COMMIT"),
        arguments("USE other", EnumSet.of(Dialect.MARIADB), "USE OTHER"),
        arguments("# note\nCOMMIT", EnumSet.of(Dialect.MARIADB), "COMMIT"),
        arguments("CREATE TABLE t (i INT)", IMPLICIT, "CREATE TABLE"),
        arguments("create index i on t (i)", IMPLICIT, "CREATE INDEX"),
        arguments("TRUNCATE TABLE t", IMPLICIT, "TRUNCATE TABLE"),
        arguments("LOCK TABLES t WRITE", IMPLICIT, "LOCK TABLES"),
        arguments("SHUTDOWN", IMPLICIT, "SHUTDOWN"),
        arguments("CREATE TEMPORARY TABLE t (i INT)", EnumSet.of(Dialect.H2), "CREATE TEMPORARY"),
        arguments(
            "CREATE LOCAL TEMPORARY TABLE t (i INT) TRANSACTIONAL",
            EnumSet.noneOf(Dialect.class),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void statementsThatWouldEndTheTransactionAreRecognised(
      String sql, Set<Dialect> refusing, String named) {
    String text = sql.replace("\\n", "\n").replace("\\uD800", "\uD800");
    for (Dialect d : ALL) {
      assertThat(SqlLexer.refused(text, d))
          .as(d.toString())
          .isEqualTo(refusing.contains(d) ? named : null);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "INSERT INTO t VALUES ('commit; rollback', 'it''s; COMMIT')",
        "SELECT commit_count, \"commit\" FROM t -- COMMIT",
        "SELECT 1 /* ; COMMIT */",
        "UPDATE orders SET status = 'paid' WHERE id = ?",
        "SELECT * FROM t FOR UPDATE",
        "SET LOCK_TIMEOUT 100",
        "SELECT ? , ?",
        "",
        ";;;"
      })
  void textThatOnlyMentionsSuchStatementsIsNotRecognised(String sql) {
    for (Dialect d : ALL) {
      assertThat(SqlLexer.refused(sql, d)).as(d.toString()).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void quotingRulesFollowTheDatabase(Dialect d) {
    // MariaDB escapes quotes with a backslash; PostgreSQL does in E'' strings only; H2 never.
    String backslash = "SELECT 'a\\'; COMMIT; --'";
    assertThat(SqlLexer.refused(backslash, d)).isEqualTo(d == Dialect.MARIADB ? null : "COMMIT");
    assertThat(SqlLexer.refused("SELECT E'a\\'; COMMIT; --'", d))
        .isEqualTo(d == Dialect.H2 ? "COMMIT" : null);
    assertThat(SqlLexer.refused("SELECT $q$ ; COMMIT $q$", d))
        .isEqualTo(d == Dialect.POSTGRESQL ? null : "COMMIT Q");
    assertThat(SqlLexer.refused("DO $$ BEGIN COMMIT; END $$", d))
        .isEqualTo(d == Dialect.POSTGRESQL ? null : "END");
    assertThat(SqlLexer.refused("SELECT $1; COMMIT", d)).isEqualTo("COMMIT");
    assertThat(SqlLexer.refused("SELECT `a;` FROM t; COMMIT", d)).isEqualTo("COMMIT");
    assertThat(SqlLexer.refused("/* /* nested */ COMMIT */ SELECT 1", d))
        .isEqualTo(d == Dialect.POSTGRESQL ? null : "COMMIT SELECT");
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void hugeOrUnterminatedTextIsReadInLinearTime(Dialect d) {
    String huge = "x".repeat(5_000_000);
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          assertThat(SqlLexer.refused("SELECT '" + huge, d)).isNull();
          assertThat(SqlLexer.refused("/*" + huge, d)).isNull();
          assertThat(SqlLexer.refused("$a$" + huge, d)).isNull();
          assertThat(SqlLexer.refused("$a".repeat(1_000_000), d)).isNotEqualTo("COMMIT");
          assertThat(SqlLexer.refused(";".repeat(2_000_000) + "COMMIT", d)).isEqualTo("COMMIT");
          assertThat(SqlLexer.refused("SELECT 1 " + huge + "; commit", d)).isEqualTo("COMMIT");
        });
  }
}
