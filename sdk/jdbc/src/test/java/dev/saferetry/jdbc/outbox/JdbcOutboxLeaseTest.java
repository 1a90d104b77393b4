package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import dev.saferetry.jdbc.internal.outbox.Lease;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcRetentionClockSkewTest;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Claims under leases, takeover of expired leases, fencing, backoff and holds for a person. */
public class JdbcOutboxLeaseTest {
  public static final Duration LEASE = Duration.ofSeconds(30);

  public static StoredRequest request(String body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Stripe-Account", "acct_1");
    headers.put("Stripe-Version", "2024-06-20");
    return new StoredRequest(
        "POST",
        "v1/charges?expand[]=customer",
        KeyPlacement.header(),
        headers,
        "application/json",
        body.getBytes());
  }

  /**
   * Enqueues intents in one committed transaction, due at once (their creation and due times are
   * the database's); returns the database's time after the commit, the tests' "now".
   */
  public static Instant enqueue(TestDatabase database, JdbcKeyStore store, String... intentIds)
      throws Exception {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      for (String id : intentIds) {
        JdbcOutbox.of(store).enqueue(c, candidate(id, "fp-" + id, T0), request("{\"id\":1}"), T0);
      }
      c.commit();
    }
    return OutboxRelayTest.databaseTime(database);
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anExpiredLeaseIsTakenOverAndTheOldOwnerIsFenced(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "order-1");
      JdbcOutbox outbox = JdbcOutbox.of(store);
      RelayLeases leases = RelayLeases.of(store);

      LeasedIntent a = leases.claim("relay-a", T0, LEASE, 10).get(0);
      assertThat(a.attempts()).isEqualTo(1);
      assertThat(a.lease().expiresAt()).isEqualTo(T0.plus(LEASE));
      assertThat(leases.claim("relay-b", T0.plusSeconds(29), LEASE, 10)).isEmpty();

      List<LeasedIntent> taken = leases.claim("relay-b", T0.plus(LEASE), LEASE, 10);
      assertThat(taken).hasSize(1);
      LeasedIntent b = taken.get(0);
      assertThat(b.attempts()).isEqualTo(2);
      assertThat(b.record().key()).isEqualTo(a.record().key());
      assertThat(b.lease().token()).isGreaterThan(a.lease().token());

      IntentRecord byA = a.record().complete(IntentState.FAILED, 402, null);
      assertThat(leases.complete(a.lease(), byA, "late answer")).isFalse();
      assertThat(leases.retryAt(a.lease(), T0.plusSeconds(90), null)).isFalse();
      assertThat(leases.hold(a.lease(), RelayCodes.Hold.EXPIRED, null)).isFalse();
      assertThat(leases.renew(a.lease(), T0.plusSeconds(31), LEASE)).isEmpty();

