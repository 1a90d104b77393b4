package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.provider.StripeReconciler;
import dev.saferetry.testing.Answers;
import java.time.Duration;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An answer that a re-send cannot change and that proves nothing — a replayed stored error, a
 * request not to retry — is not re-sent by the relay, pass after pass: the intent is held, still
 * pending, for a person or a reconciler.
 */
class OutboxRelayUnsettledTest {
  private static final IntentScope SCOPE = new IntentScope("default", Charges.CREATE.name());

  /** A replayed 500 for order-1, a 503 with {@code X-Should-Retry: false} for order-2. */
  private static void answerUnsettled(mockwebserver3.MockWebServer server) {
    server.enqueue(
        new MockResponse.Builder()
            .code(500)
            .setHeader("Idempotent-Replayed", "true")
            .body("{\"error\":{\"type\":\"api_error\"}}")
            .build());
    server.enqueue(
        new MockResponse.Builder()
            .code(503)
            .setHeader("X-Should-Retry", "false")
            .body("{\"error\":{\"type\":\"api_error\"}}")
            .build());
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aStoredErrorOrADoNotRetryIsHeldPendingAndNeverResent(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2);
          List<IntentRecord> intents = client.pendingIntents();
          answerUnsettled(server);
          OutboxRelay relay = relay(store, client, time).build();

          RelayPass pass = relay.runOnce();
          assertThat(pass.claimed()).isEqualTo(2);
          assertThat(pass.unsettled()).isEqualTo(2);
          assertThat(pass.retried()).isZero();
          assertThat(pass.rejected()).isZero();

          List<OutboxIntent> held = JdbcOutbox.of(store).held();
          assertThat(held).hasSize(2);
          assertThat(held).allSatisfy(h -> assertThat(h.reason()).isEqualTo(HoldReason.UNSETTLED));
          assertThat(held)
              .allSatisfy(h -> assertThat(h.record().state()).isEqualTo(IntentState.PENDING));
          assertThat(held)
              .extracting(OutboxIntent::note)
              .anySatisfy(n -> assertThat(n).contains("PROVIDER_STORED_ERROR"))
              .anySatisfy(n -> assertThat(n).contains("SERVER_SAID_DO_NOT_RETRY"));

          // Hours of passes later, nothing more was sent.
          for (int i = 0; i < 5; i++) {
            elapse(database, time, Duration.ofMinutes(10));
            assertThat(relay.runOnce().claimed()).isZero();
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(2);
          assertThat(Answers.keys(wire, "Idempotency-Key"))
              .containsExactly(intents.get(0).key().value(), intents.get(1).key().value());
          for (IntentRecord i : intents) {
            assertThat(store.find(SCOPE, i.intentId()).orElseThrow().state())
                .isEqualTo(IntentState.PENDING);
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHeldUnsettledIntentIsReconciledWithTheProvider(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          server.enqueue(
              new MockResponse.Builder()
                  .code(500)
                  .setHeader("Idempotent-Replayed", "true")
                  .body("{}")
                  .build());
          OutboxRelay relay =
              relay(store, client, time)
                  .reconciler(
                      Charges.CREATE,
                      StripeReconciler.charges(
                          intent -> StripeReconciler.charge("intent_id", 1000, "eur")))
                  .build();
          assertThat(relay.runOnce().unsettled()).isEqualTo(1);
          server.enqueue(
              Answers.json(
                  200,
                  "{\"object\":\"search_result\",\"has_more\":false,\"data\":[{\"id\":\"ch_found\",\"object\":\"charge\",\"status\":"
                      + "\"succeeded\",\"amount\":1000,\"currency\":\"eur\",\"metadata\":"
                      + "{\"intent_id\":\"order-1\",\"saferetry_tenant\":\"default\"}}]}"));
          RelayPass next = relay.runOnce();
          assertThat(next.reconciled()).isEqualTo(1);
          assertThat(next.claimed()).isZero();
          IntentRecord done = store.find(SCOPE, "order-1").orElseThrow();
          assertThat(done.state()).isEqualTo(IntentState.SUCCEEDED);
          assertThat(done.resourceId()).isEqualTo("ch_found");
          assertThat(drain(server))
              .extracting(RecordedRequest::getMethod)
              .containsExactly("POST", "GET");
        });
  }
}
