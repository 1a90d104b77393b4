package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.commit;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.oneAttempt;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.atDatabaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An intent that keeps failing is parked after the relay's claim limit, one whose answer will never
 * change is parked at once; a parked intent is never retried silently and, with an ordering key,
 * keeps its key's later intents waiting until an operator lets the key continue.
 */
class OutboxParkingTest {

  /** One case: a database, its store, a server whose answers are chosen by intent, fake time. */
  interface Case {
    void run(
        TestDatabase database,
        JdbcKeyStore store,
        SafeRetryClient client,
        FakeTime time,
        List<String> wire)
        throws Exception;
  }

  /** Runs {@code body}; the server answers each request with {@code answers} of its intent id. */
  static void withServer(Db db, Function<String, MockResponse> answers, Case body)
      throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = atDatabaseTime();
      List<String> wire = new CopyOnWriteArrayList<>();
      Map<String, String> byKey = new ConcurrentHashMap<>();
      server.setDispatcher(
          new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
              String key = request.getHeaders().get("Idempotency-Key");
              String intent =
                  byKey.computeIfAbsent(key, k -> OutboxOrderingTest.intentOf(store, k));
              wire.add(intent);
              return answers.apply(intent);
            }
          });
      try (SafeRetryClient client = oneAttempt(server, time, store)) {
        body.run(database, store, client, time, wire);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anIntentIsParkedAfterTheClaimLimitAndNeverSentAgainWhileItsKeyWaits(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(503) : charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, "order-42", "order-1", 1000);
          commit(database, store, client, time, "order-42", "order-2", 2000);
          commit(database, store, client, time, null, "free-1", 10);
          OutboxRelay relay = relay(store, client, time).maxClaims(3).build();
          for (int pass = 0; pass < 10; pass++) {
            relay.runOnce();
            elapse(database, time, Duration.ofMinutes(10));
          }
          assertThat(wire).containsExactlyInAnyOrder("order-1", "free-1", "order-1", "order-1");
          OutboxIntent parked = JdbcOutbox.of(store).held().get(0);
          assertThat(parked.reason()).isEqualTo(HoldReason.TOO_MANY_ATTEMPTS);
          assertThat(parked.attempts()).isEqualTo(3);
          assertThat(parked.note()).contains("claimed 3 times").contains("RETRIES_EXHAUSTED");
          assertThat(parked.record().state()).isEqualTo(IntentState.PENDING);
          assertThat(parked.orderingKey()).isEqualTo("order-42");
          assertThat(parked.holdsKey()).isTrue();
          assertThat(parked.isHeld()).isTrue();
          assertThat(store.find(SCOPE, "order-2").orElseThrow().state())
              .isEqualTo(IntentState.PENDING);

          // The operator lets the key continue: order-2 goes, order-1 stays parked.
          JdbcOutbox.of(store)
              .admin("alice")
              .releaseKey(parked, "ticket-1", "order-1 is being checked");
          relay.runOnce();
          assertThat(wire).endsWith("order-2");
          assertThat(store.find(SCOPE, "order-2").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(h -> assertThat(h.holdsKey()).isFalse());
          elapse(database, time, Duration.ofHours(1));
          relay.runOnce();
          assertThat(wire).hasSize(5);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aClaimPastTheLimitWhoseRelaysDiedIsParkedWithoutSending(Db db) throws Exception {
    withServer(
        db,
        intent -> charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, null, "order-1", 1000);
          Duration lease = Duration.ofSeconds(60);
          for (int i = 0; i < 2; i++) { // two relays die holding it
            assertThat(RelayLeases.of(store).claim("relay-dead-" + i, lease, 10)).hasSize(1);
            elapse(database, time, lease.plusSeconds(1));
          }
          RelayPass pass = relay(store, client, time).maxClaims(2).build().runOnce();
          assertThat(pass.claimed()).isEqualTo(1);
          assertThat(pass.held()).isEqualTo(1);
          assertThat(wire).isEmpty();
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.TOO_MANY_ATTEMPTS);
                    assertThat(h.note()).contains("claimed 3 times without an ending");
                  });
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aDefinitiveAnswerParksAtOnceAndHoldsTheKeyWhileOtherKeysGoOn(Db db) throws Exception {
    withServer(
        db,
        intent -> intent.equals("order-1") ? status(402) : charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, "order-42", "order-1", 1000);
          commit(database, store, client, time, "order-42", "order-2", 2000);
          commit(database, store, client, time, "order-43", "other-1", 30);
          commit(database, store, client, time, "order-43", "other-2", 40);
          OutboxRelay relay = relay(store, client, time).build();
          for (int pass = 0; pass < 4; pass++) {
            relay.runOnce();
            elapse(database, time, Duration.ofMinutes(10));
          }
          assertThat(wire).containsExactlyInAnyOrder("order-1", "other-1", "other-2");
          assertThat(wire.indexOf("other-2")).isGreaterThan(wire.indexOf("other-1"));
          OutboxIntent rejected = JdbcOutbox.of(store).held().get(0);
          assertThat(rejected.reason()).isEqualTo(HoldReason.REJECTED);
          assertThat(rejected.attempts()).isEqualTo(1);
          assertThat(rejected.holdsKey()).isTrue();
          assertThat(rejected.record().status()).isEqualTo(402);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aTamperedHeadIsParkedByTheClaimAndItsKeyWaits(Db db) throws Exception {
    withServer(
        db,
        intent -> charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, "order-42", "order-1", 1000);
          commit(database, store, client, time, "order-42", "order-2", 2000);
          RelayRows.set(database, "order-1", "request_target", "v1/refunds");
          OutboxRelay relay = relay(store, client, time).build();
          relay.runOnce();
          relay.runOnce();
          assertThat(wire).isEmpty();
          assertThat(JdbcOutbox.of(store).held())
              .singleElement()
              .satisfies(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED);
                    assertThat(h.holdsKey()).isTrue();
                  });
          OutboxIntent tampered = JdbcOutbox.of(store).held().get(0);
          JdbcOutbox.of(store)
              .admin("bob")
              .abandon(tampered, "ticket-9", "tampered row, re-enqueued");
          relay.runOnce();
          assertThat(wire).containsExactly("order-2");
        });
  }

  @Test
  void theClaimLimitMustBeSensible() throws Exception {
    withServer(
        Db.H2,
        intent -> charge(),
        (database, store, client, time, wire) -> {
          OutboxRelayBuilder b = OutboxRelay.builder().store(store).client(client);
          for (int bad : new int[] {0, -1, 1001, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> b.maxClaims(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxClaims");
          }
          assertThat(b.maxClaims(1)).isSameAs(b);
          assertThat(OutboxRelayBuilder.DEFAULT_MAX_CLAIMS).isEqualTo(20);
        });
  }
}
