package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.commit;
import static dev.saferetry.jdbc.outbox.OutboxParkingTest.withServer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.databaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's API: list and inspect, then requeue, abandon, let a key continue or requeue with a
 * new key after reconciliation; each action fenced by what was read, recorded once in the audit,
 * idempotent under its action id, and won by exactly one of two racing operators.
 */
class OutboxAdminTest {
  private static final Reconciler NOTHING = (intent, client) -> Reconciliation.nothingExists();

  /** Parks order-1 (key order-42) as TOO_MANY_ATTEMPTS, with order-2 queued behind it. */
  private static OutboxIntent parkFirst(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time)
      throws Exception {
    commit(database, store, client, time, "order-42", "order-1", 1000);
    commit(database, store, client, time, "order-42", "order-2", 2000);
    OutboxRelay relay = relay(store, client, time).maxClaims(1).build();
    relay.runOnce();
    return JdbcOutbox.of(store).admin("setup").whereHeld().list(10).get(0);
  }

  /** The audit's rows: action, actor, reason, state before and after, new and old key. */
  static List<Map<String, String>> audit(TestDatabase database) throws Exception {
    List<Map<String, String>> out = new ArrayList<>();
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT action_id, actor, action, intent_id, reason, state_before, state_after,"
                    + " new_key, old_key, at_ns FROM "
                    + database.table("saferetry_intents_audit")
                    + " ORDER BY audit_id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 1; i <= 10; i++) {
          row.put(
              rs.getMetaData().getColumnLabel(i).toLowerCase(java.util.Locale.ROOT),
              rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void listsAndInspectsIntentsByStateOperationKeyAndAge(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          elapse(database, time, Duration.ofHours(2));
          commit(database, store, client, time, null, "late-1", 5);
          // late-1 is due at this instance's clock, now 2 h ahead of the table's times.
          assertThat(
                  RelayLeases.of(store).claim("relay-z", time.instant(), Duration.ofMinutes(1), 10))
              .hasSize(1);
          OutboxAdmin admin = JdbcOutbox.of(store).admin("alice@ops");

          assertThat(parked.reason()).isEqualTo(HoldReason.TOO_MANY_ATTEMPTS);
          assertThat(parked.attempts()).isEqualTo(1);
          assertThat(parked.note()).contains("RETRIES_EXHAUSTED");
          assertThat(parked.orderingKey()).isEqualTo("order-42");
          assertThat(parked.holdsKey()).isTrue();
          assertThat(parked.leaseOwner()).isNull();

          assertThat(admin.whereQueued().list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-2", "late-1");
          OutboxIntent leased = admin.find(SCOPE, "late-1").orElseThrow();
          assertThat(leased.isQueued()).isTrue();
          assertThat(leased.leaseOwner()).isEqualTo("relay-z");
          assertThat(leased.leaseExpiresAt()).isAfter(databaseTime(database));
          assertThat(leased.orderingKey()).isNull();
          assertThat(admin.whereHeld().list(10))
              .singleElement()
              .satisfies(h -> assertThat(h.version()).isEqualTo(parked.version()));
          assertThat(admin.whereEnded().list(10)).isEmpty();
          assertThat(admin.whereOrderingKey("order-42").list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1", "order-2");
          assertThat(admin.whereOlderThan(Duration.ofHours(1)).list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1", "order-2");
          assertThat(admin.whereOperation("refunds.create").list(10)).isEmpty();
          assertThat(admin.whereOperation(SCOPE.operation()).list(2)).hasSize(2);
          assertThat(admin.find(SCOPE, "nope")).isEmpty();
          assertThat(admin.actor()).isEqualTo("alice@ops");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRequeuedIntentIsSentWithItsKeyAndTheActionIsRecordedOnce(Db db) throws Exception {
    withServer(
        db,
        new Function<>() {
          int n;

          @Override
          public mockwebserver3.MockResponse apply(String intent) {
            return intent.equals("order-1") && n++ == 0 ? status(503) : charge();
          }
        },
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          String key = parked.record().key().value();
          OutboxAdmin alice = JdbcOutbox.of(store).admin("alice@ops");
          Instant before = databaseTime(database);

          OutboxIntent requeued = alice.requeue(parked, "ticket-1", "outage over");
          assertThat(requeued.isQueued()).isTrue();
          assertThat(requeued.attempts()).isZero();
          assertThat(requeued.version()).isGreaterThan(parked.version());
          assertThat(requeued.note()).isEqualTo("requeued by alice@ops: outage over");
          // Repeating the same action changes nothing more and records nothing more.
          assertThat(alice.requeue(parked, "ticket-1", "outage over")).isEqualTo(requeued);
          assertThat(audit(database)).hasSize(1);
          Map<String, String> row = audit(database).get(0);
          assertThat(row)
              .containsEntry("action_id", "ticket-1")
              .containsEntry("actor", "alice@ops")
              .containsEntry("action", "REQUEUE")
              .containsEntry("intent_id", "order-1")
              .containsEntry("reason", "outage over")
              .containsEntry("state_before", "HELD TOO_MANY_ATTEMPTS")
              .containsEntry("state_after", "QUEUED")
              .containsEntry("new_key", null);
          Instant at = Instant.EPOCH.plusNanos(Long.parseLong(row.get("at_ns")));
          assertThat(at).isBetween(before.minusSeconds(5), databaseTime(database).plusSeconds(5));

          relay(store, client, time).build().runOnce();
          relay(store, client, time).build().runOnce();
          assertThat(wire).containsExactly("order-1", "order-1", "order-2");
          assertThat(store.find(SCOPE, "order-1").orElseThrow().key().value()).isEqualTo(key);
          assertThat(store.find(SCOPE, "order-2").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
          // A stale copy of the intent is refused now, whatever the action id.
          assertThatThrownBy(() -> alice.requeue(parked, "ticket-2", "again"))
              .isInstanceOf(ConcurrentModificationException.class)
              .hasMessageContaining("changed by someone else");
          assertThatThrownBy(() -> alice.abandon(parked, "ticket-1", "wrong id"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("already used for REQUEUE");
          assertThat(audit(database)).hasSize(1);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anAbandonedIntentEndsIsNeverSentItsKeyGoesOnAndItsOutcomeStaysUnknown(Db db)
      throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          OutboxIntent ended =
              JdbcOutbox.of(store).admin("bob").abandon(parked, "t-7", "refunded by hand");
          assertThat(ended.isEnded()).isTrue();
          assertThat(ended.abandoned()).isTrue();
          assertThat(ended.isQueued()).isFalse();
          // It may have been charged: its outcome stays unknown, never FAILED.
          assertThat(ended.record().state()).isEqualTo(IntentState.PENDING);
          assertThat(ended.record().status()).isZero();
          OutboxRelay relay = relay(store, client, time).build();
          relay.runOnce();
          elapse(database, time, Duration.ofHours(1));
          relay.runOnce();
          assertThat(wire).containsExactly("order-1", "order-2");
          assertThat(audit(database))
              .singleElement()
              .satisfies(
                  a ->
                      assertThat(a)
                          .containsEntry("action", "ABANDON")
                          .containsEntry("state_before", "HELD TOO_MANY_ATTEMPTS")
                          .containsEntry("state_after", "ABANDONED PENDING"));
          OutboxIntent reread =
              JdbcOutbox.of(store).admin("bob").find(SCOPE, "order-1").orElseThrow();
          assertThat(reread.abandoned()).isTrue();
          assertThat(reread.version()).isEqualTo(ended.version()); // no relay touched it
          assertThat(JdbcOutbox.of(store).admin("bob").whereAbandoned().list(10))
              .containsExactly(reread);
          assertThat(JdbcOutbox.of(store).admin("bob").whereEnded().list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1", "order-2");
          assertThat(JdbcOutbox.of(store).held()).isEmpty();
          assertThatThrownBy(
                  () -> JdbcOutbox.of(store).admin("bob").abandon(reread, "t-8", "twice"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("already abandoned");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aNewKeyIsGivenOnlyAfterReconciliationProvesNothingExists(Db db) throws Exception {
    withServer(
        db,
        new Function<>() {
          int n;

          @Override
          public mockwebserver3.MockResponse apply(String intent) {
            return intent.equals("order-1") && n++ == 0 ? status(503) : charge();
          }
        },
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          String oldKey = parked.record().key().value();
          OutboxAdmin carol = JdbcOutbox.of(store).admin("carol");

          assertThatThrownBy(
                  () ->
                      carol.requeueWithNewKey(
                          parked,
                          client,
                          (i, c) -> Reconciliation.unresolved("search lags"),
                          "t-1",
                          "try new key"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("did not prove that nothing exists")
              .hasMessageContaining("search lags");
          assertThat(carol.find(SCOPE, "order-1").orElseThrow()).isEqualTo(parked);
          assertThat(audit(database)).isEmpty();

          OutboxIntent rekeyed =
              carol.requeueWithNewKey(parked, client, NOTHING, "t-2", "nothing at provider");
          String newKey = rekeyed.record().key().value();
          assertThat(newKey).isNotEqualTo(oldKey);
          assertThat(rekeyed.isQueued()).isTrue();
          assertThat(rekeyed.record().createdAt()).isAfter(parked.record().createdAt());
          assertThat(rekeyed.orderingKey()).isEqualTo("order-42");
          // Repeated: no second lookup, no third key.
          assertThat(
                  carol.requeueWithNewKey(
                      parked,
                      client,
                      (i, c) -> {
                        throw new AssertionError("looked up again");
                      },
                      "t-2",
                      "nothing at provider"))
              .isEqualTo(rekeyed);
          assertThat(audit(database))
              .singleElement()
              .satisfies(
                  a ->
                      assertThat(a)
                          .containsEntry("action", "REQUEUE_WITH_NEW_KEY")
                          .containsEntry("new_key", newKey)
                          .containsEntry("old_key", oldKey));

          relay(store, client, time).build().runOnce();
          relay(store, client, time).build().runOnce();
          assertThat(wire).containsExactly("order-1", "order-1", "order-2");
          assertThat(store.find(SCOPE, "order-1").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aReconciliationThatFindsTheResourceCompletesTheIntentAndRefusesTheNewKey(Db db)
      throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          assertThatThrownBy(
                  () ->
                      JdbcOutbox.of(store)
                          .admin("carol")
                          .requeueWithNewKey(
                              parked,
                              client,
                              (i, c) -> Reconciliation.succeeded("ch_found"),
                              "t-1",
                              "check"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("ch_found");
          IntentRecord done = store.find(SCOPE, "order-1").orElseThrow();
          assertThat(done.state()).isEqualTo(IntentState.SUCCEEDED);
          assertThat(done.key()).isEqualTo(parked.record().key());
          assertThat(audit(database)).isEmpty();
          relay(store, client, time).build().runOnce(); // the key goes on: order-2 is sent
          assertThat(wire).containsExactly("order-1", "order-2");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void twoOperatorsRacingOnOneIntentHaveExactlyOneEffect(Db db) throws Exception {
    for (String action : List.of("requeue", "abandon", "releaseKey", "newKey")) {
      withServer(
          db,
          intent -> status(503),
          (database, store, client, time, wire) -> {
            OutboxIntent parked = parkFirst(database, store, client, time);
            List<Object> results = race(store, client, parked, action, "a-1", "a-2");
            assertThat(results).as(action).filteredOn(r -> r instanceof OutboxIntent).hasSize(1);
            assertThat(results)
                .as(action)
                .filteredOn(r -> r instanceof ConcurrentModificationException)
                .hasSize(1);
            assertThat(audit(database)).as(action).hasSize(1);
            OutboxIntent now = JdbcOutbox.of(store).admin("x").find(SCOPE, "order-1").orElseThrow();
            assertThat(now.version()).as(action).isEqualTo(parked.version() + 1);
          });
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void twoOperatorsRacingWithTheSameActionIdBothGetItsOneResult(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          List<Object> results = race(store, client, parked, "requeue", "same", "same");
          assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOf(OutboxIntent.class));
          assertThat(audit(database)).hasSize(1);
          assertThat(JdbcOutbox.of(store).admin("x").find(SCOPE, "order-1").orElseThrow().version())
              .isEqualTo(parked.version() + 1);
        });
  }

  /** Two operators on two connections act on {@code seen} at once; their results or refusals. */
  private static List<Object> race(
      JdbcKeyStore store, SafeRetryClient client, OutboxIntent seen, String action, String... ids)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(ids.length);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Object>> futures = new ArrayList<>();
      AtomicInteger n = new AtomicInteger();
      for (String id : ids) {
        futures.add(
            pool.submit(
                () -> {
                  OutboxAdmin admin = JdbcOutbox.of(store).admin("op-" + n.incrementAndGet());
                  start.await();
                  try {
                    return switch (action) {
                      case "requeue" -> admin.requeue(seen, id, "race");
                      case "abandon" -> admin.abandon(seen, id, "race");
                      case "releaseKey" -> admin.releaseKey(seen, id, "race");
                      default -> admin.requeueWithNewKey(seen, client, NOTHING, id, "race");
                    };
                  } catch (ConcurrentModificationException e) {
                    return e;
                  }
                }));
      }
      start.countDown();
      List<Object> out = new ArrayList<>();
      for (Future<Object> f : futures) {
        out.add(f.get(30, TimeUnit.SECONDS));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowChangedBehindTheAdminsBackIsRefusedNotOverwritten(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          OutboxAdmin admin = JdbcOutbox.of(store).admin("dave");
          // A queued intent listed, then claimed by a relay before the operator acts.
          OutboxIntent queued = admin.find(SCOPE, "order-2").orElseThrow();
          commit(database, store, client, time, null, "free-1", 1);
          OutboxIntent free = admin.find(SCOPE, "free-1").orElseThrow();
          assertThat(RelayLeases.of(store).claim("relay-q", Duration.ofMinutes(1), 10)).hasSize(1);
          assertThatThrownBy(() -> admin.abandon(free, "t-1", "cancelled"))
              .isInstanceOf(ConcurrentModificationException.class);
          OutboxIntent leased = admin.find(SCOPE, "free-1").orElseThrow();
          assertThatThrownBy(() -> admin.abandon(leased, "t-1", "cancelled"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("relay-q");
          assertThatThrownBy(() -> admin.requeue(queued, "t-2", "not held"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("not held");
          // Someone flips the held row to queued with plain SQL, without touching its version.
          database.execute(
              "UPDATE "
                  + database.table("saferetry_intents")
                  + " SET relay_state = 0 WHERE intent_id = 'order-1'");
          assertThatThrownBy(() -> admin.requeue(parked, "t-3", "requeue"))
              .isInstanceOf(ConcurrentModificationException.class);
          OutboxIntent flipped = admin.find(SCOPE, "order-1").orElseThrow();
          assertThatThrownBy(() -> admin.requeue(flipped, "t-3", "requeue"))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("not held");
          database.execute(
              "UPDATE "
                  + database.table("saferetry_intents")
                  + " SET relay_state = 2 WHERE intent_id = 'order-1'");
          // A bulk action with one refused intent changes none of them.
          assertThatThrownBy(() -> admin.abandon(List.of(parked, queued, free), "t-4", "bulk"))
              .isInstanceOf(ConcurrentModificationException.class);
          assertThat(admin.find(SCOPE, "order-1").orElseThrow()).isEqualTo(parked);
          assertThat(audit(database)).isEmpty();
          // The key store does not forget it behind the outbox's back; deleted by hand, it is gone.
          assertThatThrownBy(() -> store.abandon(SCOPE, "order-1"))
              .isInstanceOf(dev.saferetry.idempotency.IntentRefusedException.class);
          database.execute(
              "DELETE FROM "
                  + database.table("saferetry_intents")
                  + " WHERE intent_id = 'order-1'");
          assertThatThrownBy(() -> admin.requeue(parked, "t-5", "requeue"))
              .isInstanceOf(ConcurrentModificationException.class)
              .hasMessageContaining("no longer in the outbox");
          assertThatThrownBy(() -> admin.requeueWithNewKey(parked, client, NOTHING, "t-6", "x"))
              .isInstanceOf(ConcurrentModificationException.class)
              .hasMessageContaining("no longer in the outbox");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aBulkActionAppliesToAllInOneTransactionAndRepeatsAsOne(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          for (int i = 1; i <= 3; i++) {
            commit(database, store, client, time, "key-" + i, "order-" + i, i);
          }
          relay(store, client, time).maxClaims(1).build().runOnce();
          OutboxAdmin admin = JdbcOutbox.of(store).admin("erin");
          List<OutboxIntent> held = new ArrayList<>(admin.whereHeld().list(10));
          assertThat(held).hasSize(3);
          Collections.reverse(held);
          List<OutboxIntent> after = admin.requeue(held, "bulk-1", "outage over");
          assertThat(after)
              .extracting(i -> i.record().intentId())
              .containsExactly("order-3", "order-2", "order-1");
          assertThat(after).allSatisfy(i -> assertThat(i.isQueued()).isTrue());
          assertThat(admin.requeue(held, "bulk-1", "outage over")).isEqualTo(after);
          assertThat(audit(database)).hasSize(3);
        });
  }

  @Test
  void hostileArgumentsAreRefusedWithTheParameterNamed() throws Exception {
    withServer(
        Db.H2,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          String huge = "x".repeat(100_000);
          for (String bad : new String[] {"", " ", "a\nb", "a\u0000", "\uDC00", huge}) {
            assertThatThrownBy(() -> JdbcOutbox.of(store).admin(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actor");
            OutboxAdmin admin = JdbcOutbox.of(store).admin("frank");
            assertThatThrownBy(() -> admin.requeue(parked, bad, "why"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actionId");
            assertThatThrownBy(() -> admin.abandon(parked, "t", bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("why");
            assertThatThrownBy(() -> admin.whereOrderingKey(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orderingKey");
            assertThatThrownBy(() -> admin.whereOperation(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation");
            if (!bad.isBlank() || bad.isEmpty()) {
              assertThatThrownBy(() -> admin.find(SCOPE, bad))
                  .isInstanceOf(IllegalArgumentException.class);
            }
          }
          OutboxAdmin admin = JdbcOutbox.of(store).admin("frank");
          assertThatThrownBy(() -> JdbcOutbox.of(store).admin(null))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("actor");
          assertThatThrownBy(() -> admin.requeue((OutboxIntent) null, "t", "w"))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("intent");
          assertThatThrownBy(() -> admin.requeue((List<OutboxIntent>) null, "t", "w"))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("intents");
          assertThatThrownBy(() -> admin.requeue(List.of(), "t", "w"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("intents");
          assertThatThrownBy(() -> admin.requeue(Collections.nCopies(1001, parked), "t", "w"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("intents");
          assertThatThrownBy(() -> admin.requeue(List.of(parked, parked), "t", "w"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("more than once");
          List<OutboxIntent> withNull = new ArrayList<>();
          withNull.add(null);
          assertThatThrownBy(() -> admin.abandon(withNull, "t", "w"))
              .isInstanceOf(NullPointerException.class);
          assertThatThrownBy(() -> admin.requeueWithNewKey(parked, null, NOTHING, "t", "w"))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("client");
          assertThatThrownBy(() -> admin.requeueWithNewKey(parked, client, null, "t", "w"))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("reconciler");
          for (int limit : new int[] {0, -1, 1001, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> admin.list(limit))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
          }
          for (Duration age : new Duration[] {Duration.ofSeconds(-1), Duration.ofDays(40_000)}) {
            assertThatThrownBy(() -> admin.whereOlderThan(age))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("age");
          }
          assertThatThrownBy(() -> admin.whereOlderThan(null))
              .isInstanceOf(NullPointerException.class);
          assertThatThrownBy(() -> admin.find(null, "order-1"))
              .isInstanceOf(NullPointerException.class);
          // An intent made up by the caller, not read from the outbox, is refused as changed.
          OutboxIntent forged =
              new OutboxIntent(
                  parked.record(),
                  null,
                  HoldReason.REJECTED,
                  null,
                  0,
                  null,
                  false,
                  null,
                  null,
                  null,
                  parked.version() + 7,
                  false);
          assertThatThrownBy(() -> admin.requeue(forged, "t", "w"))
              .isInstanceOf(ConcurrentModificationException.class);
          IntentRecord otherTenant =
              new IntentRecord(
                  new IntentScope("tenant-b", SCOPE.operation()),
                  "order-1",
                  parked.record().key(),
                  parked.record().fingerprint(),
                  IntentState.PENDING,
                  parked.record().createdAt(),
                  parked.record().expiresAt(),
                  0,
                  null);
          OutboxIntent foreign =
              new OutboxIntent(
                  otherTenant,
                  null,
                  HoldReason.REJECTED,
                  null,
                  0,
                  null,
                  false,
                  null,
                  null,
                  null,
                  parked.version(),
                  false);
          assertThatThrownBy(() -> admin.requeueWithNewKey(foreign, client, NOTHING, "t", "w"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("another tenant");
          assertThatThrownBy(() -> admin.requeue(foreign, "t", "w"))
              .isInstanceOf(ConcurrentModificationException.class);
          assertThatThrownBy(
                  () ->
                      new OutboxIntent(
                          parked.record(),
                          null,
                          null,
                          null,
                          -1,
                          null,
                          false,
                          null,
                          null,
                          null,
                          0,
                          false))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("attempts");
          assertThatThrownBy(
                  () ->
                      new OutboxIntent(
                          parked.record(),
                          null,
                          null,
                          null,
                          0,
                          "k",
                          true,
                          null,
                          null,
                          null,
                          0,
                          false))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("held");
          assertThatThrownBy(
                  () ->
                      new OutboxIntent(
                          null, null, null, null, 0, null, false, null, null, null, 0, false))
              .isInstanceOf(NullPointerException.class)
              .hasMessageContaining("record");
          // Nothing was changed or recorded by any of it.
          assertThat(admin.find(SCOPE, "order-1").orElseThrow()).isEqualTo(parked);
          assertThat(audit(database)).isEmpty();
          // Long but acceptable values are stored exactly.
          String why = "\uD83D\uDE00".repeat(500);
          String id = "i".repeat(128);
          OutboxIntent done = admin.requeue(parked, id, why);
          assertThat(done.note()).startsWith("requeued by frank: ").hasSizeLessThanOrEqualTo(1000);
          assertThat(audit(database).get(0))
              .containsEntry("reason", why)
              .containsEntry("action_id", id);
        });
  }
}
