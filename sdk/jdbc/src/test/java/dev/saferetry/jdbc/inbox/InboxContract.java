package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcBeginRaceTest;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the inbox guarantees, run against each database. */
abstract class InboxContract {
  TestDatabase database;
  Inbox inbox;
  String receipts;
  String ledger;
  final AtomicInteger handlerRuns = new AtomicInteger();

  abstract Db db();

  @BeforeEach
  void setUp() throws SQLException {
    database = db().open();
    receipts = database.table("rcpt");
    ledger = database.table("ledger");
    database.execute(
        "CREATE TABLE " + ledger + " (message_id VARCHAR(255), resource VARCHAR(255))");
    inbox = Inbox.builder().jdbcUrl(database.url).table(receipts).createSchema(true).build();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (database != null) {
      database.close();
    }
  }

  /** The business effect: one ledger row per application. */
  InboxHandler apply(String resource) {
    return tx -> {
      handlerRuns.incrementAndGet();
      try (PreparedStatement s =
          tx.connection().prepareStatement("INSERT INTO " + ledger + " VALUES (?, ?)")) {
        s.setString(1, tx.messageId());
        s.setString(2, resource);
        s.executeUpdate();
      }
    };
  }

  long ledgerRows() throws SQLException {
    return database.count("SELECT COUNT(*) FROM " + ledger);
  }

  long receiptRows() throws SQLException {
    return database.count("SELECT COUNT(*) FROM " + receipts);
  }

  @Test
  void theFirstDeliveryRunsTheHandlerAndCommitsItsWorkWithTheReceipt() throws SQLException {
    assertThat(inbox.receive("billing", "evt_1", apply("order-1"))).isEqualTo(InboxResult.APPLIED);

    assertThat(ledgerRows()).isEqualTo(1);
    assertThat(database.text("SELECT outcome FROM " + receipts + " WHERE message_id = 'evt_1'"))
        .isEqualTo("APPLIED");
  }

  @Test
  void aRedeliveryWithTheSameIdIsADuplicateAndTheHandlerDoesNotRun() throws SQLException {
    inbox.receive("billing", "evt_1", apply("order-1"));

    assertThat(inbox.receive("billing", "evt_1", apply("order-1")))
        .isEqualTo(InboxResult.DUPLICATE);
    assertThat(inbox.receive("billing", "evt_1", apply("order-1")))
        .isEqualTo(InboxResult.DUPLICATE);

    assertThat(handlerRuns).hasValue(1);
    assertThat(ledgerRows()).isEqualTo(1);
  }

  @Test
  void sixteenConcurrentDuplicateDeliveriesApplyOnce() throws Exception {
    List<InboxResult> outcomes =
        JdbcBeginRaceTest.race(16, t -> inbox.receive("billing", "evt_c", apply("o")));

    assertThat(outcomes).containsOnlyOnce(InboxResult.APPLIED);
    assertThat(outcomes).filteredOn(o -> o == InboxResult.DUPLICATE).hasSize(15);
    assertThat(handlerRuns).hasValue(1);
    assertThat(ledgerRows()).isEqualTo(1);
  }

  @Test
  void aHandlerFailureRollsBackTheReceiptAndTheRedeliveryRunsAgain() throws SQLException {
    InboxHandler failing =
        tx -> {
          apply("order-1").handle(tx);
          throw new IllegalStateException("downstream is down");
        };

    assertThatThrownBy(() -> inbox.receive("billing", "evt_f", failing))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("downstream is down");
    assertThat(ledgerRows()).isZero();
    assertThat(receiptRows()).isZero();

    assertThat(inbox.receive("billing", "evt_f", apply("order-1"))).isEqualTo(InboxResult.APPLIED);
    assertThat(ledgerRows()).isEqualTo(1);
  }

  @Test
  void aCheckedHandlerExceptionComesBackAsAnInboxExceptionAfterTheRollback() throws SQLException {
    assertThatThrownBy(
            () ->
                inbox.receive(
                    "billing",
                    "evt_io",
                    tx -> {
                      apply("x").handle(tx);
                      throw new IOException("disk");
                    }))
        .isInstanceOf(InboxException.class)
        .hasCauseInstanceOf(IOException.class)
        .hasMessageContaining("evt_io");
    assertThat(ledgerRows()).isZero();
    assertThat(receiptRows()).isZero();
  }

