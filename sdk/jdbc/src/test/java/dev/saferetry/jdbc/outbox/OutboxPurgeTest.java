package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxAdminTest.audit;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.commit;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.seq;
import static dev.saferetry.jdbc.outbox.OutboxParkingTest.withServer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcRetentionClockSkewTest;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The outbox's side tables are purged too, in bounded batches: an ordering key once no intent of it
 * is left, never while one is (its numbers never restart below a live intent), and never while an
 * enqueue holds it; an operator's audit row only past its own, much longer retention, and only once
 * its intent is gone from the table.
 */
class OutboxPurgeTest {
  private static final Instant LATER_THAN_THE_DATABASE = Instant.parse("2200-01-01T00:00:00Z");

  private static long count(TestDatabase database, String table) throws Exception {
    return database.count("SELECT COUNT(*) FROM " + database.table(table));
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void orderingKeysThatNoIntentUsesAnyMoreArePurgedInBatchesAndTheOthersKept(Db db)
      throws Exception {
    withServer(
        db,
        intent -> intent.equals("k5-1") ? status(402) : charge(),
        (database, store, client, time, wire) -> {
          for (int k = 1; k <= 5; k++) {
            commit(database, store, client, time, "key-" + k, "k" + k + "-1", k);
          }
          relay(store, client, time).build().runOnce(); // all sent: k5-1 is held REJECTED
          commit(database, store, client, time, "key-4", "k4-2", 4); // queued
          JdbcRetentionClockSkewTest.age(database, Duration.ofDays(2)); // past retention
          assertThat(count(database, "saferetry_intents_order")).isEqualTo(5);

          JdbcKeyStore small =
              JdbcKeyStore.builder()
                  .dataSource(database.pool())
                  .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                  .schema(database.schema)
                  .purgeBatchSize(2)
                  .build();
          assertThat(small.purgeExpired(LATER_THAN_THE_DATABASE)).isEqualTo(4);

          // key-4 still has a queued intent (its ended one is gone), key-5 a held one.
          assertThat(
                  database.count(
                      "SELECT COUNT(*) FROM "
                          + database.table("saferetry_intents_order")
                          + " WHERE ordering_key IN ('key-4', 'key-5')"))
              .isEqualTo(2);
          assertThat(count(database, "saferetry_intents_order")).isEqualTo(2);
          // A purged key starts again at 1; a kept one goes on.
          commit(database, store, client, time, "key-1", "k1-2", 1);
          commit(database, store, client, time, "key-4", "k4-3", 4);
          assertThat(seq(database, "k1-2")).isEqualTo(1);
          assertThat(seq(database, "k4-3")).isEqualTo(3);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aPurgeSkipsAnOrderingKeyAnEnqueueHoldsAndNeverRestartsItsNumbers(Db db) throws Exception {
    withServer(
        db,
        intent -> charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, "key-1", "a", 1);
          relay(store, client, time).build().runOnce();
          JdbcRetentionClockSkewTest.age(database, Duration.ofDays(2)); // "a" ended and expired
          try (Connection tx = database.connect()) {
            tx.setAutoCommit(false);
            enqueue(tx, store, client, time, "key-1", "b", 2); // holds key-1's row until commit
            int purged =
                CompletableFuture.supplyAsync(() -> store.purgeExpired(LATER_THAN_THE_DATABASE))
                    .get(30, TimeUnit.SECONDS); // never waits for the enqueue
            assertThat(purged).isEqualTo(1); // "a"
            tx.commit();
          }
          assertThat(seq(database, "b")).isEqualTo(2);
          assertThat(store.purgeExpired(LATER_THAN_THE_DATABASE)).isZero();
          assertThat(count(database, "saferetry_intents_order")).isEqualTo(1);
          commit(database, store, client, time, "key-1", "c", 3);
          assertThat(seq(database, "c")).isEqualTo(3);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theAuditIsPurgedOnlyPastItsOwnRetentionAndOnlyOnceItsIntentIsGone(Db db) throws Exception {
    int[] sends = {0};
    withServer(
        db,
        intent -> intent.equals("sent") && sends[0]++ > 0 ? charge() : status(503),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, null, "sent", 1);
          commit(database, store, client, time, null, "kept", 2);
          relay(store, client, time).maxClaims(1).build().runOnce(); // both parked
          OutboxAdmin admin = JdbcOutbox.of(store).admin("ivy");
          admin.requeue(admin.find(SCOPE, "sent").orElseThrow(), "t-1", "again");
          relay(store, client, time).build().runOnce(); // "sent" succeeds
          admin.abandon(admin.find(SCOPE, "kept").orElseThrow(), "t-2", "given up");
          long rows = audit(database).size();
          assertThat(rows).isEqualTo(2);

          // 40 days later by the database's clock: "sent" is purged with its retention.
          JdbcRetentionClockSkewTest.age(database, Duration.ofDays(40));
          database.execute(
              "UPDATE "
                  + database.table("saferetry_intents_audit")
                  + " SET at_ns = at_ns - "
                  + Duration.ofDays(40).toNanos());
          assertThat(store.purgeExpired(LATER_THAN_THE_DATABASE)).isEqualTo(1);
          assertThat(JdbcOutbox.of(store).purgeAuditOlderThan(Duration.ofDays(41))).isZero();
          int purged = JdbcOutbox.of(store).purgeAuditOlderThan(Duration.ofDays(30));
          // Only the rows of the intent that is gone; the abandoned one keeps its history.
          assertThat(audit(database))
              .isNotEmpty()
              .allSatisfy(a -> assertThat(a.get("intent_id")).isEqualTo("kept"));
          assertThat(purged).isEqualTo(rows - audit(database).size()).isPositive();
          assertThatThrownBy(
                  () ->
                      client.execute(
                          dev.saferetry.examples.payments.Charges.CREATE,
                          new dev.saferetry.examples.payments.ChargeCreateParams(
                              2, "eur", "kept", null),
                          dev.saferetry.RequestOptions.none().withIntentId("kept")))
              .hasMessageContaining("abandoned by ivy")
              .hasMessageContaining("given up");
          assertThatThrownBy(() -> JdbcOutbox.of(store).purgeAuditOlderThan(Duration.ofDays(29)))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("30 days");
        });
  }
}
