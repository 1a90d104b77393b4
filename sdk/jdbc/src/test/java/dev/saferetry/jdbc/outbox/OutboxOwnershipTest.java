package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxAdminTest.audit;
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

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An intent in the outbox belongs to the outbox, whichever API reaches it: an abandoned one is
 * never sent again under its intent id (an execute, a re-drive, an enqueue are refused, naming the
 * abandonment) until an operator releases it; a parked or ordered one is never sent by a call of
 * its own, never replaced, and never forgotten by the key store behind the outbox's back.
 */
class OutboxOwnershipTest {

  /** The call that {@code OutboxOrderingTest.commit} enqueued as {@code intentId}. */
  private static void execute(SafeRetryClient client, String intentId, long amount) {
    client.execute(
        Charges.CREATE,
        new ChargeCreateParams(amount, "eur", intentId, null),
        RequestOptions.none().withIntentId(intentId));
  }

  /** The same call, re-driven from its listed record. */
  private static void redrive(SafeRetryClient client, IntentRecord listed, long amount) {
    client.execute(
        Charges.CREATE,
        new ChargeCreateParams(amount, "eur", listed.intentId(), null),
        RequestOptions.none().withRedrive(listed));
  }

  /** Asserts that {@code call} ends UNKNOWN for {@code reason}, refused by the key store. */
  private static IntentRefusedException refused(ThrowingCallable call, Reason reason) {
    IntentRefusedException[] cause = new IntentRefusedException[1];
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.attempts()).isEmpty();
              assertThat(e.getCause()).isInstanceOf(IntentRefusedException.class);
              cause[0] = (IntentRefusedException) e.getCause();
            });
    return cause[0];
  }

  /** Parks order-1 (key order-42) as TOO_MANY_ATTEMPTS, with order-2 queued behind it. */
  private static OutboxIntent parkFirst(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time)
      throws Exception {
    commit(database, store, client, time, "order-42", "order-1", 1000);
    commit(database, store, client, time, "order-42", "order-2", 2000);
    relay(store, client, time).maxClaims(1).build().runOnce();
    return JdbcOutbox.of(store).admin("setup").whereHeld().list(10).get(0);
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anAbandonedIntentIsNeverSentByAnExecuteARedriveOrAnEnqueueOfItsIntentId(Db db)
      throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          Instant before = databaseTime(database);
          JdbcOutbox.of(store)
              .admin("bob@ops")
              .abandon(parked, "t-7", "customer cancelled the order");
          Instant after = databaseTime(database);
          List<String> sent = List.copyOf(wire);

          IntentRefusedException byExecute =
              refused(() -> execute(client, "order-1", 1000), Reason.INTENT_ABANDONED);
          assertThat(byExecute.abandoned()).isTrue();
          assertThat(byExecute.actor()).contains("bob@ops");
          assertThat(byExecute.why()).contains("customer cancelled the order");
          assertThat(byExecute.at())
              .hasValueSatisfying(at -> assertThat(at).isBetween(before, after));
          assertThat(byExecute.getMessage())
              .contains("abandoned by bob@ops")
              .contains("customer cancelled the order")
              .doesNotContain(parked.record().key().value());

          // Still unknown, so still listed; a re-drive of the listed record is refused alike.
          IntentRecord listed =
              client.pendingIntents().stream()
                  .filter(r -> r.intentId().equals("order-1"))
                  .findFirst()
                  .orElseThrow();
          refused(() -> redrive(client, listed, 1000), Reason.INTENT_ABANDONED);
          assertThat(Reason.INTENT_ABANDONED.mustReconcile()).isTrue();
          // Enqueued again, or forgotten through the key store: refused too.
          assertThatThrownBy(
                  () -> commit(database, store, client, time, "order-42", "order-1", 1000))
              .isInstanceOf(IntentRefusedException.class)
              .hasMessageContaining("abandoned by bob@ops");
          assertThatThrownBy(() -> client.abandonIntent(listed))
              .isInstanceOf(IntentRefusedException.class)
              .hasMessageContaining("abandoned by bob@ops");
          // And no relay sends it.
          relay(store, client, time).build().runOnce();
          elapse(database, time, Duration.ofHours(1));
          relay(store, client, time).build().runOnce();
          assertThat(wire.subList(sent.size(), wire.size())).containsOnly("order-2");
          assertThat(store.find(SCOPE, "order-1").orElseThrow().key())
              .isEqualTo(parked.record().key());

          // Only an operator's recorded action releases it: requeued, it goes with its key.
          OutboxIntent abandoned =
              JdbcOutbox.of(store).admin("bob@ops").find(SCOPE, "order-1").get();
          JdbcOutbox.of(store).admin("carol@ops").requeue(abandoned, "t-9", "order reinstated");
          relay(store, client, time).build().runOnce();
          assertThat(wire).endsWith("order-1");
          assertThat(audit(database))
              .extracting(a -> a.get("action") + " " + a.get("actor") + " " + a.get("state_after"))
              .containsExactly("ABANDON bob@ops ABANDONED PENDING", "REQUEUE carol@ops QUEUED");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anAbandonedRejectedIntentIsNotSentAgainByAnExecuteAndStaysFailed(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(402) : charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, null, "order-1", 1000);
          relay(store, client, time).build().runOnce();
          OutboxIntent rejected = JdbcOutbox.of(store).held().get(0);
          assertThat(rejected.reason()).isEqualTo(HoldReason.REJECTED);
          OutboxIntent ended =
              JdbcOutbox.of(store)
                  .admin("bob")
                  .abandon(rejected, "t-1", "card declined, order closed");
          assertThat(ended.record().state()).isEqualTo(IntentState.FAILED);
          assertThat(ended.record().status()).isEqualTo(402);
          refused(() -> execute(client, "order-1", 1000), Reason.INTENT_ABANDONED);
          assertThat(wire).containsExactly("order-1");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void abandoningAnIntentWhoseOutcomeIsUnknownDoesNotRecordItFailed(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          assertThat(parked.record().state()).isEqualTo(IntentState.PENDING);
          JdbcOutbox.of(store).admin("bob").abandon(parked, "t-1", "giving up");
          IntentRecord stored = store.find(SCOPE, "order-1").orElseThrow();
          assertThat(stored.state()).isEqualTo(IntentState.PENDING); // unknown: it may have charged
          assertThat(stored.status()).isZero();
          // Reconciled later (the provider charged it): the outcome is recorded, the abandonment
          // stays.
          store.complete(stored.complete(IntentState.SUCCEEDED, 0, "ch_found"));
          OutboxIntent reconciled = JdbcOutbox.of(store).admin("bob").find(SCOPE, "order-1").get();
          assertThat(reconciled.record().state()).isEqualTo(IntentState.SUCCEEDED);
          assertThat(reconciled.abandoned()).isTrue();
          refused(() -> execute(client, "order-1", 1000), Reason.INTENT_ABANDONED);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void theKeyStoreNeverForgetsAParkedHeadOrAnIntentUnderALiveLease(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          OutboxIntent parked = parkFirst(database, store, client, time);
          IntentRecord head =
              client.pendingIntents().stream()
                  .filter(r -> r.intentId().equals("order-1"))
                  .findFirst()
                  .orElseThrow();
          assertThatThrownBy(() -> client.abandonIntent(head))
              .isInstanceOfSatisfying(
                  IntentRefusedException.class, e -> assertThat(e.abandoned()).isFalse())
              .hasMessageContaining("held (parked)")
              .hasMessageContaining("OutboxAdmin");
          assertThatThrownBy(() -> store.abandon(SCOPE, "order-1"))
              .isInstanceOf(IntentRefusedException.class);
          assertThat(JdbcOutbox.of(store).admin("x").find(SCOPE, "order-1")).contains(parked);
          // The later intent of its key still waits: nothing was let through.
          relay(store, client, time).build().runOnce();
          assertThat(wire).containsExactly("order-1");

          // A queued intent a relay holds a live lease on is not forgotten either.
          commit(database, store, client, time, null, "free-1", 10);
          assertThat(RelayLeases.of(store).claim("relay-q", Duration.ofMinutes(5), 10))
              .extracting(l -> l.record().intentId())
              .containsExactly("free-1");
          assertThatThrownBy(() -> client.abandonIntent(Charges.CREATE, "free-1"))
              .isInstanceOf(IntentRefusedException.class)
              .hasMessageContaining("relay-q");
          assertThat(store.find(SCOPE, "free-1")).isPresent();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRedriveLoopNeverSendsACaptureWhileItsChargeIsParkedNorAnIntentOutOfItsOrder(Db db)
      throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          parkFirst(database, store, client, time); // order-1 parked, order-2 waits behind it
          commit(database, store, client, time, null, "free-1", 10);
          // The re-drive loop of the docs, over every listed intent.
          int refusedHeld = 0;
          for (IntentRecord intent : client.pendingIntents()) {
            long amount =
                switch (intent.intentId()) {
                  case "order-1" -> 1000;
                  case "order-2" -> 2000;
                  default -> 10;
                };
            try {
              redrive(client, intent, amount);
            } catch (OutcomeUnknownException e) {
              assertThat(e.reason()).isEqualTo(Reason.INTENT_HELD);
              assertThat(e.attempts()).isEmpty();
              refusedHeld++;
            }
          }
          assertThat(refusedHeld).isEqualTo(2); // the parked charge and its waiting capture
          // Only the unordered intent went out, with its own key (the fast path).
          assertThat(wire).containsExactly("order-1", "free-1");
          assertThat(store.find(SCOPE, "order-2").orElseThrow().state())
              .isEqualTo(IntentState.PENDING);
          IntentRefusedException held =
              refused(() -> execute(client, "order-2", 2000), Reason.INTENT_HELD);
          assertThat(held.getMessage()).contains("ordering key order-42");
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aParkedRejectedHeadPastItsRetentionIsNotReplacedByAReExecute(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(402) : charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, "order-42", "order-1", 1000);
          commit(database, store, client, time, "order-42", "order-2", 2000);
          relay(store, client, time).build().runOnce();
          OutboxIntent rejected = JdbcOutbox.of(store).held().get(0);
          assertThat(rejected.reason()).isEqualTo(HoldReason.REJECTED);
          elapse(database, time, Duration.ofDays(2)); // past its key's retention

          refused(() -> execute(client, "order-1", 1000), Reason.INTENT_HELD);

          assertThat(wire).containsExactly("order-1");
          OutboxIntent still = JdbcOutbox.of(store).admin("x").find(SCOPE, "order-1").orElseThrow();
          assertThat(still.reason()).isEqualTo(HoldReason.REJECTED);
          assertThat(still.record().key()).isEqualTo(rejected.record().key());
          assertThat(still.holdsKey()).isTrue();
          assertThat(store.purgeExpired(Instant.parse("2200-01-01T00:00:00Z"))).isZero();
          assertThat(audit(database)).isEmpty();
          relay(store, client, time).build().runOnce();
          assertThat(wire).containsExactly("order-1"); // order-2 still waits behind it
        });
  }
}