  @Test
  void anOlderEventAfterANewerOneIsRecordedButNotApplied() throws SQLException {
    assertThat(inbox.receive("billing", "evt_new", ordered("ch_1", 200)))
        .isEqualTo(InboxResult.APPLIED);

    assertThat(inbox.receive("billing", "evt_old", ordered("ch_1", 100)))
        .isEqualTo(InboxResult.STALE);
    assertThat(database.text("SELECT outcome FROM " + receipts + " WHERE message_id = 'evt_old'"))
        .isEqualTo("STALE");
    assertThat(inbox.receive("billing", "evt_old", ordered("ch_1", 100)))
        .isEqualTo(InboxResult.DUPLICATE);

    assertThat(inbox.receive("billing", "evt_same_time", ordered("ch_1", 200)))
        .isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("billing", "evt_other_charge", ordered("ch_2", 100)))
        .isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("billing", "evt_newest", ordered("ch_1", 300)))
        .isEqualTo(InboxResult.APPLIED);

    assertThat(database.count("SELECT COUNT(*) FROM " + ledger + " WHERE message_id = 'evt_old'"))
        .isZero();
    assertThat(ledgerRows()).isEqualTo(4);
    inbox.receive(
        "billing",
        "evt_probe",
        tx -> {
          assertThat(tx.highWaterMark("ch_1")).hasValue(300);
          assertThat(tx.highWaterMark("ch_9")).isEmpty();
        });
  }

  @Test
  void aMessageAskingForALowerPositionThanItAlreadySetIsToldNo() {
    List<Boolean> answers = new ArrayList<>();
    InboxResult outcome =
        inbox.receive(
            "billing",
            "evt_twice",
            tx -> {
              answers.add(tx.advance("ch_7", 10));
              answers.add(tx.advance("ch_7", 5));
              answers.add(tx.advance("ch_7", 10));
            });

    assertThat(answers).containsExactly(true, false, true);
    assertThat(outcome).isEqualTo(InboxResult.STALE);
  }

  /** Applies the event only if it is not older than what the charge already saw. */
  InboxHandler ordered(String resource, long created) {
    return tx -> {
      if (tx.advance(resource, created)) {
        apply(resource).handle(tx);
      }
    };
  }

  @Test
  void concurrentOutOfOrderEventsLeaveTheNewestApplied() throws Exception {
    String state = database.table("state");
    database.execute("CREATE TABLE " + state + " (resource VARCHAR(64) PRIMARY KEY, val BIGINT)");
    database.execute("INSERT INTO " + state + " VALUES ('ch_9', 0)");
    AtomicInteger next = new AtomicInteger();
    List<InboxResult> outcomes =
        JdbcBeginRaceTest.race(
            16,
            t -> {
              int position = next.incrementAndGet();
              InboxHandler setState =
                  tx -> {
                    if (tx.advance("ch_9", position)) {
                      try (PreparedStatement s =
                          tx.connection()
                              .prepareStatement(
                                  "UPDATE " + state + " SET val = ? WHERE resource = 'ch_9'")) {
                        s.setLong(1, position);
                        s.executeUpdate();
                      }
                    }
                  };
              return redeliverUntilSettled(
                  () -> inbox.receive("billing", "evt_" + position, setState));
            });

    assertThat(outcomes).doesNotContain(InboxResult.DUPLICATE).contains(InboxResult.APPLIED);
    assertThat(database.count("SELECT val FROM " + state)).isEqualTo(16);
    assertThat(receiptRows()).isEqualTo(16);
  }

  /** A broker redelivers a message whose processing failed (a deadlock victim, for example). */
  static InboxResult redeliverUntilSettled(Callable<InboxResult> delivery) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return delivery.call();
      } catch (InboxException e) {
        if (attempt == 5) {
          throw e;
        }
      }
    }
  }

  @Test
  void eachSubscriberReceivesTheSameMessageOnce() throws SQLException {
    assertThat(inbox.receive("billing", "evt_1", apply("a"))).isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("shipping", "evt_1", apply("a"))).isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("shipping", "evt_1", apply("a"))).isEqualTo(InboxResult.DUPLICATE);
    assertThat(ledgerRows()).isEqualTo(2);
  }

  @Test
  void idsThatDifferOnlyInCaseTrailingSpaceOrAccentAreDifferentMessages() throws SQLException {
    for (String id : List.of("evt_abc", "EVT_ABC", "evt_abc ", "evt_àbc", "evt_😀")) {
      assertThat(inbox.receive("billing", id, apply("a"))).as(id).isEqualTo(InboxResult.APPLIED);
    }
    assertThat(inbox.receive("billing", "evt_😀", apply("a"))).isEqualTo(InboxResult.DUPLICATE);
    assertThat(ledgerRows()).isEqualTo(5);
  }

  @Test
  void theReceiptJoinsTheCallersTransactionAndRollsBackWithIt() throws SQLException {
    try (Connection c = database.connect()) {
      c.setAutoCommit(false);
      assertThat(inbox.receive(c, "billing", "evt_j", apply("a"))).isEqualTo(InboxResult.APPLIED);
      c.rollback();
    }
    assertThat(receiptRows()).isZero();
    assertThat(ledgerRows()).isZero();

    try (Connection c = database.connect()) {
      c.setAutoCommit(false);
      assertThat(inbox.receive(c, "billing", "evt_j", apply("a"))).isEqualTo(InboxResult.APPLIED);
      c.commit();
    }
    try (Connection c = database.connect()) {
      c.setAutoCommit(false);
      assertThat(inbox.receive(c, "billing", "evt_j", apply("a"))).isEqualTo(InboxResult.DUPLICATE);
      // The duplicate left the caller's transaction usable (PostgreSQL aborts one on any error).
      try (PreparedStatement s =
          c.prepareStatement("INSERT INTO " + ledger + " VALUES ('own', 'after-duplicate')")) {
        s.executeUpdate();
      }
      c.commit();
    }
    assertThat(ledgerRows()).isEqualTo(2);
    assertThat(handlerRuns).hasValue(2);
    assertThat(receiptRows()).isEqualTo(1);
  }

  @Test
  void aJoinedHandlerFailureUndoesOnlyTheReceiptAndTheHandlersWork() throws SQLException {
    try (Connection c = database.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement s =
          c.prepareStatement("INSERT INTO " + ledger + " VALUES ('own', 'x')")) {
        s.executeUpdate();
      }
      assertThatThrownBy(
              () ->
                  inbox.receive(
                      c,
                      "billing",
                      "evt_jf",
                      tx -> {
                        apply("a").handle(tx);
                        throw new IllegalStateException("boom");
                      }))
          .hasMessage("boom");
      c.commit();
    }
    assertThat(database.count("SELECT COUNT(*) FROM " + ledger + " WHERE message_id = 'own'"))
        .isEqualTo(1);
    assertThat(ledgerRows()).isEqualTo(1);
    assertThat(receiptRows()).isZero();
    assertThat(inbox.receive("billing", "evt_jf", apply("a"))).isEqualTo(InboxResult.APPLIED);
  }

  @Test
  void aConnectionInAutoCommitModeCannotCarryAReceipt() throws SQLException {
    try (Connection c = database.connect()) {
      assertThatThrownBy(() -> inbox.receive(c, "billing", "evt_a", apply("a")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("auto-commit");
    }
    assertThat(receiptRows()).isZero();
  }

  @Test
  void missingTablesAreReportedWithTheDdlToRun() {
    String absent = database.table("absent");
    assertThatThrownBy(() -> Inbox.builder().jdbcUrl(database.url).table(absent).build())
        .isInstanceOfSatisfying(
            InboxException.class, e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.SCHEMA))
        .hasMessageContaining(absent)
        .hasMessageContaining("db/saferetry-migration/")
        .hasMessageContaining(
            "/V2__saferetry_inbox.sql with every saferetry_inbox in it renamed to absent")
        .hasMessageContaining("createSchema(true)");
  }

  @Test
  void creatingTheSchemaTwiceIsHarmlessAndKeepsReceipts() throws SQLException {
    inbox.receive("billing", "evt_1", apply("a"));
    Inbox again = Inbox.builder().jdbcUrl(database.url).table(receipts).createSchema(true).build();
    assertThat(again.receive("billing", "evt_1", apply("a"))).isEqualTo(InboxResult.DUPLICATE);
    assertThat(Inbox.builder().jdbcUrl(database.url).table(receipts).build().toString())
        .contains(receipts)
        .doesNotContain("jdbc:");
  }

  @Test
  void idsThatCannotBeStoredExactlyAreRefused() {
    for (String bad : List.of("", "x".repeat(256), "evt\u0000", "evt\n", "evt_\uD83D")) {
      assertThatThrownBy(() -> inbox.receive("billing", bad, apply("a")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("messageId");
    }
    assertThatThrownBy(() -> inbox.receive("s".repeat(201), "evt_1", apply("a")))
        .hasMessageStartingWith("subscriber");
    assertThatThrownBy(() -> inbox.receive("billing", "evt_1", tx -> tx.advance("\uDC00", 1)))
        .hasMessageStartingWith("resourceId");
  }
}
