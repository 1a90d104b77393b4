package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** An intent recorded inside the caller's transaction lives and dies with the business row. */
class JdbcTransactionTest {
  /**
   * A thread per task: the common pool may have a single thread (two cores on JDK 25), where one
   * begin blocked on a row lock would hold up the others and prove nothing about the store.
   */
  private static final Executor OWN_THREAD =
      task -> {
        Thread t = new Thread(task, "jdbc-transaction-test");
        t.setDaemon(true);
        t.start();
      };

  private static final StoredRequest CHARGE =
      new StoredRequest(
          "POST",
          "v1/charges",
          KeyPlacement.header(),
          Map.of(),
          "application/x-www-form-urlencoded",
          "amount=1000".getBytes());

  @ParameterizedTest
  @EnumSource(Db.class)
  void anIntentBegunInACommittedTransactionIsStoredWithTheBusinessRow(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      database.execute(ordersTable(database));
      IntentRecord intent;
      try (Connection c = database.pool().getConnection()) {
        c.setAutoCommit(false);
        insertOrder(c, database, "order-1");
        BeginResult begun = store.begin(c, candidate("order-1/charge", "fp", T0));
        assertThat(begun.created()).isTrue();
        intent = begun.record();
        c.commit();
      }
      assertThat(store.find(SCOPE, "order-1/charge")).contains(intent);
      assertThat(orders(database)).containsExactly("order-1");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRolledBackTransactionLeavesNoIntentAndNothingToSend(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      database.execute(ordersTable(database));
      try (Connection c = database.pool().getConnection()) {
        c.setAutoCommit(false);
        insertOrder(c, database, "order-1");
        assertThat(store.begin(c, candidate("order-1/charge", "fp", T0)).created()).isTrue();
        insertOrder(c, database, "order-2");
        JdbcOutbox.of(store).enqueue(c, candidate("order-2/charge", "fp", T0), CHARGE, T0);
        c.rollback();
      }
      assertThat(orders(database)).isEmpty();
      assertThat(store.find(SCOPE, "order-1/charge")).isEmpty();
      assertThat(store.pending()).isEmpty();
      assertThat(
              RelayLeases.of(store).claim("relay-1", T0.plusSeconds(60), Duration.ofMinutes(1), 10))
          .isEmpty();
      IntentRecord again = candidate("order-1/charge", "fp", T0);
      assertThat(store.begin(again).created()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aConcurrentBeginWaitsForTheOpenTransactionAndGetsItsKeyAfterCommit(Db db) throws Exception {
    BeginResult other = beginWhileAnotherTransactionHoldsTheIntent(db, true);
    assertThat(other.created()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aConcurrentBeginWaitsForTheOpenTransactionAndRecordsItsOwnAfterRollback(Db db)
      throws Exception {
    BeginResult other = beginWhileAnotherTransactionHoldsTheIntent(db, false);
    assertThat(other.created()).isTrue();
  }

  /**
   * Transaction A records the intent and stays open; B (another connection, auto-commit) begins the
   * same intent and must wait; A then commits or rolls back. Returns B's result after checking that
   * its record is the one that survived.
   */
  private static BeginResult beginWhileAnotherTransactionHoldsTheIntent(Db db, boolean commit)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      IntentRecord first;
      IntentRecord second = candidate("order-1/charge", "fp", T0);
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<BeginResult> b;
      try (Connection a = database.pool().getConnection()) {
        a.setAutoCommit(false);
        first = store.begin(a, candidate("order-1/charge", "fp", T0)).record();
        b =
            CompletableFuture.supplyAsync(
                () -> {
                  started.countDown();
                  return store.begin(second);
                },
                OWN_THREAD);
        started.await(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> b.get(300, TimeUnit.MILLISECONDS))
            .as("B must wait for A's transaction")
            .isInstanceOf(TimeoutException.class);
        if (commit) {
          a.commit();
        } else {
          a.rollback();
        }
      }
      BeginResult result = b.get(30, TimeUnit.SECONDS);
      if (commit) {
        assertThat(result.record()).isEqualTo(first);
      } else {
        assertThat(result.record().key()).isEqualTo(second.key());
      }
      assertThat(store.find(SCOPE, "order-1/charge")).contains(result.record());
      return result;
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aBeginWaitingForAnotherTransactionDoesNotHoldUpOtherIntents(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        Connection a = database.pool().getConnection()) {
      a.setAutoCommit(false);
      store.begin(a, candidate("order-1/charge", "fp", T0));
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<BeginResult> blocked =
          CompletableFuture.supplyAsync(
              () -> {
                started.countDown();
                return store.begin(candidate("order-1/charge", "fp", T0));
              },
              OWN_THREAD);
      started.await(10, TimeUnit.SECONDS);

      CompletableFuture<BeginResult> other =
          CompletableFuture.supplyAsync(
              () -> store.begin(candidate("order-2/charge", "fp", T0)), OWN_THREAD);
      assertThat(other.get(10, TimeUnit.SECONDS).created()).isTrue();
      assertThat(blocked).isNotDone();
      a.commit();
      assertThat(blocked.get(10, TimeUnit.SECONDS).created()).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void joiningNeedsATransaction(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        Connection c = database.pool().getConnection()) {
      c.setAutoCommit(true);
      assertThatThrownBy(() -> store.begin(c, candidate("order-1", "fp", T0)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("auto-commit");
      assertThat(store.pending()).isEmpty();
    }
  }

  private static String ordersTable(TestDatabase database) {
    return "CREATE TABLE "
        + database.table("orders")
        + " (id VARCHAR(64) NOT NULL PRIMARY KEY, amount INTEGER NOT NULL)";
  }

  private static void insertOrder(Connection c, TestDatabase database, String id)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO " + database.table("orders") + " VALUES (?, 1000)")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }

  private static List<String> orders(TestDatabase database) throws SQLException {
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT id FROM " + database.table("orders") + " ORDER BY id");
        ResultSet rs = ps.executeQuery()) {
      List<String> ids = new java.util.ArrayList<>();
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
      return ids;
    }
  }
}