      IntentRecord byB = b.record().complete(IntentState.SUCCEEDED, 201, "ch_1");
      assertThat(leases.complete(b.lease(), byB, null)).isTrue();
      assertThat(leases.complete(a.lease(), byA, "even later")).isFalse();
      assertThat(store.find(SCOPE, "order-1")).contains(byB);
      assertThat(store.pending()).isEmpty();
      assertThat(leases.claim("relay-c", T0.plus(Duration.ofMinutes(5)), LEASE, 10)).isEmpty();
      assertThat(outbox.held()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRescheduledIntentIsNotDueBeforeItsNextAttempt(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "order-1");
      JdbcOutbox outbox = JdbcOutbox.of(store);
      RelayLeases leases = RelayLeases.of(store);
      LeasedIntent first = leases.claim("relay-a", T0, LEASE, 10).get(0);

      assertThat(leases.retryAt(first.lease(), T0.plusSeconds(60), "HTTP 503")).isTrue();

      assertThat(leases.claim("relay-a", T0.plusSeconds(59), LEASE, 10)).isEmpty();
      LeasedIntent second = leases.claim("relay-b", T0.plusSeconds(60), LEASE, 10).get(0);
      assertThat(second.attempts()).isEqualTo(2);
      assertThat(second.record().key()).isEqualTo(first.record().key());
      assertThat(leases.complete(first.lease(), succeeded(first), null)).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aLeaseRenewedInTimeIsNotTakenOver(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "order-1");
      JdbcOutbox outbox = JdbcOutbox.of(store);
      RelayLeases leases = RelayLeases.of(store);
      LeasedIntent a = leases.claim("relay-a", T0, LEASE, 10).get(0);

      Lease renewed = leases.renew(a.lease(), T0.plusSeconds(20), LEASE).orElseThrow();

      assertThat(renewed.expiresAt()).isEqualTo(T0.plusSeconds(50));
      assertThat(leases.claim("relay-b", T0.plusSeconds(40), LEASE, 10)).isEmpty();
      assertThat(leases.complete(renewed, succeeded(a), null)).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aCompletionByTheCallerFencesTheRelay(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "order-1");
      LeasedIntent leased = RelayLeases.of(store).claim("relay-a", T0, LEASE, 10).get(0);

      IntentRecord done = succeeded(leased);
      store.complete(done); // the code that committed the order sent it itself

      assertThat(RelayLeases.of(store).complete(leased.lease(), failed(leased), "HTTP 402"))
          .isFalse();
      assertThat(store.find(SCOPE, "order-1")).contains(done);
      assertThat(JdbcOutbox.of(store).held()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRejectionIsHeldForAPersonListedAndNeverPurged(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "order-1", "order-2");
      JdbcOutbox outbox = JdbcOutbox.of(store);
      RelayLeases leases = RelayLeases.of(store);
      List<LeasedIntent> claimed = leases.claim("relay-a", T0, LEASE, 10);
      LeasedIntent rejected = claimed.get(0);

      assertThat(leases.complete(rejected.lease(), failed(rejected), "HTTP 402 card_declined\n"))
          .isTrue();
      assertThat(leases.complete(claimed.get(1).lease(), succeeded(claimed.get(1)), null)).isTrue();

      List<OutboxIntent> held = outbox.held();
      assertThat(held).hasSize(1);
      assertThat(held.get(0).reason()).isEqualTo(HoldReason.REJECTED);
      assertThat(held.get(0).record()).isEqualTo(failed(rejected));
      assertThat(held.get(0).note()).isEqualTo("HTTP 402 card_declined ");
      assertThat(held.get(0).request()).isEqualTo(request("{\"id\":1}"));
      assertThat(held.get(0).attempts()).isEqualTo(1);

      Instant muchLater = T0.plus(Duration.ofDays(3));
      JdbcRetentionClockSkewTest.age(database, Duration.ofDays(3)); // by the database's clock
      assertThat(store.purgeExpired(muchLater)).isEqualTo(1); // the succeeded one only
      assertThat(outbox.held()).hasSize(1);
      // Only the outbox's operator resolves it: the key store does not forget a parked intent.
      assertThatThrownBy(() -> store.abandon(SCOPE, rejected.record().intentId()))
          .isInstanceOfSatisfying(
              IntentRefusedException.class, e -> assertThat(e.abandoned()).isFalse());
      assertThat(outbox.held()).hasSize(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void overdueIntentsAreHeldAsExpiredAndNeverClaimed(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      Instant T0 = enqueue(database, store, "old", "leased");
      JdbcOutbox outbox = JdbcOutbox.of(store);
      RelayLeases leases = RelayLeases.of(store);
      LeasedIntent live = leases.claim("relay-a", T0, Duration.ofHours(3), 1).get(0);
      Instant pastExpiry = T0.plus(Duration.ofHours(1)); // the records' retention is one hour

      assertThat(leases.claim("relay-b", pastExpiry, LEASE, 10)).isEmpty();
      assertThat(outbox.holdOverdue(pastExpiry)).isEqualTo(1);

      List<OutboxIntent> held = outbox.held();
      assertThat(held).hasSize(1);
      assertThat(held.get(0).record().intentId()).isNotEqualTo(live.record().intentId());
      assertThat(held.get(0).reason()).isEqualTo(HoldReason.EXPIRED);
      assertThat(held.get(0).record().state()).isEqualTo(IntentState.PENDING);
      assertThat(leases.hold(live.lease(), RelayCodes.Hold.EXPIRED, "gave up")).isTrue();
      assertThat(outbox.held()).hasSize(2);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void intentsOlderThanTheMaximumAgeAreHeldBeforeTheirExpiry(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().outboxMaxAge(Duration.ofHours(1)).build()) {
      Instant T0 = enqueue(database, store, "order-1");
      // Its key is kept three hours: only its age, the table's rule, holds it.
      RelayRows.set(
          database,
          "order-1",
          "expires_at_ns",
          Duration.between(Instant.EPOCH, T0.plus(Duration.ofHours(3))).toNanos());
      Instant now = T0.plus(Duration.ofHours(1));

      assertThat(JdbcOutbox.of(store).holdOverdue(now.minusSeconds(60))).isZero();
      assertThat(JdbcOutbox.of(store).holdOverdue(now)).isEqualTo(1);
      assertThat(RelayLeases.of(store).claim("relay-a", now, LEASE, 10)).isEmpty();
      assertThat(store.pending()).hasSize(1); // still unknown: a person reconciles it
    }
  }

  public static IntentRecord succeeded(LeasedIntent leased) {
    return leased.record().complete(IntentState.SUCCEEDED, 201, "ch_" + leased.attempts());
  }

  public static IntentRecord failed(LeasedIntent leased) {
    return leased.record().complete(IntentState.FAILED, 402, null);
  }
}
