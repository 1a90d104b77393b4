package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase.Db;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The receipt and the handler's work commit together or not at all, whatever the handler does to
 * the connection it is given: every call that would end the transaction fails loudly, nothing is
 * acknowledged, no receipt is left, and the redelivery applies the message exactly once.
 */
class InboxHandlerConnectionTest {
  /** Something a handler does to its connection. */
  interface Act {
    void on(Connection c) throws Exception;
  }

  /** A misbehaviour, and the call its refusal names. */
  record Row(String what, String refusal, Act act) {}

  /** Every way a handler could end the inbox's transaction through the connection it is given. */
  static List<Row> misbehaviours() {
    return List.of(
        new Row("commit", "commit()", Connection::commit),
        new Row("rollback", "rollback()", Connection::rollback),
        new Row("auto-commit on", "setAutoCommit(true)", c -> c.setAutoCommit(true)),
        new Row("close", "close()", Connection::close),
        new Row("abort", "abort()", c -> c.abort(Runnable::run)),
        new Row("isolation", "setTransactionIsolation(8)", c -> c.setTransactionIsolation(8)),
        new Row("read-only", "setReadOnly(true)", c -> c.setReadOnly(true)),
        new Row("schema", "setSchema()", c -> c.setSchema("information_schema")),
        new Row("catalog", "setCatalog()", c -> c.setCatalog("test")),
        new Row(
            "network timeout", "setNetworkTimeout()", c -> c.setNetworkTimeout(Runnable::run, 1)),
        new Row("COMMIT text", "statement COMMIT (execute)", c -> run(c, "COMMIT")),
        new Row(
            "rollback text",
            "statement ROLLBACK (executeUpdate)",
            c -> c.createStatement().executeUpdate("rollback")),
        new Row(
            "COMMIT after comments",
            "statement COMMIT (execute)",
            c -> run(c, "/* done */ -- really\n  Commit")),
        new Row("COMMIT second", "statement COMMIT (execute)", c -> run(c, "SELECT 1; COMMIT")),
        new Row("BEGIN text", "statement BEGIN (execute)", c -> run(c, "BEGIN")),
        new Row(
            "START TRANSACTION", "statement START TRANSACTION", c -> run(c, "START TRANSACTION")),
        new Row("END text", "statement END (execute)", c -> run(c, "END")),
        new Row("SAVEPOINT text", "statement SAVEPOINT", c -> run(c, "SAVEPOINT mine")),
        new Row("RELEASE text", "statement RELEASE SAVEPOINT", c -> run(c, "RELEASE SAVEPOINT x")),
        new Row(
            "SET autocommit text",
            "statement SET AUTOCOMMIT (prepareStatement)",
            c -> c.prepareStatement("SET autocommit = 1")),
        new Row(
            "COMMIT batched",
            "statement COMMIT (addBatch)",
            c -> c.createStatement().addBatch("COMMIT")),
        new Row(
            "commit through a statement",
            "commit()",
            c -> c.createStatement().getConnection().commit()),
        new Row(
            "commit through metadata", "commit()", c -> c.getMetaData().getConnection().commit()),
        new Row(
            "rollback through a result set",
            "rollback()",
            c -> {
              try (ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                rs.getStatement().getConnection().rollback();
              }
            }));
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void everyCallThatWouldEndTheTransactionFailsLoudlyAndTheRedeliveryAppliesOnce(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      int n = 0;
      for (Row row : misbehaviours()) {
        for (boolean swallowed : new boolean[] {false, true}) {
          String id = "evt_" + n++;
          InboxHandler misbehaving =
              tx -> {
                f.apply("before").handle(tx);
                try {
                  row.act().on(tx.connection());
                } catch (IllegalStateException refused) {
                  if (!swallowed) {
                    throw refused;
                  }
                }
                f.apply("after").handle(tx);
              };
          String as = row.what() + (swallowed ? ", refusal caught" : "");

          assertThatThrownBy(() -> f.inbox.receive("billing", id, misbehaving))
              .as(as)
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining(row.refusal().replace("statement ", "the SQL statement "))
              .hasMessageContaining(id);
          assertThat(f.outcome(id)).as(as).isNull();
          assertThat(f.ledgerRowsOf(id)).as(as).isZero();

          assertThat(f.inbox.receive("billing", id, f.apply("redelivered")))
              .as(as)
              .isEqualTo(InboxResult.APPLIED);
          assertThat(f.inbox.receive("billing", id, f.apply("again")))
              .isEqualTo(InboxResult.DUPLICATE);
          assertThat(f.ledgerRowsOf(id)).as(as).isEqualTo(1);
          assertThat(f.ledgerRows()).as(as).isEqualTo(n);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatCommitsAndThenThrowsLeavesNoReceiptAndTheRedeliveryDoesAllTheWork(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler commitsThenFails =
          tx -> {
            f.apply("first half").handle(tx);
            tx.connection().commit();
            f.apply("second half").handle(tx);
          };

      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", commitsThenFails))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("commit()");
      assertThat(f.outcome("evt_1")).isNull();
      assertThat(f.ledgerRows()).isZero();

      InboxHandler whole =
          tx -> {
            f.apply("first half").handle(tx);
            f.apply("second half").handle(tx);
          };
      assertThat(f.inbox.receive("billing", "evt_1", whole)).isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows("first half")).isEqualTo(1);
      assertThat(f.ledgerRows("second half")).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatRollsBackAndReturnsIsNeverReportedApplied(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler rollsBack =
          tx -> {
            f.apply("lost").handle(tx);
            try {
              tx.connection().rollback();
            } catch (IllegalStateException ignored) {
              // a handler that hides the refusal still fails its delivery
            }
          };

      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", rollsBack))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("rollback()");
      assertThat(f.outcome("evt_1")).isNull();

      assertThat(f.inbox.receive("billing", "evt_1", f.apply("kept")))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows()).isEqualTo(1);
      assertThat(f.ledgerRows("kept")).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlersOwnSavepointsWorkAsUsual(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxResult outcome =
          f.inbox.receive(
              "billing",
              "evt_sp",
              tx -> {
                Connection c = tx.connection();
                c.setAutoCommit(false); // already off: harmless
                f.write(c, "evt_sp", "kept");
                Savepoint undo = c.setSavepoint();
                f.write(c, "evt_sp", "undone");
                c.rollback(undo);
                Savepoint named = c.setSavepoint("handlers_own");
                f.write(c, "evt_sp", "released");
                c.releaseSavepoint(named);
              });

      assertThat(outcome).isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows("kept")).isEqualTo(1);
      assertThat(f.ledgerRows("undone")).isZero();
      assertThat(f.ledgerRows("released")).isEqualTo(1);
      assertThat(f.outcome("evt_sp")).isEqualTo("APPLIED");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void textThatOnlyMentionsCommitOrRollbackRunsNormally(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      String quote = db == Db.MARIADB ? "`" : "\"";
      InboxResult outcome =
          f.inbox.receive(
              "billing",
              "evt_text",
              tx -> {
                try (Statement s = tx.connection().createStatement()) {
                  s.executeUpdate(
                      "INSERT INTO "
                          + f.ledger
                          + " (message_id, resource) -- then COMMIT\n"
                          + " VALUES ('commit', 'rollback; begin; ''end''')");
                  s.executeQuery("SELECT 1 AS " + quote + "commit" + quote + " /* ; COMMIT */")
                      .close();
                }
              });

      assertThat(outcome).isEqualTo(InboxResult.APPLIED);
      assertThat(f.database.text("SELECT resource FROM " + f.ledger))
          .isEqualTo("rollback; begin; 'end'");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void ddlIsRefusedWhereItCommitsImplicitlyAndRunsInTheTransactionOnPostgres(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      String table = f.database.table("made_by_handler");
      InboxHandler ddl =
          tx -> {
            f.apply("x").handle(tx);
            try (Statement s = tx.connection().createStatement()) {
              s.execute("CREATE TABLE " + table + " (i INT)");
            }
            throw new IllegalStateException("then the handler fails");
          };

      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_ddl", ddl))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(
              db == Db.POSTGRESQL ? "then the handler fails" : "the SQL statement CREATE TABLE");
      assertThat(f.outcome("evt_ddl")).isNull();
      assertThat(f.ledgerRows()).isZero();
      assertThat(f.database.count(tableExists(db, f.database.schema, "made_by_handler"))).isZero();
    }
  }

  private static String tableExists(Db db, String schema, String table) {
    String name = db == Db.H2 ? table.toUpperCase() : table;
    String schemaName = db == Db.H2 ? schema.toUpperCase() : schema;
    return "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
        + schemaName
        + "' AND table_name = '"
        + name
        + "'";
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void unwrapLeadsToNoDriverConnection(Db db) throws Exception {
    String driver =
        switch (db) {
          case POSTGRESQL -> "org.postgresql.PG";
          case H2 -> "org.h2.jdbc.Jdbc";
          case MARIADB -> "org.mariadb.jdbc.";
        };
    Class<?> driverConnection = Class.forName(driver + "Connection");
    Class<?> driverStatement = Class.forName(driver + "Statement");
    try (InboxFixture f = new InboxFixture(db)) {
      InboxResult outcome =
          f.inbox.receive(
              "billing",
              "evt_unwrap",
              tx -> {
                Connection c = tx.connection();
                assertThat(c.isWrapperFor(driverConnection)).isFalse();
                assertThatThrownBy(() -> c.unwrap(driverConnection))
                    .isInstanceOf(SQLException.class);
                assertThat(c.unwrap(Connection.class)).isSameAs(c);
                try (PreparedStatement s = c.prepareStatement("SELECT 1")) {
                  assertThatThrownBy(() -> s.unwrap(driverStatement))
                      .isInstanceOf(SQLException.class);
                  assertThat(s.getConnection()).isSameAs(c);
                }
                assertThat(c.getMetaData().getConnection()).isSameAs(c);
                f.apply("x").handle(tx);
              });

      assertThat(outcome).isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theConnectionRefusesEveryCallOnceItsHandlerReturnedEvenFromAnotherThread(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      AtomicReference<Connection> kept = new AtomicReference<>();
      AtomicReference<PreparedStatement> keptStatement = new AtomicReference<>();
      AtomicReference<InboxContext> keptContext = new AtomicReference<>();
      AtomicReference<Throwable> late = new AtomicReference<>();
      CountDownLatch returned = new CountDownLatch(1);
      Thread straggler =
          new Thread(
              () -> {
                try {
                  returned.await();
                  f.write(kept.get(), "evt_late", "after return");
                } catch (Throwable e) {
                  late.set(e);
                }
              });

      InboxResult outcome =
          f.inbox.receive(
              "billing",
              "evt_late",
              tx -> {
                kept.set(tx.connection());
                keptContext.set(tx);
                keptStatement.set(
                    tx.connection().prepareStatement("INSERT INTO " + f.ledger + " VALUES (?, ?)"));
                f.apply("in handler").handle(tx);
                straggler.start();
              });
      returned.countDown();
      straggler.join();

      assertThat(outcome).isEqualTo(InboxResult.APPLIED);
      assertThat(late.get())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after its handler returned");
      assertThatThrownBy(() -> kept.get().commit())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after its handler returned");
      assertThatThrownBy(() -> keptStatement.get().executeUpdate())
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> keptContext.get().advance("ch_1", 1))
          .isInstanceOf(IllegalStateException.class);
      assertThat(kept.get().isClosed()).isTrue();
      assertThat(f.ledgerRows()).isEqualTo(1);
      assertThat(f.ledgerRows("after return")).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatThrowsAnErrorLeavesNoReceipt(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler dies =
          tx -> {
            f.apply("x").handle(tx);
            throw new AssertionError("handler bug");
          };

      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_err", dies))
          .isInstanceOf(AssertionError.class);
      assertThat(f.outcome("evt_err")).isNull();
      assertThat(f.ledgerRows()).isZero();
      assertThat(f.inbox.receive("billing", "evt_err", f.apply("x")))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows()).isEqualTo(1);
    }
  }
}
