package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcBeginRaceTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Deliveries of one message that meet while the first is still being handled behave the same on
 * every database: they wait; a committed first makes them duplicates, a failed first lets one of
 * them run the handler, and a wait beyond the database's lock timeout is {@link InboxException} of
 * kind {@code BUSY} — never acknowledged, never a generic database error.
 */
class InboxConcurrentDeliveriesTest {
  private static final int DELIVERIES = 16;
  private TestDatabase database;
  private String receipts;
  private String ledger;
  private final AtomicInteger handlerRuns = new AtomicInteger();

  @AfterEach
  void tearDown() throws Exception {
    if (database != null) {
      database.close();
    }
  }

  private Inbox open(Db db, String initSql) throws SQLException {
    database = db.open();
    receipts = database.table("rcpt");
    ledger = database.table("ledger");
    database.execute("CREATE TABLE " + ledger + " (message_id VARCHAR(255))");
    DataSource pool = database.newPool(DELIVERIES + 4, initSql);
    return Inbox.builder().dataSource(pool).table(receipts).createSchema(true).build();
  }

  /** A lock wait short enough for a test, set on every connection of the inbox's pool. */
  private static String shortLockWait(Db db) {
    return switch (db) {
      case H2 -> "SET LOCK_TIMEOUT 300";
      case POSTGRESQL -> "SET lock_timeout = '300ms'";
      case MARIADB -> "SET SESSION innodb_lock_wait_timeout = 1";
    };
  }

  private void applied(InboxContext tx) throws SQLException {
    handlerRuns.incrementAndGet();
    try (PreparedStatement s =
        tx.connection().prepareStatement("INSERT INTO " + ledger + " VALUES (?)")) {
      s.setString(1, tx.messageId());
      s.executeUpdate();
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Db.class)
  void whileTheFirstDeliveryFailsTheWaitersRunTheHandlerOnceAndReportDuplicates(Db db)
      throws Exception {
    Inbox inbox = open(db, null);
    AtomicInteger entered = new AtomicInteger();
    InboxHandler handler =
        tx -> {
          if (entered.incrementAndGet() == 1) {
            awaitReceiptWaiters(db, DELIVERIES - 1);
            throw new IllegalStateException("the first delivery fails");
          }
          applied(tx);
        };

    List<String> outcomes =
        JdbcBeginRaceTest.race(
            DELIVERIES,
            t -> {
              try {
                return inbox.receive("billing", "evt_race", handler).name();
              } catch (RuntimeException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
              }
            });

    assertThat(outcomes).containsOnlyOnce("IllegalStateException: the first delivery fails");
    assertThat(outcomes).containsOnlyOnce("APPLIED");
    assertThat(outcomes).filteredOn("DUPLICATE"::equals).hasSize(DELIVERIES - 2);
    assertThat(handlerRuns).hasValue(1);
    assertThat(database.count("SELECT COUNT(*) FROM " + ledger)).isEqualTo(1);
    assertThat(inbox.receive("billing", "evt_race", this::applied))
        .isEqualTo(InboxResult.DUPLICATE);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Db.class)
  void aDeliveryThatOutwaitsTheLockTimeoutIsBusyAndItsRedeliveryADuplicate(Db db) throws Exception {
    Inbox inbox = open(db, shortLockWait(db));
    Held first = Held.start(inbox, "evt_slow", this::applied);

    assertThatThrownBy(() -> inbox.receive("billing", "evt_slow", this::applied))
        .isInstanceOfSatisfying(
            InboxException.class, e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.BUSY))
        .hasMessageContaining("message evt_slow of billing is being received by another")
        .hasMessageContaining("ask for the message again later");

    assertThat(first.commit()).isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("billing", "evt_slow", this::applied))
        .isEqualTo(InboxResult.DUPLICATE);
    assertThat(handlerRuns).hasValue(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Db.class)
  void aBusyReceiptInTheCallersTransactionUndoesOnlyItsOwnPart(Db db) throws Exception {
    Inbox inbox = open(db, shortLockWait(db));
    Held first = Held.start(inbox, "evt_held", tx -> {});

    try (Connection c = database.newPool(1, shortLockWait(db)).getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement("INSERT INTO " + ledger + " VALUES ('own')")) {
        s.executeUpdate();
      }
      assertThatThrownBy(() -> inbox.receive(c, "billing", "evt_held", this::applied))
          .isInstanceOfSatisfying(
              InboxException.class, e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.BUSY));
      c.commit();
    }

    assertThat(first.commit()).isEqualTo(InboxResult.APPLIED);
    assertThat(database.count("SELECT COUNT(*) FROM " + ledger + " WHERE message_id = 'own'"))
        .isEqualTo(1);
    assertThat(handlerRuns).hasValue(0);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Db.class)
  void aMarkHeldByAnotherMessageBeyondTheLockTimeoutIsBusyAndNothingIsRecorded(Db db)
      throws Exception {
    Inbox inbox = open(db, shortLockWait(db));
    Held newer = Held.start(inbox, "evt_newer", tx -> tx.advance("ch_1", 200));
    InboxHandler older = tx -> tx.advance("ch_1", 100);

    assertThatThrownBy(() -> inbox.receive("billing", "evt_older", older))
        .isInstanceOfSatisfying(
            InboxException.class, e -> assertThat(e.kind()).isEqualTo(InboxException.Kind.BUSY))
        .hasMessageContaining("another message about ch_1 of billing holds its high-water mark");
    assertThat(
            database.count("SELECT COUNT(*) FROM " + receipts + " WHERE message_id = 'evt_older'"))
        .isZero();

    assertThat(newer.commit()).isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("billing", "evt_older", older)).isEqualTo(InboxResult.STALE);
  }

  /** A delivery on another thread whose handler did its work and holds its transaction open. */
  private record Held(CompletableFuture<InboxResult> outcome, CountDownLatch gate) {
    /** Starts {@code work} for {@code messageId}; returns once it ran, uncommitted. */
    static Held start(Inbox inbox, String messageId, InboxHandler work) throws Exception {
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<InboxResult> outcome =
          CompletableFuture.supplyAsync(
              () ->
                  inbox.receive(
                      "billing",
                      messageId,
                      tx -> {
                        work.handle(tx);
                        holding.countDown(); // the receipt and the work: written, not committed
                        release.await(30, TimeUnit.SECONDS);
                      }));
      assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
      return new Held(outcome, release);
    }

    /** Lets the transaction commit and returns its outcome. */
    InboxResult commit() throws Exception {
      gate.countDown();
      return outcome.get(30, TimeUnit.SECONDS);
    }
  }

  /** Waits until {@code n} deliveries wait for the receipt's row lock. */
  private void awaitReceiptWaiters(Db db, int n) throws SQLException {
    String insert = "INSERT INTO " + receipts + "%";
    String probe =
        switch (db) {
          case H2 ->
              "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE EXECUTING_STATEMENT LIKE '"
                  + insert
                  + "'";
          case POSTGRESQL ->
              "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '"
                  + insert
                  + "'";
          case MARIADB ->
              "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '"
                  + insert
                  + "'";
        };
    awaitCount(probe, n, n + " deliveries waiting for the receipt");
  }

  /** Polls the database's own view of its sessions (no sleeping on a guess) within a bound. */
  private void awaitCount(String sql, long n, String what) throws SQLException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (database.count(sql) < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
    }
  }
}
