package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxRelayTest;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What is stored comes back exactly; what could not is refused before anything is written. */
class JdbcExactValuesTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void idsDifferingOnlyInCaseOrTrailingSpacesAreDifferentIntents(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      for (String id : new String[] {"order-1", "ORDER-1", "order-1 ", "orde\u0301r-1"}) {
        assertThat(store.begin(candidate(id, "fp", T0)).created()).as(id).isTrue();
      }
      assertThat(store.pending()).hasSize(4);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void textBeyondTheBasicPlaneAndTheRecordedInstantsRoundTripExactly(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      IntentScope scope = new IntentScope("t\uD83D\uDE00-".repeat(32), "POST /v1/\u00fcber");
      Instant created = Instant.parse("1901-12-13T20:45:52.999999999Z");
      IntentRecord r =
          IntentRecord.pending(
              scope,
              "\uD834\uDD1E-" + "x".repeat(252),
              IdempotencyKey.of("k".repeat(255)),
              "f".repeat(512),
              created,
              Duration.ofDays(365 * 200).plusNanos(1));
      BeginResult begun = store.begin(r);
      assertThat(begun.created()).isTrue();
      IntentRecord recorded = begun.record(); // at the database's time, with its retention
      assertThat(Duration.between(recorded.createdAt(), recorded.expiresAt()))
          .isEqualTo(Duration.ofDays(365 * 200).plusNanos(1));
      assertThat(store.find(scope, r.intentId())).contains(recorded);
      IntentRecord done = recorded.complete(IntentState.SUCCEEDED, 201, "ch_\u00e9".repeat(5000));
      store.complete(done);
      assertThat(store.find(scope, r.intentId())).contains(done);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void textOrTimesAColumnWouldChangeAreRefusedBeforeAnythingIsWritten(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      IntentScope longTenant = new IntentScope("t".repeat(129), "POST /v1/charges");
      IntentScope longOperation = new IntentScope("default", "o".repeat(256));
      // an unpaired surrogate cannot even make a record: two ids would be stored as one
      assertThatThrownBy(() -> candidate("order-\uD83D", "fp", T0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> candidate("order-\uDE00x", "fp", T0))
          .isInstanceOf(IllegalArgumentException.class);
      IntentRecord[] refused = {
        candidate("order-1", "fp\u0000", T0),
        candidate("order-1", "f".repeat(513), T0),
        IntentRecord.pending(longTenant, "o", IdempotencyKey.random(), "fp", T0, Duration.ZERO),
        IntentRecord.pending(longOperation, "o", IdempotencyKey.random(), "fp", T0, Duration.ZERO),
        // recorded at the database's time, a retention of 240 years ends after 2262
        IntentRecord.pending(
            SCOPE, "order-1", IdempotencyKey.random(), "fp", T0, Duration.ofDays(365 * 240)),
      };
      for (IntentRecord r : refused) {
        assertThatThrownBy(() -> store.begin(r))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageNotContaining("fp\u0000");
      }
      assertThat(store.pending()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anOutcomeThatCannotBeStoredExactlyLeavesTheIntentPending(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      IntentRecord r = store.begin(candidate("order-1", "fp", T0)).record();
      assertThatThrownBy(() -> store.complete(r.complete(IntentState.SUCCEEDED, 201, "ch_\u0000")))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining("NUL");
      assertThat(store.find(SCOPE, "order-1")).contains(r);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aStoredRequestComesBackByteForByte(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      byte[] body = new byte[256 * 4];
      for (int i = 0; i < body.length; i++) {
        body[i] = (byte) i;
      }
      StoredRequest request =
          new StoredRequest(
              "POST",
              "v1/customers/cus_1/charges?expand[]=customer&note=%E2%82%AC",
              KeyPlacement.structuredHeader("Idempotency-Key"),
              Map.of("Idempotency-Replay-Hint", "  spaced\tvalue "),
              "application/octet-stream",
              body);
      try (Connection c = database.pool().getConnection()) {
        c.setAutoCommit(false);
        JdbcOutbox.of(store).enqueue(c, candidate("order-1", "fp", T0), request, T0);
        c.commit();
      }
      LeasedIntent leased =
          RelayLeases.of(store)
              .claim("relay", OutboxRelayTest.databaseTime(database), Duration.ofSeconds(30), 1)
              .get(0);
      assertThat(leased.request()).isEqualTo(request);
      assertThat(leased.request().body()).isEqualTo(body);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aClosedStoreRefusesEveryCall(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      JdbcKeyStore store = database.builder().build();
      store.close();
      assertThatThrownBy(() -> store.begin(candidate("order-1", "fp", T0)))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining("closed");
      assertThatThrownBy(store::pending).isInstanceOf(KeyStoreException.class);
      assertThatThrownBy(() -> JdbcOutbox.of(store).held()).isInstanceOf(KeyStoreException.class);
    }
  }
}
