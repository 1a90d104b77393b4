package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcBeginRaceTest;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Receipts are purged by age in bounded batches, from any number of instances; marks never. */
class InboxRetentionTest {
  private static final Duration THREE_DAYS = Duration.ofDays(3);

  /** The host's clock: receipts are recorded and judged at the database's (on this machine). */
  private final Clock clock = Clock.systemUTC();

  /**
   * Lets {@code d} go by for the receipts recorded so far: the database's clock cannot be moved, so
   * their recorded times move back by {@code d} instead.
   */
  private static void age(TestDatabase database, Duration d) throws Exception {
    database.execute(
        "UPDATE " + database.table("rcpt") + " SET received_at = received_at - " + d.toMillis());
  }

  private Inbox inbox(TestDatabase db, DataSource pool, int batch) {
    return Inbox.builder()
        .dataSource(pool)
        .table(db.table("rcpt"))
        .createSchema(true)
        .clock(clock)
        .purgeBatchSize(batch)
        .build();
  }

  private static void receiveAll(Inbox inbox, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      assertThat(inbox.receive("billing", prefix + i, tx -> {})).isEqualTo(InboxResult.APPLIED);
    }
  }

  private static long receipts(TestDatabase db, String where) throws Exception {
    return db.count("SELECT COUNT(*) FROM " + db.table("rcpt") + " WHERE " + where);
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void receiptsOlderThanTheAgeArePurgedInBoundedBatchesAndNewerOnesKept(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      AtomicInteger borrowed = new AtomicInteger();
      Inbox inbox = inbox(database, counting(database.pool(), borrowed), 10);
      receiveAll(inbox, "evt_old_", 25);
      age(database, Duration.ofMinutes(2));
      receiveAll(inbox, "evt_edge_", 1);
      age(database, THREE_DAYS.minusMinutes(1)); // evt_edge_0: a minute short of three days old
      receiveAll(inbox, "evt_new_", 3);

      borrowed.set(0);
      assertThat(inbox.purgeReceiptsOlderThan(THREE_DAYS)).isEqualTo(25);

      assertThat(borrowed)
          .as("the database's clock, then one transaction per batch: 10, 10, 5")
          .hasValue(4);
      assertThat(receipts(database, "message_id LIKE 'evt_old_%'")).isZero();
      assertThat(receipts(database, "1 = 1")).isEqualTo(4);
      assertThat(inbox.purgeReceiptsOlderThan(THREE_DAYS)).isZero();
      assertThat(inbox.receive("billing", "evt_edge_0", tx -> {})).isEqualTo(InboxResult.DUPLICATE);
      assertThat(inbox.receive("billing", "evt_new_2", tx -> {})).isEqualTo(InboxResult.DUPLICATE);
      // What retention costs: a purged message is forgotten, and its redelivery runs again.
      assertThat(inbox.receive("billing", "evt_old_0", tx -> {})).isEqualTo(InboxResult.APPLIED);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theHighWaterMarksOutliveTheirReceiptsSoAnOlderEventStaysStale(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      Inbox inbox = inbox(database, database.pool(), 1000);
      assertThat(inbox.receive("billing", "evt_new", tx -> tx.advance("ch_1", 200)))
          .isEqualTo(InboxResult.APPLIED);
      assertThat(inbox.receive("billing", "evt_mid", tx -> tx.advance("ch_1", 150)))
          .isEqualTo(InboxResult.STALE);
      age(database, Duration.ofDays(30));

      assertThat(inbox.purgeReceiptsOlderThan(THREE_DAYS)).isEqualTo(2);

      assertThat(database.count("SELECT COUNT(*) FROM " + database.table("rcpt_marks")))
          .isEqualTo(1);
      assertThat(inbox.receive("billing", "evt_old", tx -> tx.advance("ch_1", 100)))
          .isEqualTo(InboxResult.STALE);
      assertThat(inbox.receive("billing", "evt_mid", tx -> tx.advance("ch_1", 150)))
          .isEqualTo(InboxResult.STALE);
      inbox.receive(
          "billing", "evt_probe", tx -> assertThat(tx.highWaterMark("ch_1")).hasValue(200));
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void purgesRunningOnEveryInstanceAtOnceDeleteEachOldReceiptOnce(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      receiveAll(inbox(database, database.pool(), 7), "evt_old_", 120);
      age(database, Duration.ofDays(4));

      List<Integer> results =
          JdbcBeginRaceTest.race(
              8,
              t -> {
                // Four instances purge with pools of their own; four keep receiving meanwhile.
                Inbox instance = inbox(database, database.newPool(2), 7);
                if (t < 4) {
                  return instance.purgeReceiptsOlderThan(THREE_DAYS);
                }
                receiveAll(instance, "evt_new_" + t + "_", 10);
                return 0;
              });

      assertThat(results.stream().mapToInt(Integer::intValue).sum()).isEqualTo(120);
      assertThat(receipts(database, "message_id LIKE 'evt_old_%'")).isZero();
      assertThat(receipts(database, "message_id LIKE 'evt_new_%'")).isEqualTo(40);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aPurgeSkipsReceiptsAnotherTransactionHoldsInsteadOfWaitingForThem(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      Inbox inbox = inbox(database, database.pool(), 2);
      receiveAll(inbox, "evt_old_", 5);
      age(database, Duration.ofDays(4));

      try (Connection holder = database.connect()) {
        holder.setAutoCommit(false);
        try (Statement s = holder.createStatement();
            ResultSet rs =
                s.executeQuery(
                    "SELECT outcome FROM "
                        + database.table("rcpt")
                        + " WHERE subscriber = 'billing' AND message_id = 'evt_old_3' FOR UPDATE")) {
          assertThat(rs.next()).isTrue();
        }
        int purged =
            CompletableFuture.supplyAsync(() -> inbox.purgeReceiptsOlderThan(THREE_DAYS))
                .get(30, TimeUnit.SECONDS);
        assertThat(purged).isEqualTo(4);
        holder.rollback();
      }
      assertThat(inbox.purgeReceiptsOlderThan(THREE_DAYS)).isEqualTo(1);
      assertThat(receipts(database, "1 = 1")).isZero();
    }
  }

  @Test
  void retentionSettingsAreChecked() throws Exception {
    try (TestDatabase database = Db.H2.open()) {
      Inbox inbox = inbox(database, database.pool(), 1000);
      receiveAll(inbox, "evt_", 1);
      age(database, Duration.ofDays(400));

      assertThatThrownBy(() -> inbox.purgeReceiptsOlderThan(Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("age");
      assertThatThrownBy(() -> inbox.purgeReceiptsOlderThan(Duration.ofDays(-1)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> inbox.purgeReceiptsOlderThan(null))
          .isInstanceOf(NullPointerException.class);
      assertThat(inbox.purgeReceiptsOlderThan(ChronoUnit.FOREVER.getDuration())).isZero();
      assertThat(receipts(database, "1 = 1")).isEqualTo(1);
      for (int bad : new int[] {0, -1, 100_001}) {
        assertThatThrownBy(() -> Inbox.builder().purgeBatchSize(bad))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("purgeBatchSize");
      }
    }
  }

  /** The data source, counting the connections borrowed from it. */
  private static DataSource counting(DataSource pool, AtomicInteger borrowed) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                borrowed.incrementAndGet();
              }
              try {
                return method.invoke(pool, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
