package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.outbox.CommittingFunction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the guarded connection cannot refuse — the caller's own connection captured by the handler,
 * a procedure that commits — is found when the handler returns: a receipt that was rolled back
 * leaves the message to run again, one that was committed with part of the work makes every
 * delivery fail loudly, never a duplicate.
 */
class InboxCommitBehindTheGuardTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatCommitsTheCallersConnectionIsIncompleteOnEveryDeliveryNeverADuplicate(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db);
        Connection c = f.database.connect()) {
      c.setAutoCommit(false);
      InboxHandler commitsHalf =
          tx -> {
            f.apply("first half").handle(tx);
            c.commit();
            f.apply("second half").handle(tx);
          };

      assertThatThrownBy(() -> f.inbox.receive(c, "billing", "evt_1", commitsHalf))
          .isInstanceOfSatisfying(
              InboxException.class,
              e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.INCOMPLETE))
          .hasMessageContaining("evt_1");
      c.rollback();
      assertThat(f.outcome("evt_1")).isEqualTo("RECEIVING");
      assertThat(f.ledgerRows("first half")).isEqualTo(1);
      assertThat(f.ledgerRows("second half")).isZero();

      f.handlerRuns.set(0);
      for (int redelivery = 0; redelivery < 2; redelivery++) {
        assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", f.apply("again")))
            .isInstanceOfSatisfying(
                InboxException.class,
                e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.INCOMPLETE))
            .hasMessageContaining("evt_1");
      }
      assertThat(f.handlerRuns).hasValue(0);

      // A person checked the effects and deletes the receipt: the next delivery runs again.
      f.database.execute("DELETE FROM " + f.receipts + " WHERE outcome = 'RECEIVING'");
      assertThat(f.inbox.receive("billing", "evt_1", f.apply("second half")))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows("second half")).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatRollsBackTheCallersConnectionLeavesNothingAndTheRedeliveryAppliesOnce(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db);
        Connection c = f.database.connect()) {
      c.setAutoCommit(false);
      InboxHandler rollsBack =
          tx -> {
            f.apply("before").handle(tx);
            c.rollback();
            f.apply("after").handle(tx);
          };

      assertThatThrownBy(() -> f.inbox.receive(c, "billing", "evt_1", rollsBack))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ended the inbox's transaction");
      c.rollback();
      assertThat(f.outcome("evt_1")).isNull();
      assertThat(f.ledgerRows()).isZero();

      assertThat(f.inbox.receive("billing", "evt_1", f.apply("once")))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerCannotRollBackToASavepointItDidNotSet(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db);
        Connection c = f.database.connect()) {
      c.setAutoCommit(false);
      f.write(c, "own", "callers row");
      Savepoint callers = c.setSavepoint();
      InboxHandler undoesTheReceipt =
          tx -> {
            f.apply("x").handle(tx);
            tx.connection().rollback(callers);
          };

      assertThatThrownBy(() -> f.inbox.receive(c, "billing", "evt_1", undoesTheReceipt))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("rollback() of a savepoint the handler did not set");
      c.commit();
      assertThat(f.ledgerRows("callers row")).isEqualTo(1);
      assertThat(f.ledgerRows("x")).isZero();
      assertThat(f.outcome("evt_1")).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aProcedureThatCommitsInsideTheHandlerIsCaughtWhenItReturns(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      String procedure = f.database.table("sr_commit");
      f.database.execute(
          switch (db) {
            case MARIADB -> "CREATE PROCEDURE " + procedure + "() COMMIT";
            case H2 ->
                "CREATE ALIAS "
                    + procedure
                    + " FOR '"
                    + CommittingFunction.class.getName()
                    + ".commit'";
            case POSTGRESQL ->
                "CREATE PROCEDURE " + procedure + "() LANGUAGE plpgsql AS $$ BEGIN COMMIT; END $$";
          });
      InboxHandler callsIt =
          tx -> {
            f.apply("first half").handle(tx);
            try (Statement s = tx.connection().createStatement()) {
              s.execute("CALL " + procedure + "()");
            }
            f.apply("second half").handle(tx);
          };

      if (db == Db.POSTGRESQL) {
        // PostgreSQL itself refuses a commit in a procedure called inside a transaction block.
        assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", callsIt))
            .hasRootCauseInstanceOf(SQLException.class);
        assertThat(f.outcome("evt_1")).isNull();
        assertThat(f.ledgerRows()).isZero();
        return;
      }
      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", callsIt))
          .isInstanceOfSatisfying(
              InboxException.class,
              e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.INCOMPLETE));
      assertThat(f.outcome("evt_1")).isEqualTo("RECEIVING");
      assertThat(f.ledgerRows("first half")).isEqualTo(1);
      assertThat(f.ledgerRows("second half")).isZero();
      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", f.apply("again")))
          .isInstanceOfSatisfying(
              InboxException.class,
              e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.INCOMPLETE));
      assertThat(f.ledgerRows("again")).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aStatementFailureTheHandlerHidIsNeverReportedAppliedWithoutItsWork(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler hidesFailure =
          tx -> {
            f.apply("written").handle(tx);
            try (Statement s = tx.connection().createStatement()) {
              s.executeUpdate("INSERT INTO no_such_table VALUES (1)");
            } catch (SQLException hidden) {
              // PostgreSQL has now failed the whole transaction; H2 and MariaDB only the statement
            }
          };

      if (db == Db.POSTGRESQL) {
        assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", hidesFailure))
            .isInstanceOf(InboxException.class)
            .hasMessageContaining("25P02");
        assertThat(f.outcome("evt_1")).isNull();
        assertThat(f.inbox.receive("billing", "evt_1", f.apply("written")))
            .isEqualTo(InboxResult.APPLIED);
      } else {
        assertThat(f.inbox.receive("billing", "evt_1", hidesFailure))
            .isEqualTo(InboxResult.APPLIED);
      }
      assertThat(f.outcome("evt_1")).isEqualTo("APPLIED");
      assertThat(f.ledgerRows("written")).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHandlerThatDeletesItsOwnReceiptIsNeverReportedApplied(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler deletesReceipt =
          tx -> {
            f.apply("x").handle(tx);
            try (PreparedStatement s =
                tx.connection()
                    .prepareStatement("DELETE FROM " + f.receipts + " WHERE message_id = ?")) {
              s.setString(1, tx.messageId());
              s.executeUpdate();
            }
          };

      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_del", deletesReceipt))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("removed its receipt");
      assertThat(f.ledgerRows()).isZero();
      assertThat(f.outcome("evt_del")).isNull();

      assertThat(f.inbox.receive("billing", "evt_del", f.apply("x")))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(f.inbox.receive("billing", "evt_del", f.apply("x")))
          .isEqualTo(InboxResult.DUPLICATE);
      assertThat(f.ledgerRows()).isEqualTo(1);
    }
  }
}
